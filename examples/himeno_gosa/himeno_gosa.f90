! One Jacobi step of the Himeno benchmark's pressure solver with its residual:
! the 19-point stencil of examples/himeno19, and the nest also sums the
! squares of the updates into gosa (Himeno's convergence measure), a
! reduction over the nest. gosa's value on entry is the starting value, as in
! Fortran: the result is gosa + the sum over the points.
subroutine himeno_gosa_step(nx, ny, nz, omega, p, a0, a1, a2, a3, b0, b1, b2, c0, c1, c2, wrk1, &
                            bnd, wrk2, gosa)
  implicit none
  integer, intent(in) :: nx, ny, nz
  real(8), intent(in) :: omega
  real(8), intent(in) :: p(0:nx+1, 0:ny+1, 0:nz+1)
  real(8), intent(in) :: a0(0:nx+1, 0:ny+1, 0:nz+1), a1(0:nx+1, 0:ny+1, 0:nz+1)
  real(8), intent(in) :: a2(0:nx+1, 0:ny+1, 0:nz+1), a3(0:nx+1, 0:ny+1, 0:nz+1)
  real(8), intent(in) :: b0(0:nx+1, 0:ny+1, 0:nz+1), b1(0:nx+1, 0:ny+1, 0:nz+1)
  real(8), intent(in) :: b2(0:nx+1, 0:ny+1, 0:nz+1)
  real(8), intent(in) :: c0(0:nx+1, 0:ny+1, 0:nz+1), c1(0:nx+1, 0:ny+1, 0:nz+1)
  real(8), intent(in) :: c2(0:nx+1, 0:ny+1, 0:nz+1)
  real(8), intent(in) :: wrk1(0:nx+1, 0:ny+1, 0:nz+1), bnd(0:nx+1, 0:ny+1, 0:nz+1)
  real(8), intent(inout) :: wrk2(0:nx+1, 0:ny+1, 0:nz+1)
  real(8), intent(inout) :: gosa
  real(8) :: s0, ss
  integer :: i, j, k

  !$f2s stencil name(himeno_gosa)
  do k = 1, nz
    do j = 1, ny
      do i = 1, nx
        s0 = a0(i,j,k)*p(i+1,j,k) + a1(i,j,k)*p(i,j+1,k) + a2(i,j,k)*p(i,j,k+1) &
           + b0(i,j,k)*(p(i+1,j+1,k) - p(i+1,j-1,k) - p(i-1,j+1,k) + p(i-1,j-1,k)) &
           + b1(i,j,k)*(p(i,j+1,k+1) - p(i,j-1,k+1) - p(i,j+1,k-1) + p(i,j-1,k-1)) &
           + b2(i,j,k)*(p(i+1,j,k+1) - p(i-1,j,k+1) - p(i+1,j,k-1) + p(i-1,j,k-1)) &
           + c0(i,j,k)*p(i-1,j,k) + c1(i,j,k)*p(i,j-1,k) + c2(i,j,k)*p(i,j,k-1) &
           + wrk1(i,j,k)
        ss = (s0*a3(i,j,k) - p(i,j,k))*bnd(i,j,k)
        gosa = gosa + ss*ss
        wrk2(i,j,k) = p(i,j,k) + omega*ss
      end do
    end do
  end do
end subroutine himeno_gosa_step
