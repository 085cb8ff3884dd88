! Calls the original subroutine and the f2stencil library procedure on the
! same random grid and reports the largest relative difference.
!   usage: refine2d_check [nx ny]     (default 301 200)
program refine2d_check
  use f2s_refine2d, only: refine2d
  implicit none
  integer :: nx = 301, ny = 200
  real(8), allocatable :: ref(:,:), out(:,:)
  real(8) :: err
  character(len=32) :: arg

  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
  end if
  allocate(ref(0:nx+1, 0:ny+1), out(0:nx+1, 0:ny+1))
  call random_number(ref)
  out = ref

  call refine(nx, ny, ref)
  call refine2d(nx, ny, out)

  err = maxval(abs(out - ref)) / maxval(abs(ref))
  print '(a, 2i6, a, es10.3)', 'refine2d', nx, ny, ': largest relative difference ', err
  if (err > 1d-12) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program refine2d_check
