! A LOGICAL mask array next to a LOGICAL switch and an assumed-shape field:
! the module's wrapper converts the switch to an integer(c_int) and passes
! the mask in place.
module maskwrap_mod
  implicit none
contains
  subroutine relax(n, m, ocean, damp, h, hnew)
    integer, intent(in) :: n, m
    logical, intent(in) :: ocean(0:n+1, 0:m+1)
    logical, intent(in) :: damp
    real(8), intent(in) :: h(0:, 0:)
    real(8), intent(inout) :: hnew(0:n+1, 0:m+1)
    integer :: i, j
    !$f2s stencil name(maskwrap2d) tune_size(40, 30)
    do j = 1, m
      do i = 1, n
        if (ocean(i,j) .and. damp) then
          hnew(i,j) = 0.25d0*(h(i-1,j) + h(i+1,j) + h(i,j-1) + h(i,j+1))
        else if (ocean(i,j)) then
          hnew(i,j) = h(i,j) - 0.5d0*h(i-1,j)
        else
          hnew(i,j) = h(i,j)
        end if
      end do
    end do
  end subroutine relax
end module maskwrap_mod
