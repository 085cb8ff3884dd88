! The original single-precision ping-pong and the library's, at trip counts
! 0, 1, 2 and 5: both buffers must agree bitwise, and the sweep counter too.
!   usage: jacobi3d_pingpong_sp_check [n1 n2 n3]
program jacobi3d_pingpong_sp_check
  use f2s_jacobi3d_pingpong_sp, only: relax7_steps
  implicit none
  integer :: n1 = 19, n2 = 14, n3 = 11, m, sweep, nsweep
  integer, parameter :: trips(4) = [0, 1, 2, 5]
  real, allocatable :: p(:,:,:), q(:,:,:), p2(:,:,:), q2(:,:,:)
  character(len=16) :: arg
  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) n1
    call get_command_argument(2, arg); read (arg, *) n2
    call get_command_argument(3, arg); read (arg, *) n3
  end if
  do m = 1, size(trips)
    nsweep = trips(m)
    allocate(p(0:n1+1, 0:n2+1, 0:n3+1), q(0:n1+1, 0:n2+1, 0:n3+1))
    call random_number(p); call random_number(q)
    p2 = p; q2 = q
    call relax7(n1, n2, n3, nsweep, p, q)
    sweep = 0
    call relax7_steps(n1, n2, n3, nsweep, p2, q2, sweep)
    if (any(p /= p2) .or. any(q /= q2) .or. sweep /= nsweep + 1) then
      print '(a, i3, a)', 'FAILED after ', nsweep, ' sweeps'
      stop 1
    end if
    print '(a, i2, a, 2es16.7)', 'after ', nsweep, ' sweeps: sums ', sum(p2), sum(q2)
    deallocate(p, q, p2, q2)
  end do
  print '(a)', 'PASSED'
end program jacobi3d_pingpong_sp_check
