! Norms of a grid and nothing else: a nest whose only results are reductions
! (no grid is written), as a convergence check on its own.
subroutine norms(n, m, u, ssq, umax)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(in) :: u(0:n+1, 0:m+1)
  real(8), intent(inout) :: ssq, umax
  integer :: i, j
  !$f2s stencil name(norm2d) tune_size(40, 30)
  do j = 1, m
    do i = 1, n
      ssq = ssq + u(i,j)**2
      umax = max(umax, abs(u(i,j) - u(i-1,j)))
    end do
  end do
end subroutine norms
