! A weighted 1D Jacobi sweep: the smallest nest f2stencil takes, one loop.
subroutine jac1d(n, w, u, unew)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: w
  real(8), intent(in) :: u(0:n+1)
  real(8), intent(inout) :: unew(0:n+1)
  integer :: i

  !$f2s stencil name(jacobi1d)
  do i = 1, n
    unew(i) = (1d0 - w)*u(i) + 0.5d0*w*(u(i-1) + u(i+1))
  end do
end subroutine jac1d
