! Euler equations in conserved variables: the state is q(nvar, i, j, k)
! (variables first), the right-hand side rhs(i, j, k, nvar); the
! component indices are named constants of a module.
module euler_vars
  implicit none
  integer, parameter :: nvar = 5
  integer, parameter :: irho = 1, imx = 2, imy = 3, imz = 4, iene = 5
  real(8), parameter :: gamma = 1.4d0
end module euler_vars

subroutine euler_xflux(nx, ny, nz, rdx, q, rhs)
  use euler_vars
  implicit none
  integer, intent(in) :: nx, ny, nz
  real(8), intent(in) :: rdx
  real(8), intent(in) :: q(nvar, 0:nx+1, 0:ny+1, 0:nz+1)
  real(8), intent(inout) :: rhs(nx, ny, nz, nvar)
  integer :: i, j, k
  real(8) :: ue, uw, pe, pw

  !$f2s stencil name(b08_rank4)
  do k = 1, nz
    do j = 1, ny
      do i = 1, nx
        ue = q(imx,i+1,j,k)/q(irho,i+1,j,k)
        uw = q(imx,i-1,j,k)/q(irho,i-1,j,k)
        pe = (gamma - 1d0)*(q(iene,i+1,j,k) - 0.5d0*(q(imx,i+1,j,k)**2 + q(imy,i+1,j,k)**2 &
             + q(imz,i+1,j,k)**2)/q(irho,i+1,j,k))
        pw = (gamma - 1d0)*(q(iene,i-1,j,k) - 0.5d0*(q(imx,i-1,j,k)**2 + q(imy,i-1,j,k)**2 &
             + q(imz,i-1,j,k)**2)/q(irho,i-1,j,k))
        rhs(i,j,k,irho) = rhs(i,j,k,irho) - 0.5d0*rdx*(q(imx,i+1,j,k) - q(imx,i-1,j,k))
        rhs(i,j,k,imx) = rhs(i,j,k,imx) - 0.5d0*rdx*(q(imx,i+1,j,k)*ue + pe - q(imx,i-1,j,k)*uw - pw)
        rhs(i,j,k,imy) = rhs(i,j,k,imy) - 0.5d0*rdx*(q(imy,i+1,j,k)*ue - q(imy,i-1,j,k)*uw)
        rhs(i,j,k,imz) = rhs(i,j,k,imz) - 0.5d0*rdx*(q(imz,i+1,j,k)*ue - q(imz,i-1,j,k)*uw)
        rhs(i,j,k,iene) = rhs(i,j,k,iene) - 0.5d0*rdx*((q(iene,i+1,j,k) + pe)*ue &
                        - (q(iene,i-1,j,k) + pw)*uw)
      end do
    end do
  end do
end subroutine euler_xflux
