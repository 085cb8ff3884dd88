! Statements between the DO loops (issue 38), as production codes write
! them: a boundary element of each row set before the inner loop and one
! after it, from what the inner loop wrote (2D); and in 3D a statement per
! row between the j and i loops beside a scalar, one after the inner loop,
! a corner set only under an IF on the plane's loop variable and an edge of
! each plane after the j loop. Each runs once per iteration of its loops,
! also where the inner loop runs no trip (nx = 2 in 2D, nx = 1 in 3D). And
! a boundary element of each row computed from the previous row's, which
! orders the loop over j (the dependence analysis's answer), the loop over
! i still free.
subroutine rows_orig(nx, ny, a, b)
  implicit none
  integer, intent(in) :: nx, ny
  real(8), intent(inout) :: a(nx, ny), b(nx, ny)
  integer :: i, j
!$f2s stencil name(imp_rows) tune_size(40, 30)
  do j = 2, ny - 1
    a(1, j) = a(2, j)
    do i = 2, nx - 1
      b(i, j) = 0.25d0*(a(i-1, j) + a(i+1, j) + a(i, j-1) + a(i, j+1))
    end do
    b(nx, j) = b(nx-1, j)
  end do
end subroutine rows_orig

subroutine edge_orig(nx, ny, a, b)
  implicit none
  integer, intent(in) :: nx, ny
  real(8), intent(inout) :: a(nx, ny), b(nx, ny)
  integer :: i, j
!$f2s stencil name(imp_edge) tune_size(40, 30)
  do j = 2, ny
    a(1, j) = 0.5d0*(a(1, j-1) + a(2, j))
    do i = 2, nx - 1
      b(i, j) = a(i-1, j) - 0.25d0*a(i+1, j-1)
    end do
  end do
end subroutine edge_orig

subroutine planes_orig(nx, ny, nz, u, v, w)
  implicit none
  integer, intent(in) :: nx, ny, nz
  real(8), intent(in) :: u(0:nx+1, 0:ny+1, nz)
  real(8), intent(inout) :: v(0:nx+1, 0:ny+1, nz), w(ny, nz)
  real(8) :: s
  integer :: i, j, k
!$f2s stencil name(imp_planes) tune_size(24, 10, 9)
  do k = 1, nz
    if (k == 1) then
      v(0, 0, k) = u(0, 0, k)
    end if
    do j = 1, ny
      s = 0.5d0*u(0, j, k)
      v(0, j, k) = s + u(1, j, k)
      do i = 1, nx - 1
        v(i, j, k) = s*u(i, j, k) + u(i-1, j, k) + u(i+1, j, k) + u(i, j-1, k) + u(i, j+1, k)
      end do
      w(j, k) = v(nx-1, j, k) - u(0, j, k)
    end do
    v(nx, ny, k) = 2d0*v(nx-1, ny, k)
  end do
end subroutine planes_orig
