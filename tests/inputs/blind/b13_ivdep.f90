! Velocity-stress update of an elastic code tuned for Intel compilers: the
! inner loop carries !DIR$ IVDEP and !DIR$ VECTOR ALIGNED, the middle one
! !DIR$ NOUNROLL; Lame parameters as 3D arrays, grid spacings inverted.
subroutine stress_xx(nx, ny, nz, dt, rdx, rdy, rdz, lam, mu, vx, vy, vz, sxx)
  implicit none
  integer, intent(in) :: nx, ny, nz
  real(8), intent(in) :: dt, rdx, rdy, rdz
  real(8), intent(in) :: lam(nx, ny, nz), mu(nx, ny, nz)
  real(8), intent(in) :: vx(0:nx, ny, nz), vy(nx, 0:ny, nz), vz(nx, ny, 0:nz)
  real(8), intent(inout) :: sxx(nx, ny, nz)
  integer :: i, j, k
  real(8) :: dvx, dvy, dvz

  !$f2s stencil name(b13_ivdep)
  do k = 1, nz
!DIR$ NOUNROLL
    do j = 1, ny
!DIR$ IVDEP
!DIR$ VECTOR ALIGNED
      do i = 1, nx
        dvx = (vx(i,j,k) - vx(i-1,j,k))*rdx
        dvy = (vy(i,j,k) - vy(i,j-1,k))*rdy
        dvz = (vz(i,j,k) - vz(i,j,k-1))*rdz
        sxx(i,j,k) = sxx(i,j,k) + dt*((lam(i,j,k) + 2d0*mu(i,j,k))*dvx + lam(i,j,k)*(dvy + dvz))
      end do
    end do
  end do
end subroutine stress_xx
