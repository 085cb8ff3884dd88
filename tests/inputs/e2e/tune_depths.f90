! A smoother over a 3D grid, the periodic face copy of its x faces (2D) and
! a boundary line (1D): nests of three depths in one library, as a
! multigrid code has them, to be tuned with --tune-size sizes of two
! depths (the line keeps its clause).
subroutine smooth(u, r, n1, n2, n3)
  implicit none
  integer, intent(in) :: n1, n2, n3
  real(8), intent(inout) :: u(n1, n2, n3)
  real(8), intent(in) :: r(n1, n2, n3)
  integer :: i1, i2, i3
  !$f2s stencil name(td_smooth)
  do i3 = 2, n3 - 1
    do i2 = 2, n2 - 1
      do i1 = 2, n1 - 1
        u(i1, i2, i3) = u(i1, i2, i3) + 0.125d0 * (r(i1 - 1, i2, i3) + r(i1 + 1, i2, i3) &
                        + r(i1, i2 - 1, i3) + r(i1, i2 + 1, i3) - 4d0 * r(i1, i2, i3))
      end do
    end do
  end do
  !$f2s stencil name(td_faces)
  do i3 = 2, n3 - 1
    do i2 = 2, n2 - 1
      u(1, i2, i3) = u(n1 - 1, i2, i3)
      u(n1, i2, i3) = u(2, i2, i3)
    end do
  end do
end subroutine smooth

subroutine edge(v, n)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: v(0:n + 1)
  integer :: i
  !$f2s stencil name(td_edge) tune_size(300)
  do i = 1, n
    v(i) = 0.5d0 * v(i)
  end do
end subroutine edge
