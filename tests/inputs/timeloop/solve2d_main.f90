! The original solve and the library's from the same start: the same
! number of iterations (the EXIT taken at the same step), the fields equal
! to rounding (the residual is a sum the threads reassociate).
!   usage: solve2d_main [n m]
program solve2d_main
  use f2s_solve2d, only: solve_1
  implicit none
  integer :: n = 40, m = 27, iters, iters2, it, k
  integer, parameter :: maxits(3) = [0, 1, 60]
  real(8), allocatable :: u(:,:), unew(:,:), f(:,:), u2(:,:), unew2(:,:)
  real(8) :: res, res2, err
  character(len=16) :: arg
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) n
    call get_command_argument(2, arg); read (arg, *) m
  end if
  do k = 1, size(maxits)
    allocate(u(0:n+1, 0:m+1), unew(0:n+1, 0:m+1), f(n, m))
    call random_number(u); call random_number(f)
    f = 1d-3*f
    unew = u
    u2 = u; unew2 = unew
    res = -1; res2 = -1
    call solve(n, m, maxits(k), 1d0, u, unew, f, res, iters)
    iters2 = 0; it = 0
    call solve_1(n, m, maxits(k), 1d0, u2, unew2, f, res2, iters2, it)
    err = max(maxval(abs(u - u2)), maxval(abs(unew - unew2))) / max(maxval(abs(u)), 1d-300)
    if (iters /= iters2 .or. err > 1d-12 .or. abs(res - res2) > 1d-9*abs(res) + 1d-300) then
      print '(a, 3i6, 3es12.3)', 'FAILED', maxits(k), iters, iters2, err, res, res2
      stop 1
    end if
    deallocate(u, unew, f, u2, unew2)
  end do
  print '(a)', 'PASSED'
end program solve2d_main
