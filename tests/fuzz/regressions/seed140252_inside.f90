subroutine sub2(nx, ny, nz, alpha, m, s21, free, e2)
  implicit none
  integer, intent(in) :: nx, ny, nz
  real(8), intent(in) :: alpha
  integer, intent(in) :: m
  real(4), intent(inout) :: s21
  real(8), intent(inout) :: free(-1:nx + 1, 0:ny + 1, 0:nz + 1)
  real(8), intent(inout) :: e2(2*nx + 1, 0:2*ny + 1, 0:2*nz + 1)
  real(8), parameter :: c12 = 0.25d0**2
  real(8), parameter :: c22 = 2.0_8**2
  integer :: it
  logical :: lt
  real(8) :: t1
  real(8) :: t2
  real(4) :: t3
  integer :: i, j, k
  !$f2s stencil tune_size(9, 7, 5)
  do k = 1, nz
    do j = 1, ny - 1
      do i = 1, nx
        free(i, j, k) = 2.0_8
        e2(2*i, 2*j, 2*k) = sign(alpha * cosh(sin(free(i, j, k))), c12)
      end do
    end do
  end do
end subroutine sub2

