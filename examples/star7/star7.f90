! The 7-point, order-1 star of Zhang and Mueller (CGO 2012), Table 1: each
! output point is the input point scaled by c0 plus its six face neighbours
! scaled by c1. 8 flops per point (6 adds, 2 multiplies).
subroutine stencil7(nx, ny, nz, c0, c1, u, unew)
  implicit none
  integer, intent(in) :: nx, ny, nz
  real(8), intent(in) :: c0, c1
  real(8), intent(in) :: u(0:nx+1, 0:ny+1, 0:nz+1)
  real(8), intent(inout) :: unew(0:nx+1, 0:ny+1, 0:nz+1)
  real(8) :: t
  integer :: i, j, k

  !$f2s stencil name(star7)
  do k = 1, nz
    do j = 1, ny
      do i = 1, nx
        t = (u(i+1,j,k) + u(i-1,j,k) + u(i,j+1,k) + u(i,j-1,k) + u(i,j,k+1) + u(i,j,k-1))*c1
        unew(i,j,k) = t + c0*u(i,j,k)
      end do
    end do
  end do
end subroutine stencil7
