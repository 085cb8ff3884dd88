! Calls the original subroutine and the f2stencil library procedure on the
! same random data and reports the largest relative difference.
!   usage: box27_check [nx ny nz]     (default 64 48 40)
program box27_check
  use f2s_box27, only: box27
  implicit none
  integer :: nx = 64, ny = 48, nz = 40
  real(8), allocatable :: a(:,:,:), ref(:,:,:), out(:,:,:)
  real(8) :: c0 = -0.9d0, c1 = 0.08d0, c2 = 0.03d0, c3 = 0.01d0, err
  character(len=32) :: arg

  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
    call get_command_argument(3, arg); read (arg, *) nz
  end if
  allocate(a(0:nx+1, 0:ny+1, 0:nz+1), ref(0:nx+1, 0:ny+1, 0:nz+1), out(0:nx+1, 0:ny+1, 0:nz+1))
  call random_number(a)
  ! Random output contents check that the halo is left as it was.
  call random_number(ref)
  out = ref

  call stencil27(nx, ny, nz, c0, c1, c2, c3, a, ref)
  call box27(nx, ny, nz, c0, c1, c2, c3, a, out)

  err = maxval(abs(out - ref)) / maxval(abs(ref))
  print '(a, 3i6, a, es10.3)', 'box27', nx, ny, nz, ': largest relative difference ', err
  if (err > 1d-12) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program box27_check
