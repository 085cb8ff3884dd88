! The vertical-velocity tendency of an atmosphere model's dynamical core, in
! the storage order such models use: 3D fields w(i,k,j) with the vertical in
! the middle, 2D map-scale factors msfx(i,j) and msfy(i,j) on the horizontal
! grid, 1D vertical metrics rdzw(k) and fnm(k), a coefficient array with a
! component dimension read at named constants (coef(i,k,j,ix)), and a
! tendency array with two components written at literal ones.
module mapfactor_consts
  implicit none
  integer, parameter :: ix = 1, iy = 2, iz = 3
end module mapfactor_consts

subroutine w_tendency(ids, ide, kds, kde, jds, jde, rdx, rdy, msfx, msfy, rdzw, fnm, &
                      coef, w, tend)
  use mapfactor_consts
  implicit none
  integer, intent(in) :: ids, ide, kds, kde, jds, jde
  real(8), intent(in) :: rdx, rdy
  real(8), intent(in) :: msfx(ids:ide, jds:jde), msfy(ids:ide, jds:jde)
  real(8), intent(in) :: rdzw(kds:kde), fnm(kds:kde)
  real(8), intent(in) :: coef(ids:ide, kds:kde, jds:jde, 3)
  real(8), intent(in) :: w(ids-1:ide+1, kds-1:kde+1, jds-1:jde+1)
  real(8), intent(inout) :: tend(ids:ide, kds:kde, jds:jde, 2)
  real(8) :: adv
  integer :: i, j, k

  !$f2s stencil name(mapfactor3d)
  do j = jds, jde
    do k = kds, kde
      do i = ids, ide
        adv = msfx(i, j)*rdx*coef(i, k, j, ix)*(w(i+1, k, j) - w(i-1, k, j)) &
            + msfy(i, j)*rdy*coef(i, k, j, iy)*(w(i, k, j+1) - w(i, k, j-1)) &
            + rdzw(k)*coef(i, k, j, iz)*(fnm(k)*w(i, k+1, j) - (1d0 - fnm(k))*w(i, k-1, j))
        tend(i, k, j, 1) = tend(i, k, j, 1) - adv
        tend(i, k, j, 2) = msfx(i, j)*msfy(i, j)*(tend(i, k, j, 2) + 0.5d0*adv)
      end do
    end do
  end do
end subroutine w_tendency
