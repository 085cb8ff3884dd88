! Runs the original time loop and the library's at several trip counts
! (0, 1, even, odd) on the same random fields: every field must agree bitwise.
!   usage: fdtd2d_steps_check [nx ny]
program fdtd2d_steps_check
  use f2s_fdtd2d_steps, only: fdtd_steps
  implicit none
  integer :: nx = 45, ny = 31, n, t, tmax
  integer, parameter :: trips(4) = [0, 1, 6, 7]
  real(8), allocatable :: ex(:,:), ey(:,:), hz(:,:), ex2(:,:), ey2(:,:), hz2(:,:), fict(:)
  character(len=16) :: arg
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
  end if
  do n = 1, size(trips)
    tmax = trips(n)
    allocate(ex(nx, ny), ey(nx, ny), hz(nx, ny), fict(max(tmax, 1)))
    call random_number(ex); call random_number(ey); call random_number(hz)
    call random_number(fict)
    ex2 = ex; ey2 = ey; hz2 = hz
    call fdtd(nx, ny, tmax, ex, ey, hz, fict)
    t = -1
    call fdtd_steps(nx, ny, tmax, ex2, ey2, hz2, fict, t)
    if (any(ex /= ex2) .or. any(ey /= ey2) .or. any(hz /= hz2) .or. t /= tmax + 1) then
      print '(a, i3, a)', 'FAILED after ', tmax, ' steps'
      stop 1
    end if
    print '(a, i2, a, 3es24.15)', 'after ', tmax, ' steps: sums ', sum(ex2), sum(ey2), sum(hz2)
    deallocate(ex, ey, hz, ex2, ey2, hz2, fict)
  end do
  print '(a)', 'PASSED'
end program fdtd2d_steps_check
