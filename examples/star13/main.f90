! Calls the original subroutine and the f2stencil library procedure on the
! same random data and reports the largest relative difference.
!   usage: star13_check [nx ny nz]     (default 64 48 40)
program star13_check
  use f2s_star13, only: star13
  implicit none
  integer :: nx = 64, ny = 48, nz = 40
  real(8), allocatable :: u(:,:,:), ref(:,:,:), out(:,:,:)
  real(8) :: c0 = -0.5d0, c1 = 0.1d0, c2 = -0.02d0, err
  character(len=32) :: arg

  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
    call get_command_argument(3, arg); read (arg, *) nz
  end if
  ! Two halo layers on every side: the stencil reaches i-2 and i+2.
  allocate(u(-1:nx+2, -1:ny+2, -1:nz+2), ref(-1:nx+2, -1:ny+2, -1:nz+2))
  allocate(out(-1:nx+2, -1:ny+2, -1:nz+2))
  call random_number(u)
  ! Random output contents check that the halo is left as it was.
  call random_number(ref)
  out = ref

  call stencil13(nx, ny, nz, c0, c1, c2, u, ref)
  call star13(nx, ny, nz, c0, c1, c2, u, out)

  err = maxval(abs(out - ref)) / maxval(abs(ref))
  print '(a, 3i6, a, es10.3)', 'star13', nx, ny, nz, ': largest relative difference ', err
  if (err > 1d-12) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program star13_check
