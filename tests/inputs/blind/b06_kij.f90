! Column-physics storage: q(k,i,j), levels first. Explicit vertical
! diffusion with a surface flux into the lowest level from a 2D skin
! temperature; a latitude factor computed between the loops.
subroutine vdiff_explicit(nz, nx, ny, dt, rlat0, rdz, kdiff, tskin, q, qn)
  implicit none
  integer, intent(in) :: nz, nx, ny
  real(8), intent(in) :: dt, rlat0
  real(8), intent(in) :: rdz(nz), kdiff(0:nz), tskin(nx, ny)
  real(8), intent(in) :: q(0:nz+1, nx, ny)
  real(8), intent(inout) :: qn(0:nz+1, nx, ny)
  integer :: i, j, k
  real(8) :: yfac, sfc

  !$f2s stencil name(b06_kij)
  do j = 1, ny
    yfac = 1.0d0 + rlat0*real(j - 1, 8)/real(ny, 8)
    do i = 1, nx
      do k = 1, nz
        sfc = 0.0d0
        if (k == 1) sfc = yfac*(tskin(i,j) - q(1,i,j))
        qn(k,i,j) = q(k,i,j) + dt*rdz(k)*(kdiff(k)*(q(k+1,i,j) - q(k,i,j)) &
                  - kdiff(k-1)*(q(k,i,j) - q(k-1,i,j)) + sfc)
      end do
    end do
  end do
end subroutine vdiff_explicit
