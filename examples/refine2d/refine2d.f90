! The first half of an in-place bilinear interpolation on a grid that keeps
! its coarse points at odd (i, j): on every coarse row (odd j), each point
! between two coarse points (even i) becomes their mean. The loops step by 2,
! so each point reads only coarse points, which no point writes, and the
! rows in between (even j) are left for the second half.
subroutine refine(nx, ny, u)
  implicit none
  integer, intent(in) :: nx, ny
  real(8), intent(inout) :: u(0:nx+1, 0:ny+1)
  integer :: i, j

  !$f2s stencil name(refine2d) tune_size(1024, 1024)
  do j = 1, ny, 2
    do i = 2, nx - 1, 2
      u(i,j) = 0.5d0*(u(i-1,j) + u(i+1,j))
    end do
  end do
end subroutine refine
