! Reductions that register blocking's copies of the point make identical
! (a count, a loop-invariant sum): common subexpressions must not merge two
! updates of one accumulator. Also a minimum under an IF, in single precision,
! and names (r, s) that the generated harnesses and launchers use too.
subroutine reductions2d(nx, ny, h, u, v, r, s, lowest)
  implicit none
  integer, intent(in) :: nx, ny
  real(8), intent(in) :: h
  real(8), intent(in) :: u(0:nx+1, 0:ny+1)
  real(8), intent(inout) :: v(0:nx+1, 0:ny+1)
  integer, intent(inout) :: r
  real(8), intent(inout) :: s
  real(4), intent(inout) :: lowest
  integer :: i, j

  !$f2s stencil name(reductions2d)
  do j = 1, ny
    do i = 1, nx
      v(i,j) = u(i-1,j) + u(i+1,j) - h
      r = r + 1
      s = s + h
      s = s - h*0.5d0
      if (v(i,j) > 1d0) lowest = min(lowest, v(i,j))
    end do
  end do
end subroutine reductions2d
