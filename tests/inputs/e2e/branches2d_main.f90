program branches_check
  use f2s_branches2d, only: branches2d
  implicit none
  integer :: n = 50, m = 20, mode
  real(8), allocatable :: a(:,:), c(:,:), ref(:,:), out(:,:), dref(:,:), dout(:,:)
  real(8) :: err
  character(len=32) :: arg
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) n
    call get_command_argument(2, arg); read (arg, *) m
  end if
  allocate(a(0:n+1, 0:m+1), c(0:n+1, 0:m+1), ref(0:n+1, 0:m+1), out(0:n+1, 0:m+1))
  allocate(dref(0:n+1, 0:m+1), dout(0:n+1, 0:m+1))
  call random_number(a)
  call random_number(c)
  err = 0d0
  do mode = 0, 5
    call random_number(ref)
    out = ref
    dref = ref
    dout = ref
    call branches(n, m, mode, 0.75d0, a, c, ref, dref)
    call branches2d(n, m, mode, 0.75d0, a, c, out, dout)
    err = max(err, maxval(abs(out - ref)) / maxval(abs(ref)), &
              maxval(abs(dout - dref)) / max(maxval(abs(dref)), 1d0))
  end do
  print '(a, es10.3)', 'branches2d: largest relative difference ', err
  if (err > 1d-14) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program branches_check
