! Calls the original F77 routines of assumed3d.f and the library's
! procedures on the same random data and requires bitwise equal results.
! The arrays are larger than the regions reach (leading dimensions one and
! two beyond the grid, a last extent one beyond), and the smoothing step is
! passed a column of a larger array as its start, as F77 callers do.
program assumed3d_check
  use f2s_assumed3d, only: asz_rhs, asz_smooth
  implicit none
  integer :: nx = 13, ny = 7, nz = 9, ldx, ldy
  real(8), allocatable :: u(:,:,:,:), frct(:,:,:,:), ref(:,:,:,:), out(:,:,:,:)
  real(8), allocatable :: v(:,:), w_ref(:,:), w_out(:,:)
  real(8) :: err
  character(len=32) :: arg
  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
    call get_command_argument(3, arg); read (arg, *) nz
  end if
  nx = max(nx, 3); ny = max(ny, 3); nz = max(nz, 3)
  ldx = nx + 1
  ldy = ny + 2
  allocate(u(5, ldx, ldy, nz + 1), frct(5, ldx, ldy, nz + 1))
  allocate(ref(5, ldx, ldy, nz + 1), out(5, ldx, ldy, nz + 1))
  call random_number(u)
  call random_number(frct)
  call random_number(ref)
  out = ref
  call aszrhs(ref, u, frct, ldx, ldy, nx, ny, nz)
  call asz_rhs(rsd=out, u=u, frct=frct, ldx=ldx, ldy=ldy, nx=nx, ny=ny, nz=nz)
  err = maxval(abs(out - ref))
  ! The smoothing step from column 2 of v: its (0:ldx, *) starts there.
  allocate(v(0:ldx, ny + 3), w_ref(0:ldx, ny + 3), w_out(0:ldx, ny + 3))
  call random_number(v)
  call random_number(w_ref)
  w_out = w_ref
  call aszsmo(v(0, 2), w_ref(0, 2), ldx, nx, ny)
  call asz_smooth(v(0, 2), w_out(0, 2), ldx, nx, ny)
  err = max(err, maxval(abs(w_out - w_ref)))
  print '(a, es10.3)', 'assumed3d: largest difference ', err
  if (err /= 0d0) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program assumed3d_check
