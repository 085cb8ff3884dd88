program prolong2d_check
  use f2s_prolong2d, only: prolong2d
  implicit none
  integer :: nx = 50, ny = 20
  real(8), allocatable :: c(:,:), ref(:,:), out(:,:)
  real(8) :: err
  character(len=32) :: arg
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
  end if
  allocate(c(0:nx+1, 0:ny+1), ref(0:2*nx+1, 0:2*ny+1), out(0:2*nx+1, 0:2*ny+1))
  call random_number(c)
  call random_number(ref)
  out = ref
  call prolong(nx, ny, c, ref)
  call prolong2d(nx, ny, c, out)
  err = maxval(abs(out - ref)) / maxval(abs(ref))
  print '(a, es10.3)', 'prolong2d: largest relative difference ', err
  if (err > 0d0) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program prolong2d_check
