subroutine sub3(nx, ny, nz, alpha, m, f3, g3, h3, o3)
  implicit none
  integer, intent(in) :: nx, ny, nz
  real(8), intent(in) :: alpha
  integer, intent(in) :: m
  real(4), intent(inout) :: f3(nx, ny, nz)
  real(4), intent(in) :: g3(1:, 1:, 1:)
  logical, intent(in) :: h3(0:nx + 1, 0:ny + 1, 0:nz + 1)
  real(4), intent(in) :: o3(0:nx, ny, nz)
  real(4), parameter :: c13 = 2.0_4 * 0.5
  real(8), parameter :: c23 = 1.0d-1 * 0.75_8
  integer :: it
  logical :: lt
  real(8) :: t1
  real(8) :: t2
  real(4) :: t3
  integer :: i, j, k
  !$f2s stencil name(k5) tune_size(9, 7, 5)
  do k = 2, nz - 1
    do j = 1, ny - 1
      do i = 2, nx
        if (.not. (c23 == c13 .or. 1 * m <= k / 2)) then
          if (.not. h3(i-1, j, k+1) .eqv. mod(k, 3) < m - j .and. alpha <= g3(i, j, k)) then
          else
          end if
        else
        end if
      end do
    end do
  end do
end subroutine sub3

