! Column work to a depth that varies from point to point, as ocean models
! write it over a sea floor: kmt(i, j) is the number of wet levels of column
! (i, j), 0 on land. Each point runs a DO loop over its own levels, bounded
! by the array element, by a temporary set from it, or counting down from it.

! Vertical integral of a tracer over the wet levels: the bound is the element.
subroutine heat_content(nx, ny, nz, kmt, dz, t, hc)
  implicit none
  integer, intent(in) :: nx, ny, nz, kmt(nx, ny)
  real(8), intent(in) :: dz(nz), t(nx, ny, nz)
  real(8), intent(out) :: hc(nx, ny)
  integer :: i, j, k
  real(8) :: acc
  !$f2s stencil name(col_heat)
  do j = 1, ny
    do i = 1, nx
      acc = 0d0
      do k = 1, kmt(i, j)
        acc = acc + dz(k) * t(i, j, k)
      end do
      hc(i, j) = acc
    end do
  end do
end subroutine heat_content

! Clipping of negative tracer in an (i, k, j) layout, to the depth a
! temporary holds (never below the grid's last level), with a bottom value
! written at the point's last wet level.
subroutine clip_tracer(nx, ny, nz, kmt, qmin, q, qbot)
  implicit none
  integer, intent(in) :: nx, ny, nz, kmt(nx, ny)
  real(8), intent(in) :: qmin
  real(8), intent(inout) :: q(nx, nz, ny)
  real(8), intent(out) :: qbot(nx, ny)
  integer :: i, j, k, kbot
  !$f2s stencil name(col_clip)
  do j = 1, ny
    do i = 1, nx
      kbot = min(kmt(i, j), nz)
      qbot(i, j) = 0d0
      do k = 1, kbot
        q(i, k, j) = max(q(i, k, j), qmin)
        qbot(i, j) = q(i, k, j)
      end do
    end do
  end do
end subroutine clip_tracer

! Pressure from the bottom up: the loop counts down from the point's floor,
! a recurrence whose order the result keeps, bit for bit.
subroutine bottom_up(nx, ny, nz, kmt, rho, dz, p, pbot)
  implicit none
  integer, intent(in) :: nx, ny, nz, kmt(nx, ny)
  real(8), intent(in) :: rho(nx, ny, nz), dz(nz)
  real(8), intent(inout) :: p(nx, ny, nz)
  real(8), intent(out) :: pbot(nx, ny)
  integer :: i, j, k
  real(8) :: acc
  !$f2s stencil name(col_up)
  do j = 1, ny
    do i = 1, nx
      acc = 0.25d0
      do k = kmt(i, j), 1, -1
        acc = 0.5d0 * acc + rho(i, j, k) * dz(k)
        p(i, j, k) = acc
      end do
      pbot(i, j) = acc
    end do
  end do
end subroutine bottom_up

! Mixed-layer average to a depth chosen under an IF: the whole wet column
! where the surface is unstable, else the top levels above a mixing depth
! no deeper than the column.
subroutine mixed_layer(nx, ny, nz, kmt, kmix, buoy, t, tml)
  implicit none
  integer, intent(in) :: nx, ny, nz, kmix, kmt(nx, ny)
  real(8), intent(in) :: buoy(nx, ny), t(nx, ny, nz)
  real(8), intent(out) :: tml(nx, ny)
  integer :: i, j, k, kml
  real(8) :: acc
  !$f2s stencil name(col_mix)
  do j = 1, ny
    do i = 1, nx
      if (buoy(i, j) < 0.5d0) then
        kml = kmt(i, j)
      else
        kml = min(kmix, kmt(i, j))
      end if
      acc = 0d0
      do k = 1, kml
        acc = acc + t(i, j, k)
      end do
      tml(i, j) = acc / dble(max(kml, 1))
    end do
  end do
end subroutine mixed_layer
