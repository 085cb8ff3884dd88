program logical2d_check
  use f2s_logical2d, only: logical2d
  implicit none
  integer :: n = 50, m = 20, trip
  real(8), allocatable :: h(:,:), u(:,:), ref(:,:), out(:,:)
  real(8) :: err
  logical :: upwind
  character(len=32) :: arg
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) n
    call get_command_argument(2, arg); read (arg, *) m
  end if
  allocate(h(0:n+1, 0:m+1), u(0:n+1, 0:m+1), ref(0:n+1, 0:m+1), out(0:n+1, 0:m+1))
  err = 0d0
  do trip = 1, 4
    call random_number(h)
    call random_number(u)
    call random_number(ref)
    out = ref
    upwind = mod(trip, 2) == 0
    call wetdry(n, m, 0.125d0, upwind, h, u, ref)
    call logical2d(n, m, 0.125d0, upwind, h, u, out)
    err = max(err, maxval(abs(out - ref)))
  end do
  print '(a, es10.3)', 'logical2d: largest difference ', err
  if (err /= 0d0) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program logical2d_check
