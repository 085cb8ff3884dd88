! First-order upwind advection of a tracer in a sheared channel flow: the
! along-channel velocity is a profile across the channel, uprof(j), the
! cross-channel one a profile along it, vprof(i).
module advect_kinds
  implicit none
  integer, parameter :: dp = kind(1.d0)
end module advect_kinds

subroutine upwind_step(nx, ny, dt, dx, dy, uprof, vprof, q, qn)
  use advect_kinds
  implicit none
  integer, intent(in) :: nx, ny
  real(dp), intent(in) :: dt, dx, dy
  real(dp), intent(in) :: uprof(ny), vprof(nx)
  real(dp), intent(in) :: q(0:nx+1, 0:ny+1)
  real(dp), intent(inout) :: qn(0:nx+1, 0:ny+1)
  integer :: i, j
  real(dp) :: up, um, vp, vm, cfl

!$omp parallel do private(i, up, um, vp, vm, cfl) schedule(static)
  !$f2s stencil name(b04_upwind)
  do j = 1, ny
    do i = 1, nx
      up = max(uprof(j), 0.0_dp)
      um = min(uprof(j), 0.0_dp)
      vp = 0.5_dp*(vprof(i) + abs(vprof(i)))
      vm = 0.5_dp*(vprof(i) - abs(vprof(i)))
      cfl = dt*(abs(uprof(j))/dx + abs(vprof(i))/dy)
      qn(i,j) = q(i,j) - dt/dx*(up*(q(i,j) - q(i-1,j)) + um*(q(i+1,j) - q(i,j))) &
              - dt/dy*(vp*(q(i,j) - q(i,j-1)) + vm*(q(i,j+1) - q(i,j)))
      if (cfl > 1.0_dp) qn(i,j) = sign(min(abs(qn(i,j)), abs(q(i,j))), qn(i,j))
    end do
  end do
!$omp end parallel do
end subroutine upwind_step
