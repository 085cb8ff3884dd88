! A Jacobi solve that stops on its residual: the residual summed in the
! sweep, a copy-back nest, the iteration count kept, and EXIT on tolerance.
subroutine solve(n, m, maxit, tol, u, unew, f, res, iters)
  implicit none
  integer, intent(in) :: n, m, maxit
  real(8), intent(in) :: tol, f(n, m)
  real(8), intent(inout) :: u(0:n+1, 0:m+1), unew(0:n+1, 0:m+1)
  real(8), intent(out) :: res
  integer, intent(out) :: iters
  integer :: i, j, it

  iters = 0
  !$f2s stencil timesteps tune_size(120, 100)
  do it = 1, maxit
    res = 0d0
    do j = 1, m
      do i = 1, n
        unew(i, j) = 0.25d0*(u(i-1, j) + u(i+1, j) + u(i, j-1) + u(i, j+1) - f(i, j))
        res = res + (unew(i, j) - u(i, j))**2
      end do
    end do
    do j = 1, m
      do i = 1, n
        u(i, j) = unew(i, j)
      end do
    end do
    iters = it
    if (res < tol) exit
  end do
end subroutine solve
