program tri2d_check
  use f2s_tri2d, only: tri_relax, tri_band
  implicit none
  integer :: nx = 50, ny = 20
  real(8), allocatable :: u(:,:), ref(:,:), out(:,:)
  real(8) :: err
  character(len=32) :: arg
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
  end if
  allocate(u(0:nx+1, 0:ny+1), ref(0:nx+1, 0:ny+1), out(0:nx+1, 0:ny+1))
  call random_number(u)
  call random_number(ref)
  out = ref
  call basin(nx, ny, 0.1d0, u, ref)
  call tri_relax(nx, ny, 0.1d0, u, out)
  call tri_band(nx, ny, u, out)
  err = maxval(abs(out - ref)) / maxval(abs(ref))
  print '(a, es10.3)', 'tri2d: largest relative difference ', err
  if (err > 1d-14) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program tri2d_check
