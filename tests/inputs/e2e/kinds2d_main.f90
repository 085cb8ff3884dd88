! Calls gfortran's build of kinds2d_smooth and the library with REAL(8)
! data, values that REAL(4) cannot hold included, and wants them equal to
! the last bit.
program kinds2d_check
  use f2s_kinds2d, only: kinds2d
  implicit none
  integer :: n = 50, m = 20
  real(8), allocatable :: u(:,:), ref(:,:), out(:,:)
  character(len=32) :: arg
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) n
    call get_command_argument(2, arg); read (arg, *) m
  end if
  allocate(u(0:n+1, 0:m+1), ref(0:n+1, 0:m+1), out(0:n+1, 0:m+1))
  call random_number(u)
  u = u * 1d60
  call random_number(ref)
  out = ref
  call kinds2d_smooth(n, m, 0.3d0, u, ref)
  call kinds2d(n, m, 0.3d0, u, out)
  print '(a, es10.3)', 'kinds2d: largest difference ', maxval(abs(out - ref))
  if (any(out /= ref)) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program kinds2d_check
