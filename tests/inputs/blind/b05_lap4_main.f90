program b05_lap4_check
  use f2s_b05_lap4, only: b05_lap4
  implicit none
  integer :: nx = 37, ny = 29
  real(8), allocatable :: f(:,:), ref(:,:), out(:,:)
  real(8) :: err
  character(len=32) :: arg
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
  end if
  allocate(f(-1:nx+2, -1:ny+2), ref(-1:nx+2, -1:ny+2), out(-1:nx+2, -1:ny+2))
  call random_number(f)
  call random_number(ref)
  out = ref
  call lap4(nx, ny, 1.7d0, 0.6d0, f, ref)
  call b05_lap4(nx, ny, 1.7d0, 0.6d0, f, out)
  err = maxval(abs(out(1:nx, 1:ny) - ref(1:nx, 1:ny)))
  print '(a, es10.3)', 'b05_lap4: largest difference ', err
  if (err /= 0d0) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program b05_lap4_check
