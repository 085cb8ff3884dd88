program resid_check
  use resid2d_mod, only: resid
  use f2s_resid2d, only: resid2d
  implicit none
  integer :: n = 50, m = 20
  real(8), allocatable :: u(:,:), ref(:,:), out(:,:)
  real(8) :: res_ref = 0.5d0, res_out = 0.5d0, err
  character(len=32) :: arg
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) n
    call get_command_argument(2, arg); read (arg, *) m
  end if
  allocate(u(0:n+1, 0:m+1), ref(0:n+1, 0:m+1), out(0:n+1, 0:m+1))
  call random_number(u)
  call random_number(ref)
  out = ref
  call resid(u, ref, res_ref)
  call resid2d(u, out, res_out)
  err = abs(res_out - res_ref) / abs(res_ref)
  print '(a, es10.3, a, l1)', 'resid2d: residual relative difference ', err, &
      ', grid identical ', all(out == ref)
  if (err > 1d-10 .or. any(out /= ref)) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program resid_check
