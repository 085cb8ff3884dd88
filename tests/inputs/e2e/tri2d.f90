! Updates on a basin cut by a sloping coast: the wet points of row j start
! at the coastline i = j (a triangle), and a second pass smooths a band
! that ends two points past the diagonal (a bound MIN'd with the edge).
subroutine basin(nx, ny, w, u, v)
  implicit none
  integer, intent(in) :: nx, ny
  real(8), intent(in) :: w
  real(8), intent(in) :: u(0:nx+1, 0:ny+1)
  real(8), intent(inout) :: v(0:nx+1, 0:ny+1)
  integer :: i, j

  !$f2s stencil name(tri_relax) tune_size(40, 30)
  do j = 1, ny
    do i = j, nx
      v(i, j) = u(i, j) + w*(u(i-1, j) + u(i+1, j) + u(i, j-1) + u(i, j+1) - 4d0*u(i, j))
    end do
  end do

  !$f2s stencil name(tri_band) tune_size(40, 30)
  do j = 1, ny
    do i = 1, min(nx, j + 2)
      v(i, j) = 0.5d0*(v(i, j) + u(i, j))
    end do
  end do
end subroutine basin
