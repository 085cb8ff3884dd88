! A 2D FDTD time loop as electromagnetics codes write it: three field
! updates per step, the source injected along one edge at each step from a
! table indexed by the time variable.
subroutine fdtd(nx, ny, tmax, ex, ey, hz, fict)
  implicit none
  integer, intent(in) :: nx, ny, tmax
  real(8), intent(inout) :: ex(nx, ny), ey(nx, ny), hz(nx, ny)
  real(8), intent(in) :: fict(tmax)
  integer :: i, j, t

  !$f2s stencil timesteps name(fdtd_steps) tune_size(200, 150)
  do t = 1, tmax
    do j = 1, ny
      ey(1, j) = fict(t)
    end do
    do j = 1, ny
      do i = 2, nx
        ey(i, j) = ey(i, j) - 0.5d0*(hz(i, j) - hz(i-1, j))
      end do
    end do
    do j = 2, ny
      do i = 1, nx
        ex(i, j) = ex(i, j) - 0.5d0*(hz(i, j) - hz(i, j-1))
      end do
    end do
    do j = 1, ny - 1
      do i = 1, nx - 1
        hz(i, j) = hz(i, j) - 0.7d0*(ex(i, j+1) - ex(i, j) + ey(i+1, j) - ey(i, j))
      end do
    end do
  end do
end subroutine fdtd
