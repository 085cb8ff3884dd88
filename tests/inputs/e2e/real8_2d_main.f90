! Built with -fdefault-real-8 like the kernel: `real` is REAL(8) here too.
! The library must agree with gfortran's build to the last bit.
program real8_2d_check
  use f2s_real8_2d, only: real8_2d
  implicit none
  integer :: n = 50, m = 20
  real, allocatable :: u(:,:), ref(:,:), out(:,:)
  character(len=32) :: arg
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) n
    call get_command_argument(2, arg); read (arg, *) m
  end if
  if (kind(u) /= 8) then
    print '(a)', 'FAILED: not built with -fdefault-real-8'
    stop 1
  end if
  allocate(u(0:n+1, 0:m+1), ref(0:n+1, 0:m+1), out(0:n+1, 0:m+1))
  call random_number(u)
  call random_number(ref)
  out = ref
  call relax8(n, m, u, ref)
  call real8_2d(n, m, u, out)
  print '(a, es10.3)', 'real8_2d: largest difference ', maxval(abs(out - ref))
  if (any(out /= ref)) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program real8_2d_check
