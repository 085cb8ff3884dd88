! The original 9-point loop and the library's, at trip counts 0, 1, 2 and
! 5: both fields must agree bitwise, and the iteration counter too.
!   usage: jacobi2d9_steps_check [nx ny]
program jacobi2d9_steps_check
  use f2s_jacobi2d9_steps, only: jacobi9_steps
  implicit none
  integer :: nx = 37, ny = 23, m, iter, niter
  integer, parameter :: trips(4) = [0, 1, 2, 5]
  real(8), parameter :: wc = 0.5d0, we = 0.1d0, wd = 0.025d0
  real(8), allocatable :: u(:,:), v(:,:), u2(:,:), v2(:,:)
  character(len=16) :: arg
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
  end if
  do m = 1, size(trips)
    niter = trips(m)
    allocate(u(0:nx+1, 0:ny+1), v(0:nx+1, 0:ny+1))
    call random_number(u); call random_number(v)
    u2 = u; v2 = v
    call jacobi9(nx, ny, niter, wc, we, wd, u, v)
    iter = -7
    call jacobi9_steps(nx, ny, niter, wc, we, wd, u2, v2, iter)
    if (any(u /= u2) .or. any(v /= v2) .or. iter /= niter + 1) then
      print '(a, i3, a)', 'FAILED after ', niter, ' iterations'
      stop 1
    end if
    print '(a, i2, a, 2es24.15)', 'after ', niter, ' iterations: sums ', sum(u2), sum(v2)
    deallocate(u, v, u2, v2)
  end do
  print '(a)', 'PASSED'
end program jacobi2d9_steps_check
