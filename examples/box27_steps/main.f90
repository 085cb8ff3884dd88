! The original 27-point loop and the library's, at trip counts 0, 1, 2 and
! 5: both fields must agree bitwise, and the step counter too.
!   usage: box27_steps_check [nx ny nz]
program box27_steps_check
  use f2s_box27_steps, only: box27_steps
  implicit none
  integer :: nx = 21, ny = 13, nz = 10, m, n, nsteps
  integer, parameter :: trips(4) = [0, 1, 2, 5]
  real(8), parameter :: w0 = 0.4d0, w1 = 0.05d0, w2 = 0.02d0, w3 = 0.0125d0
  real(8), allocatable :: u(:,:,:), v(:,:,:), u2(:,:,:), v2(:,:,:)
  character(len=16) :: arg
  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
    call get_command_argument(3, arg); read (arg, *) nz
  end if
  do m = 1, size(trips)
    nsteps = trips(m)
    allocate(u(0:nx+1, 0:ny+1, 0:nz+1), v(0:nx+1, 0:ny+1, 0:nz+1))
    call random_number(u); call random_number(v)
    u2 = u; v2 = v
    call smooth27(nx, ny, nz, nsteps, w0, w1, w2, w3, u, v)
    n = 0
    call box27_steps(nx, ny, nz, nsteps, w0, w1, w2, w3, u2, v2, n)
    if (any(u /= u2) .or. any(v /= v2) .or. n /= nsteps + 1) then
      print '(a, i3, a)', 'FAILED after ', nsteps, ' steps'
      stop 1
    end if
    print '(a, i2, a, 2es24.15)', 'after ', nsteps, ' steps: sums ', sum(u2), sum(v2)
    deallocate(u, v, u2, v2)
  end do
  print '(a)', 'PASSED'
end program box27_steps_check
