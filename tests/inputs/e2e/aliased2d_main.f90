! Calls the library with aliased arguments. With no mode: the calls the
! library can make correct (in place where the nest allows it, and apart)
! against the original. Mode "inplace" or "shifted": a call the library must
! stop (the same array, or two overlapping windows of one buffer).
program aliased2d_check
  use f2s_aliased2d, only: alias_step, alias_step_c, alias_incr, alias_resid, alias_smooth
  implicit none
  integer :: nx = 50, ny = 20
  real(8), allocatable, target :: fr(:,:), fl(:,:), fc(:,:), u(:,:), v(:,:), rr(:,:), rl(:,:)
  real(8), allocatable :: r1(:,:), r2(:,:), er(:,:), el(:,:), buf(:)
  real(8) :: err
  character(len=32) :: arg, mode
  mode = ''
  if (command_argument_count() >= 2) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
  end if
  if (command_argument_count() == 3) call get_command_argument(3, mode)
  allocate(fr(0:nx+1, 0:ny+1), fl(0:nx+1, 0:ny+1), fc(0:nx+1, 0:ny+1), u(0:nx+1, 0:ny+1), &
           v(0:nx+1, 0:ny+1), rr(0:nx+1, 0:ny+1), rl(0:nx+1, 0:ny+1), r1(0:nx+1, 0:ny+1), &
           r2(0:nx+1, 0:ny+1), er(0:nx+1, 0:ny+1), el(0:nx+1, 0:ny+1))
  call random_number(fr)
  call random_number(u)
  call random_number(v)
  if (mode == 'inplace') then
    call alias_smooth(nx, ny, fr, fr)
    print '(a)', 'NOT STOPPED'
    stop 0
  else if (mode == 'shifted') then
    ! Two windows of one buffer, one column apart (sequence association).
    allocate(buf((nx+2)*(ny+3)))
    call random_number(buf)
    call alias_smooth(nx, ny, buf(1), buf(nx+3))
    print '(a)', 'NOT STOPPED'
    stop 0
  end if
  fl = fr
  fc = fr
  rr = v
  rl = v
  call advance(nx, ny, 0.3d0, fr, fr)
  call alias_step(nx, ny, 0.3d0, fl, fl)
  call alias_step_c(nx, ny, 0.3d0, fc, fc)
  err = maxval(abs(fc - fr)) / maxval(abs(fr))
  er = 1
  el = 1
  call increment(nx, ny, 0.3d0, fr, fr, er)
  call alias_incr(nx, ny, 0.3d0, fl, fl, el)
  call residual(nx, ny, 0.01d0, u, rr, rr)
  call alias_resid(nx, ny, 0.01d0, u, rl, rl)
  ! Apart: the restrict variants, as before.
  r1 = 0
  r2 = 0
  call residual(nx, ny, 0.01d0, u, v, r1)
  call alias_resid(nx, ny, 0.01d0, u, v, r2)
  err = max(err, maxval(abs(fl - fr)) / maxval(abs(fr)), &
            maxval(abs(rl - rr)) / maxval(abs(rr)), maxval(abs(r2 - r1)) / maxval(abs(r1)), &
            maxval(abs(el - er)))
  print '(a, es10.3)', 'aliased2d: largest relative difference ', err
  if (err > 1d-14) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program aliased2d_check
