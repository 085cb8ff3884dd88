program wedge3d_check
  use f2s_wedge3d, only: wedge3d
  implicit none
  integer :: nx = 30, ny = 20, nz = 10
  real(8), allocatable :: t(:,:,:), ref(:,:,:), out(:,:,:)
  real(8) :: err
  character(len=32) :: arg
  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
    call get_command_argument(3, arg); read (arg, *) nz
  end if
  allocate(t(0:nx+1, 0:ny+1, 0:nz+1), ref(0:nx+1, 0:ny+1, 0:nz+1), out(0:nx+1, 0:ny+1, 0:nz+1))
  call random_number(t)
  call random_number(ref)
  out = ref
  call wedge(nx, ny, nz, 0.1d0, t, ref)
  call wedge3d(nx, ny, nz, 0.1d0, t, out)
  err = maxval(abs(out - ref)) / maxval(abs(ref))
  print '(a, es10.3)', 'wedge3d: largest relative difference ', err
  if (err > 1d-14) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program wedge3d_check
