! One time step of 2D finite-difference time-domain electromagnetics (TE
! mode, Yee grid): the electric field components ey and ex are updated from
! the curl of the magnetic field hz, then hz from the curl of the new
! electric field. Three annotated regions in one procedure; each becomes its
! own kernel of the library, called in the same order.
subroutine fdtd_step(nx, ny, ce, ch, ex, ey, hz)
  implicit none
  integer, intent(in) :: nx, ny
  real(8), intent(in) :: ce, ch
  real(8), intent(inout) :: ex(0:nx+1, 0:ny+1), ey(0:nx+1, 0:ny+1), hz(0:nx+1, 0:ny+1)
  integer :: i, j

  !$f2s stencil name(fdtd2d_ey)
  do j = 1, ny
    do i = 1, nx
      ey(i,j) = ey(i,j) - ce*(hz(i,j) - hz(i-1,j))
    end do
  end do

  !$f2s stencil name(fdtd2d_ex)
  do j = 1, ny
    do i = 1, nx
      ex(i,j) = ex(i,j) - ce*(hz(i,j) - hz(i,j-1))
    end do
  end do

  !$f2s stencil name(fdtd2d_hz)
  do j = 1, ny
    do i = 1, nx
      hz(i,j) = hz(i,j) - ch*(ex(i,j+1) - ex(i,j) + ey(i+1,j) - ey(i,j))
    end do
  end do
end subroutine fdtd_step
