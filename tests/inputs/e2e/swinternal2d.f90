! One step of a linearised shallow-water model; the continuity update is an
! internal procedure that works on its host's arrays.
subroutine sw_step(nx, ny, dt, dx, dy, hbar, u, v, eta, etan)
  implicit none
  integer, intent(in) :: nx, ny
  real(8), intent(in) :: dt, dx, dy, hbar
  real(8), intent(in) :: u(0:nx+1, 0:ny+1), v(0:nx+1, 0:ny+1), eta(0:nx+1, 0:ny+1)
  real(8), intent(inout) :: etan(0:nx+1, 0:ny+1)

  call continuity()

contains

  subroutine continuity()
    integer :: i, j
    real(8) :: hx, hy
    !$f2s stencil name(swinternal2d) tune_size(40, 30)
    do j = 1, ny
      do i = 1, nx
        hx = (hbar + 0.5d0*(eta(i+1,j) + eta(i,j)))*u(i,j) - (hbar + 0.5d0*(eta(i,j) + eta(i-1,j)))*u(i-1,j)
        hy = (hbar + 0.5d0*(eta(i,j+1) + eta(i,j)))*v(i,j) - (hbar + 0.5d0*(eta(i,j) + eta(i,j-1)))*v(i,j-1)
        etan(i,j) = eta(i,j) - dt*(hx/dx + hy/dy)
      end do
    end do
  end subroutine continuity

end subroutine sw_step
