! One smoothing sweep on a level of a multigrid V-cycle: weighted Jacobi for
! -div(grad u) + c*u = f, with the 7-point Laplacian scaled by h**2. The same
! routine runs on every level, from the finest grid down to a few points a
! side, so it is tuned at the sizes of three levels.
subroutine relax(n1, n2, n3, omega, h2, c, f, u, unew)
  implicit none
  integer, intent(in) :: n1, n2, n3
  double precision, intent(in) :: omega, h2
  double precision, intent(in) :: c(n1, n2, n3), f(n1, n2, n3)
  double precision, intent(in) :: u(0:n1+1, 0:n2+1, 0:n3+1)
  double precision, intent(inout) :: unew(0:n1+1, 0:n2+1, 0:n3+1)
  integer :: i, j, k
  double precision :: diag

!$f2s stencil name(relax_level) tune_size(6, 6, 6; 40, 36, 32; 14, 12, 10)
  do k = 1, n3
    do j = 1, n2
      do i = 1, n1
        diag = 6.0d0 + h2*c(i, j, k)
        unew(i, j, k) = (1.0d0 - omega)*u(i, j, k) + omega*(h2*f(i, j, k) &
                      + u(i-1, j, k) + u(i+1, j, k) + u(i, j-1, k) + u(i, j+1, k) &
                      + u(i, j, k-1) + u(i, j, k+1))/diag
      end do
    end do
  end do
end subroutine relax
