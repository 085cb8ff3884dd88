! The 3D Laplacian of Kamil et al. (IPDPS 2010), Fig. 1a: one input grid, one
! output grid, seven points, 8 flops per point.
subroutine smooth(nx, ny, nz, alpha, beta, u, unew)
  implicit none
  integer, intent(in) :: nx, ny, nz
  real(8), intent(in) :: alpha, beta
  real(8), intent(in) :: u(0:nx+1, 0:ny+1, 0:nz+1)
  real(8), intent(inout) :: unew(0:nx+1, 0:ny+1, 0:nz+1)
  integer :: i, j, k

  !$f2s stencil name(laplacian)
  do k = 1, nz
    do j = 1, ny
      do i = 1, nx
        unew(i,j,k) = alpha*u(i,j,k) + beta*(u(i+1,j,k) + u(i-1,j,k) + u(i,j+1,k) &
                    + u(i,j-1,k) + u(i,j,k+1) + u(i,j,k-1))
      end do
    end do
  end do
end subroutine smooth
