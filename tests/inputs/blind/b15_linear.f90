! A Jacobi sweep of a code that stores its grids 1D and linearises the
! index by hand, as codes ported from C do.
subroutine jac1d(nx, ny, a, b)
  implicit none
  integer, intent(in) :: nx, ny
  real(8), intent(in) :: a(nx*ny)
  real(8), intent(inout) :: b(nx*ny)
  integer :: i, j, ij
  !$f2s stencil name(b15_linear)
  do j = 2, ny - 1
    do i = 2, nx - 1
      ij = i + (j - 1)*nx
      b(ij) = 0.25d0*(a(ij-1) + a(ij+1) + a(ij-nx) + a(ij+nx))
    end do
  end do
end subroutine
