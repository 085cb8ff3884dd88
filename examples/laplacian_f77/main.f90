! Calls the original FORTRAN 77 subroutine and the f2stencil library procedure on the
! same random data and reports the largest relative difference.
!   usage: laplacian_f77_check [nx ny nz]     (default 64 48 40)
program laplacian_f77_check
  use f2s_laplacian_f77, only: laplacian_f77
  implicit none
  integer :: nx = 64, ny = 48, nz = 40
  real(8), allocatable :: u(:,:,:), ref(:,:,:), out(:,:,:)
  real(8) :: alpha = 0.4d0, beta = 0.1d0, err
  character(len=32) :: arg

  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
    call get_command_argument(3, arg); read (arg, *) nz
  end if
  allocate(u(0:nx+1, 0:ny+1, 0:nz+1), ref(0:nx+1, 0:ny+1, 0:nz+1), out(0:nx+1, 0:ny+1, 0:nz+1))
  call random_number(u)
  call random_number(ref)
  out = ref

  call smooth(nx, ny, nz, alpha, beta, u, ref)
  call laplacian_f77(nx, ny, nz, alpha, beta, u, out)

  err = maxval(abs(out - ref)) / maxval(abs(ref))
  print '(a, 3i6, a, es10.3)', 'laplacian_f77', nx, ny, nz, ': largest relative difference ', err
  if (err > 1d-12) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program laplacian_f77_check
