! The original single-precision FDTD loop and the library's, at trip counts
! 0, 1, 2 and 5 on the same random fields: every field and the step counter
! must agree bitwise.
!   usage: fdtd2d_steps_sp_check [nx ny]
program fdtd2d_steps_sp_check
  use f2s_fdtd2d_steps_sp, only: yee2d_steps
  implicit none
  integer :: nx = 45, ny = 31, m, n, nstep
  integer, parameter :: trips(4) = [0, 1, 2, 5]
  real(4), allocatable :: ex(:,:), ey(:,:), hz(:,:), ex2(:,:), ey2(:,:), hz2(:,:), pulse(:)
  character(len=16) :: arg
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
  end if
  do m = 1, size(trips)
    nstep = trips(m)
    allocate(ex(nx, ny), ey(nx, ny), hz(nx, ny), pulse(max(nstep, 1)))
    call random_number(ex); call random_number(ey); call random_number(hz)
    call random_number(pulse)
    ex2 = ex; ey2 = ey; hz2 = hz
    call yee2d(nx, ny, nstep, 0.5, 0.7, ex, ey, hz, pulse)
    n = -1
    call yee2d_steps(nx, ny, nstep, 0.5, 0.7, ex2, ey2, hz2, pulse, n)
    if (any(ex /= ex2) .or. any(ey /= ey2) .or. any(hz /= hz2) .or. n /= nstep + 1) then
      print '(a, i3, a)', 'FAILED after ', nstep, ' steps'
      stop 1
    end if
    print '(a, i2, a, 3es16.7)', 'after ', nstep, ' steps: sums ', sum(ex2), sum(ey2), sum(hz2)
    deallocate(ex, ey, hz, ex2, ey2, hz2, pulse)
  end do
  print '(a)', 'PASSED'
end program fdtd2d_steps_sp_check
