program colsweep3d_check
  use f2s_colsweep3d, only: colsweep3d
  implicit none
  integer :: nz = 30, nx = 20, ny = 10
  real(8), allocatable :: rho(:,:,:), dz(:,:,:), ref(:,:,:), out(:,:,:)
  real(8) :: err
  character(len=32) :: arg
  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) nz
    call get_command_argument(2, arg); read (arg, *) nx
    call get_command_argument(3, arg); read (arg, *) ny
  end if
  allocate(rho(nz, nx, ny), dz(nz, nx, ny), ref(0:nz, nx, ny), out(0:nz, nx, ny))
  call random_number(rho)
  call random_number(dz)
  call random_number(ref)
  out = ref
  call hydrostatic(nz, nx, ny, 9.81d0, rho, dz, ref)
  call colsweep3d(nz, nx, ny, 9.81d0, rho, dz, out)
  err = maxval(abs(out - ref)) / maxval(abs(ref))
  print '(a, es10.3)', 'colsweep3d: largest relative difference ', err
  if (err > 1d-14) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program colsweep3d_check
