program usemod2d_check
  use usemod2d_consts
  use usemod2d_fields
  use f2s_usemod2d, only: usemod2d
  implicit none
  integer :: n = 50, m = 20
  real(8), allocatable :: u(:,:), ref(:,:), out(:,:)
  real(8) :: err
  character(len=32) :: arg
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) n
    call get_command_argument(2, arg); read (arg, *) m
  end if
  allocate(u(0:n+1, 0:m+1), ref(0:n+1, 0:m+1), out(0:n+1, 0:m+1), w(1:n, 0:m))
  call random_number(u)
  call random_number(w)
  call random_number(ref)
  out = ref
  alpha = 0.125d0
  beta = 0.75d0
  call usemod_step(n, m, u, ref)
  call usemod2d(n, m, u, out, alpha, beta, w)
  err = maxval(abs(out - ref))
  print '(a, es10.3)', 'usemod2d: largest difference ', err
  if (err /= 0d0) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program usemod2d_check
