! Survey nest 5: fourth-order staggered-grid velocity update of an elastic
! wave code, with PML damping as 1D profiles along x and z, a kind from
! SELECTED_REAL_KIND(15, 307), OpenMP with COLLAPSE, and the coefficients as
! named constants.
module fd_kinds
  implicit none
  integer, parameter :: dp = selected_real_kind(15, 307)
  real(dp), parameter :: c1 = 9.0_dp/8.0_dp, c2 = -1.0_dp/24.0_dp
end module fd_kinds

subroutine vel_update(nx, ny, nz, dt, rdx, vx, sxx, sxy, sxz, buoy, dampx, dampz)
  use fd_kinds
  implicit none
  integer, intent(in) :: nx, ny, nz
  real(dp), intent(in) :: dt, rdx
  real(dp), intent(inout) :: vx(-1:nx+2, -1:ny+2, -1:nz+2)
  real(dp), intent(in) :: sxx(-1:nx+2, -1:ny+2, -1:nz+2), sxy(-1:nx+2, -1:ny+2, -1:nz+2)
  real(dp), intent(in) :: sxz(-1:nx+2, -1:ny+2, -1:nz+2), buoy(nx, ny, nz)
  real(dp), intent(in) :: dampx(nx), dampz(nz)
  integer :: i, j, k
  real(dp) :: dsxx, dsxy, dsxz, d

  !$f2s stencil name(vel_x)
  !$omp parallel do collapse(2) default(none) &
  !$omp shared(nx, ny, nz, dt, rdx, vx, sxx, sxy, sxz, buoy, dampx, dampz) &
  !$omp private(i, j, k, dsxx, dsxy, dsxz, d)
  do k = 1, nz
    do j = 1, ny
      do i = 1, nx
        dsxx = c1*(sxx(i+1,j,k) - sxx(i,j,k)) + c2*(sxx(i+2,j,k) - sxx(i-1,j,k))
        dsxy = c1*(sxy(i,j,k) - sxy(i,j-1,k)) + c2*(sxy(i,j+1,k) - sxy(i,j-2,k))
        dsxz = c1*(sxz(i,j,k) - sxz(i,j,k-1)) + c2*(sxz(i,j,k+1) - sxz(i,j,k-2))
        d = 1.0_dp/(1.0_dp + 0.5_dp*dt*(dampx(i) + dampz(k)))
        vx(i,j,k) = d*((1.0_dp - 0.5_dp*dt*(dampx(i) + dampz(k)))*vx(i,j,k) &
                  + dt*rdx*buoy(i,j,k)*(dsxx + dsxy + dsxz))
      end do
    end do
  end do
  !$omp end parallel do
end subroutine vel_update
