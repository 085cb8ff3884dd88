! Calls the original subroutine and the f2stencil library procedure on the
! same random data and reports the largest relative difference.
!   usage: gradient_check [nx ny nz]     (default 64 48 40)
program gradient_check
  use f2s_gradient, only: gradient
  implicit none
  integer :: nx = 64, ny = 48, nz = 40
  real(8), allocatable :: u(:,:,:), rx(:,:,:), ry(:,:,:), rz(:,:,:), ox(:,:,:), oy(:,:,:), oz(:,:,:)
  real(8) :: alpha = 0.5d0, beta = 0.25d0, gamma = 0.125d0, err
  character(len=32) :: arg

  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
    call get_command_argument(3, arg); read (arg, *) nz
  end if
  allocate(u(0:nx+1, 0:ny+1, 0:nz+1))
  allocate(rx(0:nx+1, 0:ny+1, 0:nz+1), ry(0:nx+1, 0:ny+1, 0:nz+1), rz(0:nx+1, 0:ny+1, 0:nz+1))
  allocate(ox(0:nx+1, 0:ny+1, 0:nz+1), oy(0:nx+1, 0:ny+1, 0:nz+1), oz(0:nx+1, 0:ny+1, 0:nz+1))
  call random_number(u)
  call random_number(rx)
  call random_number(ry)
  call random_number(rz)
  ox = rx
  oy = ry
  oz = rz

  call grad(nx, ny, nz, alpha, beta, gamma, u, rx, ry, rz)
  call gradient(nx, ny, nz, alpha, beta, gamma, u, ox, oy, oz)

  err = max(maxval(abs(ox - rx)) / maxval(abs(rx)), maxval(abs(oy - ry)) / maxval(abs(ry)), &
            maxval(abs(oz - rz)) / maxval(abs(rz)))
  print '(a, 3i6, a, es10.3)', 'gradient', nx, ny, nz, ': largest relative difference ', err
  if (err > 1d-12) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program gradient_check
