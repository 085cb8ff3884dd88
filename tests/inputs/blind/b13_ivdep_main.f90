program b13_ivdep_check
  use f2s_b13_ivdep, only: b13_ivdep
  implicit none
  integer :: nx = 18, ny = 11, nz = 7
  real(8), allocatable :: lam(:,:,:), mu(:,:,:), vx(:,:,:), vy(:,:,:), vz(:,:,:)
  real(8), allocatable :: ref(:,:,:), out(:,:,:)
  real(8) :: err
  character(len=32) :: arg
  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
    call get_command_argument(3, arg); read (arg, *) nz
  end if
  allocate(lam(nx, ny, nz), mu(nx, ny, nz), vx(0:nx, ny, nz), vy(nx, 0:ny, nz), &
           vz(nx, ny, 0:nz), ref(nx, ny, nz), out(nx, ny, nz))
  call random_number(lam)
  call random_number(mu)
  call random_number(vx)
  call random_number(vy)
  call random_number(vz)
  call random_number(ref)
  out = ref
  call stress_xx(nx, ny, nz, 0.01d0, 2d0, 3d0, 5d0, lam, mu, vx, vy, vz, ref)
  call b13_ivdep(nx, ny, nz, 0.01d0, 2d0, 3d0, 5d0, lam, mu, vx, vy, vz, out)
  err = maxval(abs(out - ref))
  print '(a, es10.3)', 'b13_ivdep: largest difference ', err
  if (err /= 0d0) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program b13_ivdep_check
