! Named constants whose values are powers with integer exponents: gfortran
! folds each to the exact power rounded once, which repeated multiplication
! misses by an ulp for every one of these.
subroutine smooth(n, m, u, v)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(in) :: u(0:n+1, 0:m+1)
  real(8), intent(inout) :: v(0:n+1, 0:m+1)
  integer, parameter :: nsub = 2**3 - 3**2 + 5
  real(8), parameter :: a = 0.3d0**11, b = 2.9d0**11, c = 0.9d0**(-5), d = 1.7d0**(-7)
  real(8), parameter :: w = 0.5d0**2 + 1.3d0**3
  real(4), parameter :: s = 1.1**9, t = 0.7**(-3)
  integer :: i, j
  !$f2s stencil name(power2d) tune_size(40, 30)
  do j = 1, m
    do i = 1, n
      v(i,j) = a*u(i-1,j) + b*u(i+1,j) + c*u(i,j-1) + d*u(i,j+1) + w*u(i,j) &
             + (s*u(i,j) - t) / nsub
    end do
  end do
end subroutine smooth
