! One explicit step of the heat equation with a conductivity per point,
! written as a modern code writes it: kinds from ISO_FORTRAN_ENV through a
! named constant, the conductivity an allocatable module array (brought in
! under another name), the temperatures assumed-shape dummies with lower
! bounds of 0, and loop bounds taken from the arrays with UBOUND, LBOUND and
! SIZE. 15 flops per point.
module heat3d_kinds
  use, intrinsic :: iso_fortran_env, only: real64
  implicit none
  integer, parameter :: wp = real64
end module heat3d_kinds

module heat3d_fields
  use heat3d_kinds, only: wp
  implicit none
  real(wp), allocatable :: kappa(:,:,:)
end module heat3d_fields

module heat3d_solver
  use heat3d_kinds
  use heat3d_fields, only: cond => kappa
  implicit none
  real(kind=wp), parameter :: six = 6.0_wp
contains
  subroutine heat_step(dt, t, tnew)
    real(wp), intent(in) :: dt
    real(wp), intent(in) :: t(0:, 0:, 0:)
    real(wp), intent(inout) :: tnew(0:, 0:, 0:)
    integer :: i, j, k

    !$f2s stencil name(heat3d_modern) tune_size(128, 128, 128)
    do k = 1, ubound(t, 3) - 1
      do j = lbound(t, 2) + 1, size(t, 2) - 2
        do i = 1, ubound(t, dim=1) - 1
          tnew(i,j,k) = t(i,j,k) + dt*cond(i,j,k)*(t(i+1,j,k) + t(i-1,j,k) + t(i,j+1,k) &
                      + t(i,j-1,k) + t(i,j,k+1) + t(i,j,k-1) - six*t(i,j,k))
        end do
      end do
    end do
  end subroutine heat_step
end module heat3d_solver
