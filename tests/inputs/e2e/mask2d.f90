! A LOGICAL array read as a mask, next to a LOGICAL temporary: the library
! reads the caller's default LOGICAL array in place.
subroutine masked(n, m, land, h, hnew)
  implicit none
  integer, intent(in) :: n, m
  logical, intent(in) :: land(0:n+1, 0:m+1)
  real(8), intent(in) :: h(0:n+1, 0:m+1)
  real(8), intent(inout) :: hnew(0:n+1, 0:m+1)
  logical :: coast
  integer :: i, j
  !$f2s stencil name(mask2d) tune_size(40, 30)
  do j = 1, m
    do i = 1, n
      coast = land(i,j) .neqv. (land(i-1,j) .and. land(i+1,j))
      if (coast) then
        hnew(i,j) = 0.5d0*(h(i-1,j) + h(i+1,j))
      else if (.not. land(i,j) .eqv. land(i,j+1)) then
        hnew(i,j) = h(i,j) - 0.25d0*h(i,j-1)
      else
        hnew(i,j) = h(i,j)
      end if
    end do
  end do
end subroutine masked
