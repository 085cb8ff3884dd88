! Calls the original subroutine and the f2stencil library procedure on the
! same random data and reports the largest relative difference.
!   usage: poisson2d_check [nx ny]     (default 300 200)
program poisson2d_check
  use f2s_poisson2d, only: poisson2d
  implicit none
  integer :: nx = 300, ny = 200
  real(8), allocatable :: a(:,:), f(:,:), u(:,:), ref(:,:), out(:,:)
  real(8) :: h2, err
  character(len=32) :: arg

  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
  end if
  allocate(a(0:nx+1, 0:ny+1), f(0:nx+1, 0:ny+1), u(0:nx+1, 0:ny+1))
  allocate(ref(0:nx+1, 0:ny+1), out(0:nx+1, 0:ny+1))
  call random_number(a)
  a = 0.1d0 + a     ! coefficients bounded away from zero
  call random_number(f)
  call random_number(u)
  call random_number(ref)
  out = ref
  h2 = 1d0/dble(max(nx, ny) + 1)**2

  call poisson(nx, ny, h2, a, f, u, ref)
  call poisson2d(nx, ny, h2, a, f, u, out)

  err = maxval(abs(out - ref)) / maxval(abs(ref))
  print '(a, 2i6, a, es10.3)', 'poisson2d', nx, ny, ': largest relative difference ', err
  if (err > 1d-12) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program poisson2d_check
