program mixed_check
  use f2s_mixed2d, only: mixed2d
  implicit none
  integer :: n = 50, m = 20
  real, allocatable :: a(:,:), ref(:,:), out(:,:)
  real :: err
  character(len=32) :: arg
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) n
    call get_command_argument(2, arg); read (arg, *) m
  end if
  allocate(a(-1:n+2, 0:m+1), ref(-1:n+2, 0:m+1), out(-1:n+2, 0:m+1))
  call random_number(a)
  call random_number(ref)
  out = ref
  call mixed(n, m, 0.75, a, ref)
  call mixed2d(n, m, 0.75, a, out)
  err = maxval(abs(out - ref)) / maxval(abs(ref))
  print '(a, es10.3)', 'mixed2d: largest relative difference ', err
  if (err > 1e-6) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program mixed_check
