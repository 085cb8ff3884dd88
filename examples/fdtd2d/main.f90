! Runs a few time steps of the original subroutine and of the three
! f2stencil library procedures on the same random fields and reports the
! largest relative difference over the three fields.
!   usage: fdtd2d_check [nx ny]     (default 300 200)
program fdtd2d_check
  use f2s_fdtd2d, only: fdtd2d_ex, fdtd2d_ey, fdtd2d_hz
  implicit none
  integer :: nx = 300, ny = 200, step
  real(8), allocatable :: ex(:,:), ey(:,:), hz(:,:), ex2(:,:), ey2(:,:), hz2(:,:)
  real(8) :: ce = 0.5d0, ch = 0.7d0, err
  character(len=32) :: arg

  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
  end if
  allocate(ex(0:nx+1, 0:ny+1), ey(0:nx+1, 0:ny+1), hz(0:nx+1, 0:ny+1))
  call random_number(ex)
  call random_number(ey)
  call random_number(hz)
  ex2 = ex
  ey2 = ey
  hz2 = hz

  do step = 1, 3
    call fdtd_step(nx, ny, ce, ch, ex, ey, hz)
    call fdtd2d_ey(nx, ny, ce, ey2, hz2)
    call fdtd2d_ex(nx, ny, ce, ex2, hz2)
    call fdtd2d_hz(nx, ny, ch, ex2, ey2, hz2)
  end do

  err = max(maxval(abs(ex2 - ex)) / maxval(abs(ex)), maxval(abs(ey2 - ey)) / maxval(abs(ey)), &
            maxval(abs(hz2 - hz)) / maxval(abs(hz)))
  print '(a, 2i6, a, es10.3)', 'fdtd2d', nx, ny, ': largest relative difference ', err
  if (err > 1d-12) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program fdtd2d_check
