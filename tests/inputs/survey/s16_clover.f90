! Survey nest 16: a hydro code's viscosity kernel: arrays with a two-cell
! halo from x_min-2, an OpenMP PARALLEL region with an inner !$OMP DO,
! nested IFs and MAX/MIN/SIGN, kind through a named constant.
subroutine visc_kernel(x_min, x_max, y_min, y_max, celldx, celldy, density0, pressure, &
                       viscosity, xvel0, yvel0)
  implicit none
  integer, parameter :: wp = kind(1.0d0)
  integer :: x_min, x_max, y_min, y_max
  real(kind=wp), dimension(x_min-2:x_max+2) :: celldx
  real(kind=wp), dimension(y_min-2:y_max+2) :: celldy
  real(kind=wp), dimension(x_min-2:x_max+2, y_min-2:y_max+2) :: density0, pressure, viscosity
  real(kind=wp), dimension(x_min-2:x_max+3, y_min-2:y_max+3) :: xvel0, yvel0
  integer :: j, k
  real(kind=wp) :: ugrad, vgrad, grad2, pgradx, pgrady, pgradx2, pgrady2, grad, ygrad, xgrad
  real(kind=wp) :: div, strain2, limiter, pgrad

!$OMP PARALLEL
  !$f2s stencil name(viscosity_k)
!$OMP DO PRIVATE(j, ugrad, vgrad, div, strain2, pgradx, pgrady, pgradx2, pgrady2, &
!$OMP            limiter, pgrad, xgrad, ygrad, grad, grad2)
  do k = y_min, y_max
    do j = x_min, x_max
      ugrad = (xvel0(j+1,k) + xvel0(j+1,k+1)) - (xvel0(j,k) + xvel0(j,k+1))
      vgrad = (yvel0(j,k+1) + yvel0(j+1,k+1)) - (yvel0(j,k) + yvel0(j+1,k))
      div = (celldx(j)*ugrad) + (celldy(k)*vgrad)
      strain2 = 0.5_wp*(xvel0(j,k+1) + xvel0(j+1,k+1) - xvel0(j,k) - xvel0(j+1,k))/celldy(k) &
              + 0.5_wp*(yvel0(j+1,k) + yvel0(j+1,k+1) - yvel0(j,k) - yvel0(j,k+1))/celldx(j)
      pgradx = (pressure(j+1,k) - pressure(j-1,k))/(celldx(j) + celldx(j+1))
      pgrady = (pressure(j,k+1) - pressure(j,k-1))/(celldy(k) + celldy(k+1))
      pgradx2 = pgradx*pgradx
      pgrady2 = pgrady*pgrady
      limiter = ((0.5_wp*ugrad/celldx(j))*pgradx2 + (0.5_wp*vgrad/celldy(k))*pgrady2 &
              + strain2*pgradx*pgrady)/max(pgradx2 + pgrady2, 1.0e-16_wp)
      if ((limiter > 0.0_wp) .or. (div >= 0.0_wp)) then
        viscosity(j,k) = 0.0_wp
      else
        pgradx = sign(max(1.0e-16_wp, abs(pgradx)), pgradx)
        pgrady = sign(max(1.0e-16_wp, abs(pgrady)), pgrady)
        pgrad = sqrt(pgradx*pgradx + pgrady*pgrady)
        xgrad = abs(celldx(j)*pgrad/pgradx)
        ygrad = abs(celldy(k)*pgrad/pgrady)
        grad = min(xgrad, ygrad)
        grad2 = grad*grad
        viscosity(j,k) = 2.0_wp*density0(j,k)*grad2*limiter*limiter
      end if
    end do
  end do
!$OMP END DO
!$OMP END PARALLEL
end subroutine visc_kernel
