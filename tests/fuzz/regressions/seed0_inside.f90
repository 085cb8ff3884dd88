subroutine sub2(nx, alpha, beta, m, s21, s22, e2, f2, g2)
  implicit none
  integer, intent(in) :: nx
  real(8), intent(in) :: alpha
  real(4), intent(in) :: beta
  integer, intent(in) :: m
  real(4), intent(inout) :: s21
  real(8), intent(inout) :: s22
  real(8), intent(inout) :: e2(-1:nx + 2)
  real(8), intent(inout) :: f2(0:)
  integer, intent(in) :: g2(0:nx + 1)
  real(8), parameter :: c12 = 3.0D0**2
  integer :: it
  logical :: lt
  real(8) :: t1
  real(8) :: t2
  real(4) :: t3
  integer :: i
  !$f2s stencil tune_size(9)
  do i = 2, nx - 1
    t1 = e2(i)
    f2(2*i) = sqrt(abs(mod(max(c12, e2(i+1)), 0.25d0 + abs(e2(i-1) - t1))))
    f2(2*i-1) = abs(m) * (-alpha)**2
  end do
end subroutine sub2

