! Fourth-order Laplacian of a spectral-element-free finite-difference code:
! two halo points on each side, coefficients as named constants.
subroutine lap4(nx, ny, rdx2, rdy2, f, lf)
  implicit none
  integer, intent(in) :: nx, ny
  real(kind=8), intent(in) :: rdx2, rdy2
  real(kind=8), intent(in) :: f(-1:nx+2, -1:ny+2)
  real(kind=8), intent(out) :: lf(-1:nx+2, -1:ny+2)
  real(kind=8), parameter :: c0 = -5.0d0/2.0d0, c1 = 4.0d0/3.0d0, c2 = -1.0d0/12.0d0
  integer :: i, j

  !$omp parallel do private(i) schedule(static)
  !$f2s stencil name(b05_lap4)
  do j = 1, ny
     do i = 1, nx
        lf(i,j) = rdx2*(c2*(f(i-2,j) + f(i+2,j)) + c1*(f(i-1,j) + f(i+1,j)) + c0*f(i,j)) &
                + rdy2*(c2*(f(i,j-2) + f(i,j+2)) + c1*(f(i,j-1) + f(i,j+1)) + c0*f(i,j))
     end do
  end do
  !$omp end parallel do
end subroutine lap4
