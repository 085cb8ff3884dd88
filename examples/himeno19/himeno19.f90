! One Jacobi step of the Himeno benchmark's pressure solver (the 19-point
! stencil of Zhang and Mueller, CGO 2012, Table 1), without the residual sum.
! The coefficients are arrays, one per term (Himeno's a(:,:,:,1..4),
! b(:,:,:,1..3) and c(:,:,:,1..3) as separate grids), so a point reads 13
! grids besides writing wrk2: 32 flops and 14 grids per point.
subroutine himeno_jacobi(nx, ny, nz, omega, p, a0, a1, a2, a3, b0, b1, b2, c0, c1, c2, wrk1, &
                         bnd, wrk2)
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
  real(8) :: s0, ss
  integer :: i, j, k

  !$f2s stencil name(himeno19)
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
        wrk2(i,j,k) = p(i,j,k) + omega*ss
      end do
    end do
  end do
end subroutine himeno_jacobi
