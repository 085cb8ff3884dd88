! A sloping-bottom ocean column layout: at level k the wet points of row j
! start at i = j + k - 1 and the rows start at j = k (the wedge narrows with
! depth); a seven-point diffusion on the wet points only.
subroutine wedge(nx, ny, nz, r, t, tn)
  implicit none
  integer, intent(in) :: nx, ny, nz
  real(8), intent(in) :: r
  real(8), intent(in) :: t(0:nx+1, 0:ny+1, 0:nz+1)
  real(8), intent(inout) :: tn(0:nx+1, 0:ny+1, 0:nz+1)
  integer :: i, j, k

  !$f2s stencil name(wedge3d) tune_size(24, 10, 9)
  do k = 1, nz
    do j = k, ny
      do i = j + k - 1, nx
        tn(i,j,k) = t(i,j,k) + r*(t(i-1,j,k) + t(i+1,j,k) + t(i,j-1,k) + t(i,j+1,k) &
                  + t(i,j,k-1) + t(i,j,k+1) - 6d0*t(i,j,k))
      end do
    end do
  end do
end subroutine wedge
