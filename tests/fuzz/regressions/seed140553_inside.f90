subroutine sub1_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx(nx, ny, alpha, &
    &  beta, flag, s11, s12, a1, b1, c1)
  implicit none
  integer, intent(in) :: nx, ny
  real(8), intent(in) :: alpha
  real(4), intent(in) :: beta
  logical, intent(in) :: flag
  real(8), intent(inout) :: s11
  real(4), intent(inout) :: s12
  real(4), intent(inout) :: a1(0:nx + 1, 0:ny + 1)
  real(8), intent(inout) :: b1(0:nx + 1, 0:ny + 1)
  logical, intent(in) :: c1(0:nx + 1, 0:ny + 1)
  integer :: it
  logical :: lt
  real(8) :: t1
  real(8) :: t2
  real(4) :: t3
  integer :: i, j
  !$f2s stencil name(k2_yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy) tune_size(9, 7)
  do j = 1, ny
    do i = 1, nx
      b1(i, j) = exp(-abs(.5d0))
      b1(i, j) = mod(i / 2 / (0.75_8 + abs(b1(i, j) + 2)), .5d0 + abs(acos(sin(tanh(b1(i, j))))))
    end do
  end do
end subroutine sub1_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx

