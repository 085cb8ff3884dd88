program ifmax_check
  use f2s_ifmax2d, only: ifmax2d
  implicit none
  integer :: n = 50, m = 20
  real(8), allocatable :: u(:,:)
  real(8) :: ssq_ref, ssq_out, max_ref, max_out, min_ref, min_out, err
  character(len=32) :: arg
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) n
    call get_command_argument(2, arg); read (arg, *) m
  end if
  allocate(u(0:n+1, 0:m+1))
  call random_number(u)
  ssq_ref = 0; ssq_out = 0; max_ref = 0; max_out = 0; min_ref = 2; min_out = 2
  call norms(n, m, u, ssq_ref, max_ref, min_ref)
  call ifmax2d(n, m, u, ssq_out, max_out, min_out)
  err = abs(ssq_out - ssq_ref) / abs(ssq_ref)
  print '(a, es10.3, a, l1, a, l1)', 'ifmax2d: sum of squares relative difference ', err, &
      ', max identical ', max_out == max_ref, ', min identical ', min_out == min_ref
  if (err > 1d-10 .or. max_out /= max_ref .or. min_out /= min_ref) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program ifmax_check
