subroutine sub1(nx, ny, alpha, a1, b1, c1)
  implicit none
  integer, intent(in) :: nx, ny
  real(8), intent(in) :: alpha
  real(8), intent(inout) :: a1(0:, 0:)
  real(4), intent(in) :: b1(0:nx + 1, 0:ny + 1)
  logical, intent(in) :: c1(0:, 0:)
  real(4), parameter :: c11 = 1.5e0 / 1.25
  integer :: it
  logical :: lt
  real(8) :: t1
  real(8) :: t2
  real(4) :: t3
  integer :: i, j
  !$f2s stencil name(k1) tune_size(9, 7)
  do j = 2, ny - 1
    do i = 2, nx
      t1 = 0.125d0
      t2 = -merge(a1(i-1, j+1), mod(a1(i-1, j+1), 3.0D0 + abs(alpha)), .not. c1(i+1, j))
      if (1.25 .le. t1 .or. .true.) a1(i-1, j+1) = 1.5d0
      t3 = b1(i+1, j+1)
      a1(i-1, j+1) = merge(i*0.7, t3, c1(i+1, j+1)) + 1.0d-1 + mod(sqrt(abs(t2)), 1.0d-1 + abs(t1))
    end do
  end do
end subroutine sub1

