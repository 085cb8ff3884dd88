program sponge3d_check
  use f2s_sponge3d, only: sponge3d
  implicit none
  integer :: nx = 19, ny = 14, nz = 23
  real(8), allocatable :: u(:,:,:), ref(:,:,:), out(:,:,:)
  real(8) :: err, dz
  character(len=32) :: arg
  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
    call get_command_argument(3, arg); read (arg, *) nz
  end if
  allocate(u(0:nx+1, 0:ny+1, 0:nz+1), ref(0:nx+1, 0:ny+1, 0:nz+1), out(0:nx+1, 0:ny+1, 0:nz+1))
  call random_number(u)
  call random_number(ref)
  out = ref
  dz = 1.0d0/real(nz, 8)
  call sponge_smooth(nx, ny, nz, 1.0d0, 0.6d0, dz, 0.8d0, u, ref)
  call sponge3d(nx, ny, nz, 1.0d0, 0.6d0, dz, 0.8d0, u, out)
  err = maxval(abs(out - ref))
  print '(a, es10.3)', 'sponge3d: largest difference ', err
  if (err /= 0d0) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program sponge3d_check
