subroutine sub1_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx(nx, ny, nz, &
    &  alpha, a1, b1, c1)
  implicit none
  integer, intent(in) :: nx, ny, nz
  real(8), intent(in) :: alpha
  real(4), intent(inout) :: a1(-1:nx + 1, 0:ny + 1, 0:nz + 1)
  real(8), intent(in) :: b1(0:nx + 1, 0:ny + 1, -1:nz + 1)
  real(8), intent(in) :: c1(0:nx + 1, 0:ny + 1, 0:nz + 1, 0:2)
  integer :: it
  logical :: lt
  real(8) :: t1
  real(8) :: t2
  real(4) :: t3
  integer :: i, j, k
  !$f2s stencil name(k1) tune_size(9, 7, 5)
  do k = 1, nz - 1
    do j = 2, ny - 1
      do i = 2, nx - 1
        t2 = 0
        a1(i, j, k) = log10(1.5e0 + abs(merge(1.25, a1(i, j, k), 0.125d0 /= t2)**2))
      end do
    end do
  end do
end subroutine sub1_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx

