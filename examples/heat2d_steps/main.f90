! Both heat loops, original and library, at trip counts 0, 1, 2 and 7: the
! fields, the simulated time and the time variable must agree bitwise.
!   usage: heat2d_steps_check [nx ny]
program heat2d_steps_check
  use f2s_heat2d_steps, only: heat_steps, heat_interior_steps
  implicit none
  integer :: nx = 37, ny = 23, n, it, nt
  integer, parameter :: trips(4) = [0, 1, 2, 7]
  real(8), allocatable :: u(:,:), unew(:,:), u2(:,:), unew2(:,:)
  real(4), allocatable :: s(:,:), snew(:,:), s2(:,:), snew2(:,:)
  real(4) :: time, time2
  character(len=16) :: arg
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
  end if
  do n = 1, size(trips)
    nt = trips(n)
    allocate(u(0:nx+1, 0:ny+1), unew(0:nx+1, 0:ny+1), s(0:nx+1, 0:ny+1), snew(0:nx+1, 0:ny+1))
    call random_number(u); call random_number(unew)
    call random_number(s); call random_number(snew)
    u2 = u; unew2 = unew; s2 = s; snew2 = snew
    call heat(nx, ny, nt, 0.1d0, u, unew)
    it = -3
    call heat_steps(nx, ny, nt, 0.1d0, u2, unew2, it)
    if (any(u /= u2) .or. any(unew /= unew2) .or. it /= nt + 1) then
      print '(a, i3, a)', 'FAILED: heat_steps after ', nt, ' steps'
      stop 1
    end if
    time = 1.5; time2 = 1.5
    call heat_interior(nx, ny, nt, 0.05, time, s, snew)
    call heat_interior_steps(nx, ny, nt, 0.05, time2, s2, snew2, it)
    if (any(s /= s2) .or. any(snew /= snew2) .or. time /= time2 .or. it /= 0) then
      print '(a, i3, a)', 'FAILED: heat_interior_steps after ', nt, ' steps'
      stop 1
    end if
    print '(a, i2, a, 2es24.15)', 'after ', nt, ' steps: sums ', sum(u2), sum(s2)
    deallocate(u, unew, u2, unew2, s, snew, s2, snew2)
  end do
  print '(a)', 'PASSED'
end program heat2d_steps_check
