! Calls the original subroutine and the f2stencil library procedure on the
! same random data and reports the largest relative difference.
!   usage: jacobi2d_check [nx ny]     (default 300 200)
program jacobi2d_check
  use f2s_jacobi2d, only: jacobi2d
  implicit none
  integer :: nx = 300, ny = 200
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

  call jac2d(nx, ny, u, ref)
  call jacobi2d(nx, ny, u, out)

  err = maxval(abs(out - ref)) / maxval(abs(ref))
  print '(a, 2i6, a, es10.3)', 'jacobi2d', nx, ny, ': largest relative difference ', err
  if (err > 1d-12) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program jacobi2d_check
