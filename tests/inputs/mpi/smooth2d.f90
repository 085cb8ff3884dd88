! A 9-point smoother with a vertical profile, as a rank of a decomposed code
! calls it: owned cells 1..nx, 1..ny, one halo cell on every side.
subroutine smooth_step(nx, ny, u, prof, v)
  implicit none
  integer, intent(in) :: nx, ny
  real(8), intent(in) :: u(0:nx+1, 0:ny+1), prof(0:ny+1)
  real(8), intent(inout) :: v(0:nx+1, 0:ny+1)
  integer :: i, j
  !$f2s stencil name(smooth) tune_size(37, 23)
  do j = 1, ny
    do i = 1, nx
      v(i, j) = 0.5d0*u(i, j) + 0.0625d0*(u(i-1, j-1) + u(i+1, j-1) + u(i-1, j+1) + u(i+1, j+1)) &
                + 0.0625d0*(u(i-1, j) + u(i+1, j)) + prof(j-1)*u(i, j-1) - 0.01d0*prof(j+1)*u(i, j+1)
    end do
  end do
end subroutine smooth_step
