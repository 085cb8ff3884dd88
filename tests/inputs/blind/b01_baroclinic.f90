! Tracer update of the baroclinic step: horizontal diffusion through the
! faces that are wet on both sides, vertical advection by w, land below
! the depth index kmt(i,j) zeroed. A module procedure on module arrays.
module ocn_baroclinic
  use ocn_kinds
  use ocn_state
  implicit none
  private
  public :: tracer_update

contains

  subroutine tracer_update(dtts, ah)
    real(dp), intent(in) :: dtts, ah
    integer :: i, j, k
    real(dp) :: fxe, fxw, fyn, fys, adv

    !$omp parallel do private(i, j, k, fxe, fxw, fyn, fys, adv) schedule(static)
    !$f2s stencil name(b01_baroclinic)
    do k = 1, km
      do j = 2, jmt - 1
        do i = 2, imt - 1
          if (k <= kmt(i,j)) then
            fxe = 0.0_dp
            fxw = 0.0_dp
            fyn = 0.0_dp
            fys = 0.0_dp
            if (k <= kmt(i+1,j)) fxe = ah*(tcur(i+1,j,k) - tcur(i,j,k))*dxtr(i,j)
            if (k <= kmt(i-1,j)) fxw = ah*(tcur(i,j,k) - tcur(i-1,j,k))*dxtr(i-1,j)
            if (k <= kmt(i,j+1)) fyn = ah*(tcur(i,j+1,k) - tcur(i,j,k))*dytr(i,j)
            if (k <= kmt(i,j-1)) fys = ah*(tcur(i,j,k) - tcur(i,j-1,k))*dytr(i,j-1)
            adv = 0.5_dp*wvel(i,j,k)*(tcur(i,j,k+1) - tcur(i,j,k-1))/dzt(k)
            tnew(i,j,k) = tcur(i,j,k) + dtts*((fxe - fxw)*dxtr(i,j) + (fyn - fys)*dytr(i,j) - adv)
          else
            tnew(i,j,k) = 0.0_dp
          end if
        end do
      end do
    end do
    !$omp end parallel do
  end subroutine tracer_update

end module ocn_baroclinic
