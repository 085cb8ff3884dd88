! Full-weighting restriction from a fine grid r(m1,m2) to a coarse s(n1,n2),
! with the fine grid's parity offsets d1, d2 computed by the caller (1 when
! the fine size is even, 2 when odd), as multigrid codes of the NPB style do.
subroutine restrict2d(m1, m2, n1, n2, d1, d2, r, s)
  implicit none
  integer, intent(in) :: m1, m2, n1, n2, d1, d2
  real(8), intent(in) :: r(m1, m2)
  real(8), intent(inout) :: s(n1, n2)
  integer :: i, j
  !$f2s stencil name(rprj2) tune_size(40, 30)
  do j = 2, n2 - 1
    do i = 2, n1 - 1
      s(i, j) = 0.25d0*r(2*i-d1, 2*j-d2) &
              + 0.125d0*(r(2*i-d1-1, 2*j-d2) + r(2*i-d1+1, 2*j-d2) &
                       + r(2*i-d1, 2*j-d2-1) + r(2*i-d1, 2*j-d2+1)) &
              + 0.0625d0*(r(2*i-d1-1, 2*j-d2-1) + r(2*i-d1+1, 2*j-d2+1) &
                        + r(2*i-d1-1, 2*j-d2+1) + r(2*i-d1+1, 2*j-d2-1))
    end do
  end do
end subroutine
