program stride2rb_check
  use f2s_stride2rb, only: stride2rb
  implicit none
  integer :: nx = 50, ny = 20, iter, color
  real(8), allocatable :: f(:,:), ref(:,:), out(:,:)
  real(8) :: err
  character(len=32) :: arg
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
  end if
  allocate(f(0:nx+1, 0:ny+1), ref(0:nx+1, 0:ny+1), out(0:nx+1, 0:ny+1))
  call random_number(f)
  call random_number(ref)
  out = ref
  do iter = 1, 3
    do color = 0, 1
      call rbsweep(nx, ny, color, 0.01d0, f, ref)
      call stride2rb(nx, ny, color, 0.01d0, f, out)
    end do
  end do
  err = maxval(abs(out - ref)) / maxval(abs(ref))
  print '(a, es10.3)', 'stride2rb: largest relative difference ', err
  if (err > 1d-14) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program stride2rb_check
