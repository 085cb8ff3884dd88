! The 2D five-point Jacobi sweep for the Laplace equation.
subroutine jac2d(nx, ny, u, unew)
  implicit none
  integer, intent(in) :: nx, ny
  real(8), intent(in) :: u(0:nx+1, 0:ny+1)
  real(8), intent(inout) :: unew(0:nx+1, 0:ny+1)
  integer :: i, j

  !$f2s stencil name(jacobi2d)
  do j = 1, ny
    do i = 1, nx
      unew(i,j) = 0.25d0*(u(i-1,j) + u(i+1,j) + u(i,j-1) + u(i,j+1))
    end do
  end do
end subroutine jac2d
