! The 13-point, order-2 star of Zhang and Mueller (CGO 2012), Table 1: the
! input point scaled by c0, its six neighbours at distance 1 scaled by c1 and
! its six neighbours at distance 2 scaled by c2. The halo is two points wide.
! 15 flops per point (12 adds, 3 multiplies).
subroutine stencil13(nx, ny, nz, c0, c1, c2, u, unew)
  implicit none
  integer, intent(in) :: nx, ny, nz
  real(8), intent(in) :: c0, c1, c2
  real(8), intent(in) :: u(-1:nx+2, -1:ny+2, -1:nz+2)
  real(8), intent(inout) :: unew(-1:nx+2, -1:ny+2, -1:nz+2)
  real(8) :: t
  integer :: i, j, k

  !$f2s stencil name(star13)
  do k = 1, nz
    do j = 1, ny
      do i = 1, nx
        t = c1*(u(i+1,j,k) + u(i-1,j,k) + u(i,j+1,k) + u(i,j-1,k) + u(i,j,k+1) + u(i,j,k-1))
        t = t + c2*(u(i+2,j,k) + u(i-2,j,k) + u(i,j+2,k) + u(i,j-2,k) + u(i,j,k+2) + u(i,j,k-2))
        unew(i,j,k) = t + c0*u(i,j,k)
      end do
    end do
  end do
end subroutine stencil13
