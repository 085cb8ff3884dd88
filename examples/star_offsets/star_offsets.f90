! One leapfrog step of the 2D acoustic wave equation with a fourth-order
! star (radius 2), written the way finite-difference codes describe a stencil
! by its shape: loops over the offsets inside the point, and the weights in a
! small array indexed by the offsets, w(-rad:rad, -rad:rad), of which the
! axes are used. Changing rad (and the weights) changes the order of the
! scheme without touching the loops.
subroutine wave_step(nx, ny, dt2, w, vel, pold, p, pnew)
  implicit none
  integer, parameter :: rad = 2
  integer, intent(in) :: nx, ny
  real(8), intent(in) :: dt2
  real(8), intent(in) :: w(-rad:rad, -rad:rad)
  real(8), intent(in) :: vel(nx, ny), pold(nx, ny)
  real(8), intent(in) :: p(1-rad:nx+rad, 1-rad:ny+rad)
  real(8), intent(inout) :: pnew(nx, ny)
  real(8) :: lap
  integer :: i, j, ii, jj

  !$f2s stencil name(star_offsets)
  do j = 1, ny
    do i = 1, nx
      ! The centre once, then the arms: along y without the centre ...
      lap = w(0, 0)*p(i, j)
      do jj = -rad, -1
        lap = lap + w(0, jj)*p(i, j+jj)
      end do
      do jj = 1, rad
        lap = lap + w(0, jj)*p(i, j+jj)
      end do
      ! ... and along x, skipping it.
      do ii = -rad, rad
        if (ii /= 0) lap = lap + w(ii, 0)*p(i+ii, j)
      end do
      pnew(i, j) = 2.0d0*p(i, j) - pold(i, j) + dt2*vel(i, j)**2*lap
    end do
  end do
end subroutine wave_step
