! Multi-component updates as CFD and chemistry-transport codes write them:
! a loop over the components (their count an argument) around, between or
! inside the three loops of the grid, with the components last (structure
! of arrays) or first (array of structures) and the (i,k,j) order of
! atmosphere models. The kernel keeps the grid's three loops; the component
! loop runs inside each point.

! Components last, their loop outermost: a diffusion step per species.
subroutine diffuse_species(nx, ny, nz, nvar, c, q, qn)
  implicit none
  integer, intent(in) :: nx, ny, nz, nvar
  real(8), intent(in) :: c, q(0:nx+1, 0:ny+1, 0:nz+1, nvar)
  real(8), intent(inout) :: qn(0:nx+1, 0:ny+1, 0:nz+1, nvar)
  integer :: i, j, k, m
  !$f2s stencil name(comp_outer)
  do m = 1, nvar
    do k = 2, nz - 1
      do j = 1, ny
        do i = 1, nx
          qn(i, j, k, m) = q(i, j, k, m) + c * (q(i-1, j, k, m) + q(i+1, j, k, m) &
                         + q(i, j-1, k, m) + q(i, j+1, k, m) + q(i, j, k-1, m) &
                         + q(i, j, k+1, m) - 6d0 * q(i, j, k, m))
        end do
      end do
    end do
  end do
end subroutine diffuse_species

! Components first, their loop innermost: central fluxes with temporaries.
subroutine flux_conserved(nx, ny, nz, nvar, q, rhs)
  implicit none
  integer, intent(in) :: nx, ny, nz, nvar
  real(8), intent(in) :: q(nvar, 0:nx+1, 0:ny+1, 0:nz+1)
  real(8), intent(inout) :: rhs(nvar, nx, ny, nz)
  integer :: i, j, k, m
  real(8) :: fl, fr
  !$f2s stencil name(comp_inner)
  do k = 1, nz
    do j = 1, ny
      do i = 1, nx
        do m = 1, nvar
          fl = 0.5d0 * (q(m, i-1, j, k) + q(m, i, j, k))
          fr = 0.5d0 * (q(m, i, j, k) + q(m, i+1, j, k))
          rhs(m, i, j, k) = rhs(m, i, j, k) - (fr - fl) &
                          - 0.25d0 * (q(m, i, j+1, k) - q(m, i, j-1, k)) &
                          + 0.125d0 * (q(m, i, j, k+1) - q(m, i, j, k-1))
        end do
      end do
    end do
  end do
end subroutine flux_conserved

! (i,k,j) storage, the tracer loop between the j and k loops.
subroutine advect_tracers(nx, ny, nz, ntr, u, w, t)
  implicit none
  integer, intent(in) :: nx, ny, nz, ntr
  real(8), intent(in) :: u(0:nx+1, nz, 0:ny+1), w(0:nx+1, 0:nz+1, 0:ny+1, ntr)
  real(8), intent(inout) :: t(nx, nz, ny, ntr)
  integer :: i, j, k, n
  !$f2s stencil name(comp_ikj)
  do j = 1, ny
    do n = 1, ntr
      do k = 1, nz
        do i = 1, nx
          t(i, k, j, n) = w(i, k, j, n) - u(i, k, j) * (w(i+1, k, j, n) - w(i-1, k, j, n)) &
                        + 0.5d0 * (w(i, k+1, j, n) - w(i, k-1, j, n) + w(i, k, j+1, n))
        end do
      end do
    end do
  end do
end subroutine advect_tracers

! A weighted sum over the species into one field, in species order: each
! point adds its components in the order the source adds them.
subroutine total_mass(nx, ny, nz, nvar, wt, q, s)
  implicit none
  integer, intent(in) :: nx, ny, nz, nvar
  real(8), intent(in) :: wt(nvar), q(0:nx+1, 0:ny+1, 0:nz+1, nvar)
  real(8), intent(inout) :: s(nx, ny, nz)
  integer :: i, j, k, m
  !$f2s stencil name(comp_sum)
  do m = 1, nvar
    do k = 1, nz
      do j = 1, ny
        do i = 1, nx
          s(i, j, k) = s(i, j, k) + wt(m) * (q(i, j, k, m) + 0.5d0 * q(i+1, j, k, m))
        end do
      end do
    end do
  end do
end subroutine total_mass
