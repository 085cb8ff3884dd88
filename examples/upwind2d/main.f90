! Calls the original subroutine and the f2stencil library procedure on the
! same random data (velocities of both signs) and reports the largest
! relative difference.
!   usage: upwind2d_check [nx ny]     (default 300 200)
program upwind2d_check
  use f2s_upwind2d, only: upwind2d
  implicit none
  integer :: nx = 300, ny = 200
  real(8), allocatable :: vx(:,:), vy(:,:), q(:,:), ref(:,:), out(:,:)
  real(8) :: dt = 0.1d0, dx = 1d0, dy = 0.5d0, err
  character(len=32) :: arg

  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
  end if
  allocate(vx(0:nx+1, 0:ny+1), vy(0:nx+1, 0:ny+1), q(0:nx+1, 0:ny+1))
  allocate(ref(0:nx+1, 0:ny+1), out(0:nx+1, 0:ny+1))
  call random_number(vx)
  call random_number(vy)
  vx = vx - 0.5d0
  vy = vy - 0.5d0
  call random_number(q)
  call random_number(ref)
  out = ref

  call upwind(nx, ny, dt, dx, dy, vx, vy, q, ref)
  call upwind2d(nx, ny, dt, dx, dy, vx, vy, q, out)

  err = maxval(abs(out - ref)) / maxval(abs(ref))
  print '(a, 2i6, a, es10.3)', 'upwind2d', nx, ny, ': largest relative difference ', err
  if (err > 1d-12) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program upwind2d_check
