! A 2D kernel in single precision with a temporary, intrinsics, a power and a
! REAL(4) literal: the constructs the three 3D operators do not exercise.
subroutine mixed(n, m, w, a, b)
  implicit none
  integer, intent(in) :: n, m
  real, intent(in) :: w
  real(4), intent(in) :: a(-1:n+2, 0:m+1)
  real, intent(inout) :: b(-1:n+2, 0:m+1)
  real :: t
  integer :: i, j
  !$f2s stencil name(mixed2d) tune_size(40, 30)
  do j = 1, m
    do i = 1, n
      t = 0.1*(a(i-2, j) + a(i+2, j)) - w*a(i, j)**2
      b(i, j) = max(abs(t), sqrt(a(i, j+1))) + exp(-a(i, j-1)) * sin(t) + cos(0.5*t)
    end do
  end do
end subroutine mixed
