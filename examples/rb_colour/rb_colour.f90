! A red-black Gauss-Seidel smoother for the 7-point Poisson operator, written
! the way multigrid codes of the 1990s write it: the colour offset of each
! row is computed between the loops (`joff = mod(j + k, 2)`) and the inner
! loop steps by 2 from it; the relaxation weight over the diagonal is formed
! once per plane. Interior points are 2..n-1 of 1-based arrays (the first and
! last planes hold the boundary). A red point has an even i + j + k, so red
! rows start at 2 + joff and black ones at 3 - joff.
subroutine smooth_rb(n1, n2, n3, omega, h2, f, u)
  implicit none
  integer, intent(in) :: n1, n2, n3
  real(8), intent(in) :: omega, h2
  real(8), intent(in) :: f(n1, n2, n3)
  real(8), intent(inout) :: u(n1, n2, n3)
  real(8) :: wdiag
  integer :: i, j, k, joff

  !$f2s stencil name(rb_red)
  do k = 2, n3 - 1
    wdiag = omega/6.0d0
    do j = 2, n2 - 1
      joff = mod(j + k, 2)
      do i = 2 + joff, n1 - 1, 2
        u(i,j,k) = (1.0d0 - omega)*u(i,j,k) + wdiag*(u(i-1,j,k) + u(i+1,j,k) &
                 + u(i,j-1,k) + u(i,j+1,k) + u(i,j,k-1) + u(i,j,k+1) - h2*f(i,j,k))
      end do
    end do
  end do

  !$f2s stencil name(rb_black)
  do k = 2, n3 - 1
    wdiag = omega/6.0d0
    do j = 2, n2 - 1
      joff = mod(j + k, 2)
      do i = 3 - joff, n1 - 1, 2
        u(i,j,k) = (1.0d0 - omega)*u(i,j,k) + wdiag*(u(i-1,j,k) + u(i+1,j,k) &
                 + u(i,j-1,k) + u(i,j+1,k) + u(i,j,k-1) + u(i,j,k+1) - h2*f(i,j,k))
      end do
    end do
  end do
end subroutine smooth_rb
