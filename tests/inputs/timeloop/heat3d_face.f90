! A 3D heat loop as a small solver writes it: a conductivity that varies
! with depth, the bottom face held at a temperature read from a table by
! the step number, and the new field copied back whole (its halo too).
subroutine heat3d(nx, ny, nz, nt, dt, kz, tbot, u, unew)
  implicit none
  integer, intent(in) :: nx, ny, nz, nt
  real(8), intent(in) :: dt, kz(nz), tbot(nt)
  real(8), intent(inout) :: u(0:nx+1, 0:ny+1, 0:nz+1), unew(0:nx+1, 0:ny+1, 0:nz+1)
  integer :: i, j, k, it

  !$f2s stencil timesteps name(heat3d_steps) tune_size(64, 48, 40)
  do it = 1, nt
    do k = 1, nz
      do j = 1, ny
        do i = 1, nx
          unew(i, j, k) = u(i, j, k) + dt*kz(k)*(u(i-1, j, k) + u(i+1, j, k) &
                        + u(i, j-1, k) + u(i, j+1, k) + u(i, j, k-1) + u(i, j, k+1) &
                        - 6d0*u(i, j, k))
        end do
      end do
    end do
    ! The bottom face: a fixed temperature this step.
    do j = 1, ny
      do i = 1, nx
        unew(i, j, 0) = tbot(it)
      end do
    end do
    u = unew
  end do
end subroutine heat3d
