! Calls the original subroutine and the f2stencil library procedure on the
! same random data and reports the largest relative difference.
!   usage: divergence_check [nx ny nz]     (default 64 48 40)
program divergence_check
  use f2s_divergence, only: divergence
  implicit none
  integer :: nx = 64, ny = 48, nz = 40
  real(8), allocatable :: x(:,:,:), y(:,:,:), z(:,:,:), ref(:,:,:), out(:,:,:)
  real(8) :: alpha = 0.5d0, beta = 0.25d0, gamma = 0.125d0, err
  character(len=32) :: arg

  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
    call get_command_argument(3, arg); read (arg, *) nz
  end if
  allocate(x(0:nx+1, 0:ny+1, 0:nz+1), y(0:nx+1, 0:ny+1, 0:nz+1), z(0:nx+1, 0:ny+1, 0:nz+1))
  allocate(ref(0:nx+1, 0:ny+1, 0:nz+1), out(0:nx+1, 0:ny+1, 0:nz+1))
  call random_number(x)
  call random_number(y)
  call random_number(z)
  call random_number(ref)
  out = ref

  call div(nx, ny, nz, alpha, beta, gamma, x, y, z, ref)
  call divergence(nx, ny, nz, alpha, beta, gamma, x, y, z, out)

  err = maxval(abs(out - ref)) / maxval(abs(ref))
  print '(a, 3i6, a, es10.3)', 'divergence', nx, ny, nz, ': largest relative difference ', err
  if (err > 1d-12) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program divergence_check
