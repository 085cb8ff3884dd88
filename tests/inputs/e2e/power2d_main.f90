program power2d_check
  use f2s_power2d, only: power2d
  implicit none
  integer :: n = 50, m = 20
  real(8), allocatable :: u(:,:), ref(:,:), out(:,:)
  real(8) :: err
  character(len=32) :: arg
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) n
    call get_command_argument(2, arg); read (arg, *) m
  end if
  allocate(u(0:n+1, 0:m+1), ref(0:n+1, 0:m+1), out(0:n+1, 0:m+1))
  call random_number(u)
  call random_number(ref)
  out = ref
  call smooth(n, m, u, ref)
  call power2d(n, m, u, out)
  err = maxval(abs(out - ref))
  print '(a, es10.3)', 'power2d: largest difference ', err
  if (err /= 0d0) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program power2d_check
