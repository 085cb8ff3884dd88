! The 3D gradient of Kamil et al. (IPDPS 2010), Fig. 1c: one input grid, three
! output grids (a vector field as a structure of arrays), 6 flops per point.
subroutine grad(nx, ny, nz, alpha, beta, gamma, u, x, y, z)
  implicit none
  integer, intent(in) :: nx, ny, nz
  real(8), intent(in) :: alpha, beta, gamma
  real(8), intent(in) :: u(0:nx+1, 0:ny+1, 0:nz+1)
  real(8), intent(inout) :: x(0:nx+1, 0:ny+1, 0:nz+1), y(0:nx+1, 0:ny+1, 0:nz+1)
  real(8), intent(inout) :: z(0:nx+1, 0:ny+1, 0:nz+1)
  integer :: i, j, k

  !$f2s stencil name(gradient)
  do k = 1, nz
    do j = 1, ny
      do i = 1, nx
        x(i,j,k) = alpha*(u(i+1,j,k) - u(i-1,j,k))
        y(i,j,k) = beta*(u(i,j+1,k) - u(i,j-1,k))
        z(i,j,k) = gamma*(u(i,j,k+1) - u(i,j,k-1))
      end do
    end do
  end do
end subroutine grad
