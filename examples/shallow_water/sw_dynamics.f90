! Shallow-water dynamics on a rectangular basin: the grid, the physical
! constants, and the three loop nests that advance the state by one step.
!
! The state is the depth h and the transports hu, hv at cell centres, with
! one halo cell on every side (filled by bound() in sw2d.F). A step is a
! finite-volume update with Rusanov (local Lax-Friedrichs) fluxes through
! the cell faces, then a rotation of the transports by the Coriolis angle.
module sw_dynamics
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  ! Odd sizes on purpose: no tile or thread split divides them evenly.
  integer, parameter :: nx = 75, ny = 53
  real(dp), parameter :: g = 9.81d0
  real(dp), parameter :: dx = 2.0d3, dy = 2.5d3
  real(dp), parameter :: f0 = 1.0d-4

contains

  ! Fluxes through the faces normal to x: face i lies between cells i and
  ! i+1, so faces 0 and nx are the walls, where the halo mirrors the cell.
  subroutine xfluxes(h, hu, hv, fh, fu, fv)
    real(dp), intent(in) :: h(0:nx+1, 0:ny+1), hu(0:nx+1, 0:ny+1), hv(0:nx+1, 0:ny+1)
    real(dp), intent(out) :: fh(0:nx, 1:ny), fu(0:nx, 1:ny), fv(0:nx, 1:ny)
    real(dp) :: ul, vl, ur, vr, a
    integer :: i, j

    !$omp parallel do private(i, ul, vl, ur, vr, a)
    !$f2s stencil name(sw_xflux) tune_size(1025, 1023)
    do j = 1, ny
      do i = 0, nx
        ul = hu(i, j)/h(i, j)
        vl = hv(i, j)/h(i, j)
        ur = hu(i+1, j)/h(i+1, j)
        vr = hv(i+1, j)/h(i+1, j)
        a = max(abs(ul) + sqrt(g*h(i, j)), abs(ur) + sqrt(g*h(i+1, j)))
        fh(i, j) = 0.5d0*(hu(i, j) + hu(i+1, j)) - 0.5d0*a*(h(i+1, j) - h(i, j))
        fu(i, j) = 0.5d0*(hu(i, j)*ul + 0.5d0*g*h(i, j)**2 &
                        + hu(i+1, j)*ur + 0.5d0*g*h(i+1, j)**2) &
                 - 0.5d0*a*(hu(i+1, j) - hu(i, j))
        fv(i, j) = 0.5d0*(hu(i, j)*vl + hu(i+1, j)*vr) - 0.5d0*a*(hv(i+1, j) - hv(i, j))
      end do
    end do
    !$omp end parallel do
  end subroutine xfluxes

  ! Fluxes through the faces normal to y, face j between cells j and j+1.
  subroutine yfluxes(h, hu, hv, gh, gu, gv)
    real(dp), intent(in) :: h(0:nx+1, 0:ny+1), hu(0:nx+1, 0:ny+1), hv(0:nx+1, 0:ny+1)
    real(dp), intent(out) :: gh(1:nx, 0:ny), gu(1:nx, 0:ny), gv(1:nx, 0:ny)
    real(dp) :: ub, vb, ut, vt, a
    integer :: i, j

    !$f2s stencil name(sw_yflux) tune_size(1023, 1025)
    do j = 0, ny
      do i = 1, nx
        ub = hu(i, j)/h(i, j)
        vb = hv(i, j)/h(i, j)
        ut = hu(i, j+1)/h(i, j+1)
        vt = hv(i, j+1)/h(i, j+1)
        a = max(abs(vb) + sqrt(g*h(i, j)), abs(vt) + sqrt(g*h(i, j+1)))
        gh(i, j) = 0.5d0*(hv(i, j) + hv(i, j+1)) - 0.5d0*a*(h(i, j+1) - h(i, j))
        gu(i, j) = 0.5d0*(hv(i, j)*ub + hv(i, j+1)*ut) - 0.5d0*a*(hu(i, j+1) - hu(i, j))
        gv(i, j) = 0.5d0*(hv(i, j)*vb + 0.5d0*g*h(i, j)**2 &
                        + hv(i, j+1)*vt + 0.5d0*g*h(i, j+1)**2) &
                 - 0.5d0*a*(hv(i, j+1) - hv(i, j))
      end do
    end do
  end subroutine yfluxes

  ! The conservative update from the face fluxes, in place, then the
  ! Coriolis term as an exact rotation of (hu, hv) by f0*dt: cs and sn are
  ! its cosine and sine, so the rotation neither adds nor removes energy.
  subroutine advance(dt, cs, sn, h, hu, hv, fh, fu, fv, gh, gu, gv)
    real(dp), intent(in) :: dt, cs, sn
    real(dp), intent(inout) :: h(0:nx+1, 0:ny+1), hu(0:nx+1, 0:ny+1), hv(0:nx+1, 0:ny+1)
    real(dp), intent(in) :: fh(0:nx, 1:ny), fu(0:nx, 1:ny), fv(0:nx, 1:ny)
    real(dp), intent(in) :: gh(1:nx, 0:ny), gu(1:nx, 0:ny), gv(1:nx, 0:ny)
    real(dp) :: rx, ry, tu, tv
    integer :: i, j

    rx = dt/dx
    ry = dt/dy
    !$f2s stencil name(sw_advance) tune_size(1023, 1023)
    do j = 1, ny
      do i = 1, nx
        h(i, j) = h(i, j) - rx*(fh(i, j) - fh(i-1, j)) - ry*(gh(i, j) - gh(i, j-1))
        tu = hu(i, j) - rx*(fu(i, j) - fu(i-1, j)) - ry*(gu(i, j) - gu(i, j-1))
        tv = hv(i, j) - rx*(fv(i, j) - fv(i-1, j)) - ry*(gv(i, j) - gv(i, j-1))
        hu(i, j) = cs*tu + sn*tv
        hv(i, j) = cs*tv - sn*tu
      end do
    end do
  end subroutine advance

end module sw_dynamics
