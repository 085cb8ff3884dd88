! The 3D divergence of Kamil et al. (IPDPS 2010), Fig. 1b: three input grids
! (a vector field as a structure of arrays), one output grid, 8 flops per point.
subroutine div(nx, ny, nz, alpha, beta, gamma, x, y, z, u)
  implicit none
  integer, intent(in) :: nx, ny, nz
  real(8), intent(in) :: alpha, beta, gamma
  real(8), intent(in) :: x(0:nx+1, 0:ny+1, 0:nz+1), y(0:nx+1, 0:ny+1, 0:nz+1)
  real(8), intent(in) :: z(0:nx+1, 0:ny+1, 0:nz+1)
  real(8), intent(inout) :: u(0:nx+1, 0:ny+1, 0:nz+1)
  integer :: i, j, k

  !$f2s stencil name(divergence)
  do k = 1, nz
    do j = 1, ny
      do i = 1, nx
        u(i,j,k) = alpha*(x(i+1,j,k) - x(i-1,j,k)) + beta*(y(i,j+1,k) - y(i,j-1,k)) &
                 + gamma*(z(i,j,k+1) - z(i,j,k-1))
      end do
    end do
  end do
end subroutine div
