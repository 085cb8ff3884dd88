! Explicit heat equation loops as written in teaching and production codes:
! the new field copied back whole after each step, or only its interior
! (a section), with the simulated time advanced between sweeps.
subroutine heat(nx, ny, nt, alpha, u, unew)
  implicit none
  integer, intent(in) :: nx, ny, nt
  real(8), intent(in) :: alpha
  real(8), intent(inout) :: u(0:nx+1, 0:ny+1), unew(0:nx+1, 0:ny+1)
  integer :: i, j, it

  !$f2s stencil timesteps name(heat_steps) tune_size(100, 80)
  do it = 1, nt
    do j = 1, ny
      do i = 1, nx
        unew(i, j) = u(i, j) + alpha*(u(i-1, j) + u(i+1, j) + u(i, j-1) + u(i, j+1) - 4d0*u(i, j))
      end do
    end do
    u = unew
  end do
end subroutine heat

subroutine heat_interior(nx, ny, nt, dt, time, u, unew)
  implicit none
  integer, intent(in) :: nx, ny, nt
  real(4), intent(in) :: dt
  real(4), intent(inout) :: time
  real(4), intent(inout) :: u(0:nx+1, 0:ny+1), unew(0:nx+1, 0:ny+1)
  integer :: i, j, it

  !$f2s stencil timesteps name(heat_interior_steps) tune_size(100, 80)
  do it = nt, 1, -1
    do j = 1, ny
      do i = 1, nx
        unew(i, j) = u(i, j) + dt*(u(i-1, j) + u(i+1, j) + u(i, j-1) + u(i, j+1) - 4.0*u(i, j))
      end do
    end do
    time = time + dt
    u(1:nx, 1:ny) = unew(1:nx, 1:ny)
  end do
end subroutine heat_interior
