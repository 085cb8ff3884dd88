! Sponge-layer damping and a 7-point smoother in a 3D box, (i,j,k) arrays
! with the loops k, j, i; the damping factor of a level and the
! neighbour rows are computed between the loops.
subroutine sponge_smooth(nx, ny, nz, ztop, zsponge, dz, alpha, u, un)
  implicit none
  integer, intent(in) :: nx, ny, nz
  real(8), intent(in) :: ztop, zsponge, dz, alpha
  real(8), intent(in) :: u(0:nx+1, 0:ny+1, 0:nz+1)
  real(8), intent(inout) :: un(0:nx+1, 0:ny+1, 0:nz+1)
  integer :: i, j, k, jm, jp, km, kp
  real(8) :: z, damp

  !$f2s stencil name(b07_kji)
  do k = 1, nz
    z = (real(k, 8) - 0.5d0)*dz
    damp = 0.0d0
    if (z > zsponge) damp = alpha*(z - zsponge)/(ztop - zsponge)
    km = k - 1
    kp = k + 1
    do j = 1, ny
      jm = j - 1
      jp = j + 1
      do i = 1, nx
        un(i,j,k) = (1.0d0 - damp)*u(i,j,k) + damp*(u(i-1,j,k) + u(i+1,j,k) + u(i,jm,k) &
                  + u(i,jp,k) + u(i,j,km) + u(i,j,kp))/6.0d0
      end do
    end do
  end do
end subroutine sponge_smooth
