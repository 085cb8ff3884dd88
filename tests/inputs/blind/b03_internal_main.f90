program b03_internal_check
  use f2s_b03_internal, only: b03_internal
  implicit none
  integer :: nx = 45, ny = 31
  real(8), allocatable :: u(:,:), v(:,:), eta(:,:), ref(:,:), out(:,:)
  real(8) :: err
  character(len=32) :: arg
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
  end if
  allocate(u(0:nx+1, 0:ny+1), v(0:nx+1, 0:ny+1), eta(0:nx+1, 0:ny+1), ref(0:nx+1, 0:ny+1), &
           out(0:nx+1, 0:ny+1))
  call random_number(u)
  call random_number(v)
  call random_number(eta)
  call random_number(ref)
  out = ref
  call sw_step(nx, ny, 0.01d0, 1.3d0, 0.7d0, 10d0, u, v, eta, ref)
  call b03_internal(nx, ny, 0.01d0, 1.3d0, 0.7d0, 10d0, u, v, eta, out)
  err = maxval(abs(out - ref))
  print '(a, es10.3)', 'b03_internal: largest difference ', err
  if (err /= 0d0) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program b03_internal_check
