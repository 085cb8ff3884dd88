! Kinds chosen the portable way: the working precision by range as well as
! digits, and loop counters by SELECTED_INT_KIND. gfortran makes wp REAL(8)
! (six digits fit REAL(4), exponents to 1e70 do not) and iwp INTEGER(4);
! the library must take the arrays as gfortran types them.
module kinds2d_prec
  implicit none
  integer, parameter :: iwp = selected_int_kind(9)
  integer, parameter :: wp = selected_real_kind(p=6, r=70)
end module kinds2d_prec

subroutine kinds2d_smooth(n, m, w, u, v)
  use kinds2d_prec
  implicit none
  integer(iwp), intent(in) :: n, m
  real(wp), intent(in) :: w
  real(wp), intent(in) :: u(0:n+1, 0:m+1)
  real(wp), intent(inout) :: v(0:n+1, 0:m+1)
  integer(iwp) :: i, j
  !$f2s stencil name(kinds2d) tune_size(40, 30)
  do j = 1, m
    do i = 1, n
      v(i, j) = w*u(i, j) + 0.25_wp*((u(i-1, j) + u(i+1, j)) + (u(i, j-1) + u(i, j+1)))
    end do
  end do
end subroutine kinds2d_smooth
