! One Jacobi sweep for the variable-coefficient Poisson equation
! -div(a grad u) = f on a cell-centred grid: the face coefficients are the
! means of the cell coefficients a on either side, so the operator has five
! coefficients that change from point to point.
subroutine poisson(nx, ny, h2, a, f, u, unew)
  implicit none
  integer, intent(in) :: nx, ny
  real(8), intent(in) :: h2
  real(8), intent(in) :: a(0:nx+1, 0:ny+1), f(0:nx+1, 0:ny+1), u(0:nx+1, 0:ny+1)
  real(8), intent(inout) :: unew(0:nx+1, 0:ny+1)
  real(8) :: aw, ae, as, an
  integer :: i, j

  !$f2s stencil name(poisson2d)
  do j = 1, ny
    do i = 1, nx
      aw = 0.5d0*(a(i-1,j) + a(i,j))
      ae = 0.5d0*(a(i+1,j) + a(i,j))
      as = 0.5d0*(a(i,j-1) + a(i,j))
      an = 0.5d0*(a(i,j+1) + a(i,j))
      unew(i,j) = (h2*f(i,j) + aw*u(i-1,j) + ae*u(i+1,j) + as*u(i,j-1) + an*u(i,j+1)) &
                / (aw + ae + as + an)
    end do
  end do
end subroutine poisson
