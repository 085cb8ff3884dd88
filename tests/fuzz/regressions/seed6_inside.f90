subroutine sub1(nx, alpha, flag, m, s11, asm, b1)
  implicit none
  integer, intent(in) :: nx
  real(8), intent(in) :: alpha
  logical, intent(in) :: flag
  integer, intent(in) :: m
  integer, intent(inout) :: s11
  real(4), intent(inout) :: asm(2*nx + 1)
  real(4), intent(inout) :: b1(-1:nx + 2)
  real(4), parameter :: c11 = 1.25 - 0.3
  integer, parameter :: c21 = 3*2 - 3
  integer :: it
  logical :: lt
  real(8) :: t1
  real(8) :: t2
  real(4) :: t3
  integer :: i
  !$f2s stencil name(k1) tune_size(9)
  do i = 2, nx
    asm(2*i-1) = 0
  end do
end subroutine sub1

