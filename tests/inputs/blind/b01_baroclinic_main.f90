program b01_baroclinic_check
  use ocn_kinds
  use ocn_state
  use ocn_baroclinic, only: tracer_update
  use f2s_b01_baroclinic, only: b01_baroclinic
  implicit none
  real(dp), allocatable :: ref(:,:,:), start(:,:,:), rk(:,:)
  real(dp) :: err
  character(len=32) :: arg
  imt = 40; jmt = 23; km = 9
  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) imt
    call get_command_argument(2, arg); read (arg, *) jmt
    call get_command_argument(3, arg); read (arg, *) km
  end if
  allocate(kmt(imt, jmt), rk(imt, jmt), tcur(imt, jmt, 0:km+1), tnew(imt, jmt, 0:km+1), &
           wvel(imt, jmt, 0:km+1), dxtr(imt, jmt), dytr(imt, jmt), dzt(km))
  call random_number(rk)
  kmt = int(rk*real(km + 1, dp))
  call random_number(tcur)
  call random_number(wvel)
  wvel = wvel - 0.5_dp
  call random_number(dxtr)
  call random_number(dytr)
  call random_number(dzt)
  dzt = dzt + 0.5_dp
  call random_number(tnew)
  start = tnew
  call tracer_update(0.3_dp, 0.7_dp)
  ref = tnew
  tnew = start
  call b01_baroclinic(0.3_dp, 0.7_dp, imt, jmt, km, kmt, tcur, tnew, wvel, dxtr, dytr, dzt)
  err = maxval(abs(tnew - ref))
  print '(a, es10.3)', 'b01_baroclinic: largest difference ', err
  if (err /= 0.0_dp) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program b01_baroclinic_check
