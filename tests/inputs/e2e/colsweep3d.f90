! Hydrostatic integration in a model that stores its fields level-first,
! p(k,i,j): the pressure at each level is the one above plus the weight of
! the layer between, a recurrence along k inside every column; with k the
! innermost loop, each column is a run of contiguous memory.
subroutine hydrostatic(nz, nx, ny, g, rho, dz, p)
  implicit none
  integer, intent(in) :: nz, nx, ny
  real(8), intent(in) :: g
  real(8), intent(in) :: rho(nz, nx, ny), dz(nz, nx, ny)
  real(8), intent(inout) :: p(0:nz, nx, ny)
  integer :: i, j, k

  !$f2s stencil name(colsweep3d)
  do j = 1, ny
    do i = 1, nx
      do k = 1, nz
        p(k, i, j) = p(k-1, i, j) + g*rho(k, i, j)*dz(k, i, j)
      end do
    end do
  end do
end subroutine hydrostatic
