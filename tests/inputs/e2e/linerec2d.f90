! A recursive smoothing filter along x, run eastward and then westward on
! every row (a zero-phase first-order filter, as limited-area models apply
! near their lateral boundaries). Each sweep is a recurrence along i; the
! rows are independent. s(0,:) and s(nx+1,:) hold the boundary values.
subroutine rowfilter(nx, ny, alpha, q, s)
  implicit none
  integer, intent(in) :: nx, ny
  real(8), intent(in) :: alpha
  real(8), intent(in) :: q(nx, ny)
  real(8), intent(inout) :: s(0:nx+1, ny)
  integer :: i, j

  !$f2s stencil name(filter_east)
  do j = 1, ny
    do i = 1, nx
      s(i, j) = alpha*s(i-1, j) + (1d0 - alpha)*q(i, j)
    end do
  end do

  !$f2s stencil name(filter_west)
  do j = 1, ny
    do i = nx, 1, -1
      s(i, j) = alpha*s(i+1, j) + (1d0 - alpha)*s(i, j)
    end do
  end do
end subroutine rowfilter
