subroutine sub2_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx(nx, ny, nz, &
    &  alpha, color, m, copysign, copysignf, unix, g2)
  implicit none
  integer, intent(in) :: nx, ny, nz
  real(8), intent(in) :: alpha
  integer, intent(in) :: color
  integer, intent(in) :: m
  real(8), intent(in) :: copysign(0:nx + 1, 0:ny + 1, 0:nz + 1)
  real(8), intent(in) :: copysignf(-1:, -1:, -1:)
  logical, intent(in) :: unix(0:nx, ny, nz)
  real(8), intent(inout) :: g2(-1:nx + 2, -2:ny + 2, -2:nz + 2)
  real(8), parameter :: c12 = 0.25d0 - 0.25d0
  real(8), parameter :: c22 = 2.0_8**2
  integer :: it
  logical :: lt
  real(8) :: t1
  real(8) :: t2
  real(4) :: t3
  integer :: i, j, k
  !$f2s stencil name(k2_yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy) tune_size(9, 7, 5)
  do k = 1, nz - 1
    do j = 1, ny
      do i = 1 + mod(j+k + color, 2), nx - 1, 2
      end do
    end do
  end do
end subroutine sub2_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx

