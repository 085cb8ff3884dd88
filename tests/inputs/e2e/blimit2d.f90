! Loop bounds computed between the loops (issue 38): a boundary width set
! from a flag under an IF, and the inner loop's limits from it, as ocean and
! atmosphere codes skip a relaxation zone unless the domain is periodic; and
! a column range picked per row by IF ... ELSE on an argument.
subroutine blim_relax(u, unew, nx, ny, b_dist, periodic_x)
  implicit none
  integer, intent(in) :: nx, ny, b_dist
  logical, intent(in) :: periodic_x
  real(8), intent(in) :: u(0:nx+1, 0:ny+1)
  real(8), intent(inout) :: unew(0:nx+1, 0:ny+1)
  integer :: i, j, b_limit, i_lo, i_hi
  !$f2s stencil name(blim_step) tune_size(40, 30)
  do j = 1, ny
    b_limit = b_dist
    if (periodic_x) b_limit = 0
    i_lo = 1 + b_limit
    i_hi = nx - b_limit
    do i = i_lo, i_hi
      unew(i, j) = 0.25d0 * (u(i-1, j) + u(i+1, j) + u(i, j-1) + u(i, j+1))
    end do
  end do
end subroutine

subroutine blim_band(u, v, nx, ny, wide)
  implicit none
  integer, intent(in) :: nx, ny, wide
  real(8), intent(in) :: u(nx, ny)
  real(8), intent(inout) :: v(nx, ny)
  integer :: i, j, ifirst, ilast
  !$f2s stencil name(blim_band_k) tune_size(40, 30)
  do j = 2, ny - 1
    if (wide > 0) then
      ifirst = 2
      ilast = nx - 1
    else
      ifirst = nx / 4 + 1
      ilast = nx - nx / 4
    end if
    do i = ifirst, ilast
      v(i, j) = u(i, j) - 0.5d0 * (u(i, j-1) + u(i, j+1))
    end do
  end do
end subroutine
