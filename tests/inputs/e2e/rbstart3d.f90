! Red-black and four-colour relaxations of a 7-point pressure equation on a
! slab i = nxl..nxr of a decomposed domain, as ocean and atmosphere codes
! write them: the first point of each row is a parity computed between the
! loops (under an IF, an IF block, or directly by MOD), the stride-2 loop
! starts there, and the vertical sweep inside or around it is lexicographic,
! reading the level below as this sweep left it.

! The colour picked by an IF statement per row; k innermost, in order.
subroutine rbs_ifstmt(nxl, nxr, ny, nz, colour, omega, rhs, p)
  implicit none
  integer, intent(in) :: nxl, nxr, ny, nz, colour
  real(8), intent(in) :: omega, rhs(nxl-1:nxr+1, 0:ny+1, 0:nz+1)
  real(8), intent(inout) :: p(nxl-1:nxr+1, 0:ny+1, 0:nz+1)
  integer :: i, j, k, nxl1
  !$f2s stencil name(rbs_a)
  do j = 1, ny
    nxl1 = nxl
    if (mod(nxl + j + colour, 2) /= 0) nxl1 = nxl + 1
    do i = nxl1, nxr, 2
      do k = 1, nz
        p(i,j,k) = (1 - omega)*p(i,j,k) + omega/6*(p(i-1,j,k) + p(i+1,j,k) + p(i,j-1,k) &
                 + p(i,j+1,k) + p(i,j,k-1) + p(i,j,k+1) - rhs(i,j,k))
      end do
    end do
  end do
end subroutine rbs_ifstmt

! The colour by an IF block with ELSE; the vertical loop outermost.
subroutine rbs_ifblock(nxl, nxr, ny, nz, colour, omega, rhs, p)
  implicit none
  integer, intent(in) :: nxl, nxr, ny, nz, colour
  real(8), intent(in) :: omega, rhs(nxl-1:nxr+1, 0:ny+1, 0:nz+1)
  real(8), intent(inout) :: p(nxl-1:nxr+1, 0:ny+1, 0:nz+1)
  integer :: i, j, k, istart
  !$f2s stencil name(rbs_b)
  do k = 1, nz
    do j = 1, ny
      if (mod(j + colour + nxl, 2) == 0) then
        istart = nxl
      else
        istart = nxl + 1
      end if
      do i = istart, nxr, 2
        p(i,j,k) = (1 - omega)*p(i,j,k) + omega/6*(p(i-1,j,k) + p(i+1,j,k) + p(i,j-1,k) &
                 + p(i,j+1,k) + p(i,j,k-1) + p(i,j,k+1) - rhs(i,j,k))
      end do
    end do
  end do
end subroutine rbs_ifblock

! The first point computed directly, `nxl + mod(...)`; k innermost.
subroutine rbs_direct(nxl, nxr, ny, nz, colour, omega, rhs, p)
  implicit none
  integer, intent(in) :: nxl, nxr, ny, nz, colour
  real(8), intent(in) :: omega, rhs(nxl-1:nxr+1, 0:ny+1, 0:nz+1)
  real(8), intent(inout) :: p(nxl-1:nxr+1, 0:ny+1, 0:nz+1)
  integer :: i, j, k, nxl1
  !$f2s stencil name(rbs_c)
  do j = 1, ny
    nxl1 = nxl + mod(nxl + j + colour, 2)
    do i = nxl1, nxr, 2
      do k = 1, nz
        p(i,j,k) = (1 - omega)*p(i,j,k) + omega/6*(p(i-1,j,k) + p(i+1,j,k) + p(i,j-1,k) &
                 + p(i,j+1,k) + p(i,j,k-1) + p(i,j,k+1) - rhs(i,j,k))
      end do
    end do
  end do
end subroutine rbs_direct

! Four colours, (i, j) by parity: both horizontal loops step by 2 from a
! start the colour (0..3) gives, k innermost in order.
subroutine rbs_four(nxl, nxr, ny, nz, colour, omega, rhs, p)
  implicit none
  integer, intent(in) :: nxl, nxr, ny, nz, colour
  real(8), intent(in) :: omega, rhs(nxl-1:nxr+1, 0:ny+1, 0:nz+1)
  real(8), intent(inout) :: p(nxl-1:nxr+1, 0:ny+1, 0:nz+1)
  integer :: i, j, k, nxl1
  !$f2s stencil name(rbs_d)
  do j = 1 + colour/2, ny, 2
    nxl1 = nxl
    if (mod(colour, 2) == 1) nxl1 = nxl + 1
    do i = nxl1, nxr, 2
      do k = 1, nz
        p(i,j,k) = (1 - omega)*p(i,j,k) + omega/6*(p(i-1,j,k) + p(i+1,j,k) + p(i,j-1,k) &
                 + p(i,j+1,k) + p(i,j,k-1) + p(i,j,k+1) - rhs(i,j,k))
      end do
    end do
  end do
end subroutine rbs_four

! Zebra lines: rows (j, k) of one colour by a start computed per level,
! each row relaxed in place along i, which runs in order.
subroutine rbs_zebra(nxl, nxr, ny, nz, colour, omega, rhs, p)
  implicit none
  integer, intent(in) :: nxl, nxr, ny, nz, colour
  real(8), intent(in) :: omega, rhs(nxl-1:nxr+1, 0:ny+1, 0:nz+1)
  real(8), intent(inout) :: p(nxl-1:nxr+1, 0:ny+1, 0:nz+1)
  integer :: i, j, k, jst
  !$f2s stencil name(rbs_e)
  do k = 1, nz
    jst = 1
    if (mod(k + colour, 2) /= 0) jst = 2
    do j = jst, ny, 2
      do i = nxl, nxr
        p(i,j,k) = (1 - omega)*p(i,j,k) + omega/6*(p(i-1,j,k) + p(i+1,j,k) + p(i,j-1,k) &
                 + p(i,j+1,k) + p(i,j,k-1) + p(i,j,k+1) - rhs(i,j,k))
      end do
    end do
  end do
end subroutine rbs_zebra
