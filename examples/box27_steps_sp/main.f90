! The original single-precision 27-point loop and the library's, at trip
! counts 0, 1, 2 and 5: both fields must agree bitwise, and the iteration
! counter too.
!   usage: box27_steps_sp_check [nx ny nz]
program box27_steps_sp_check
  use f2s_box27_steps_sp, only: smooth27s_steps
  implicit none
  integer :: nx = 21, ny = 13, nz = 10, m, it, nit
  integer, parameter :: trips(4) = [0, 1, 2, 5]
  real(4), parameter :: c0 = 0.4, c1 = 0.05, c2 = 0.02, c3 = 0.0125
  real(4), allocatable :: f(:,:,:), g(:,:,:), f2(:,:,:), g2(:,:,:)
  character(len=16) :: arg
  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
    call get_command_argument(3, arg); read (arg, *) nz
  end if
  do m = 1, size(trips)
    nit = trips(m)
    allocate(f(0:nx+1, 0:ny+1, 0:nz+1), g(0:nx+1, 0:ny+1, 0:nz+1))
    call random_number(f); call random_number(g)
    f2 = f; g2 = g
    call smooth27s(nx, ny, nz, nit, c0, c1, c2, c3, f, g)
    it = -1
    call smooth27s_steps(nx, ny, nz, nit, c0, c1, c2, c3, f2, g2, it)
    if (any(f /= f2) .or. any(g /= g2) .or. it /= nit + 1) then
      print '(a, i3, a)', 'FAILED after ', nit, ' iterations'
      stop 1
    end if
    print '(a, i2, a, 2es16.7)', 'after ', nit, ' iterations: sums ', sum(f2), sum(g2)
    deallocate(f, g, f2, g2)
  end do
  print '(a)', 'PASSED'
end program box27_steps_sp_check
