! One explicit step of 2D linear advection dq/dt + v.grad q = 0 with
! first-order upwinding: each difference is taken on the side the velocity
! comes from, chosen per point from the sign of the local velocity (x with
! IF/ELSE, y with MERGE).
subroutine upwind(nx, ny, dt, dx, dy, vx, vy, q, qnew)
  implicit none
  integer, intent(in) :: nx, ny
  real(8), intent(in) :: dt, dx, dy
  real(8), intent(in) :: vx(0:nx+1, 0:ny+1), vy(0:nx+1, 0:ny+1), q(0:nx+1, 0:ny+1)
  real(8), intent(inout) :: qnew(0:nx+1, 0:ny+1)
  real(8) :: fx, fy
  integer :: i, j

  !$f2s stencil name(upwind2d)
  do j = 1, ny
    do i = 1, nx
      if (vx(i,j) > 0d0) then
        fx = vx(i,j)*(q(i,j) - q(i-1,j))
      else
        fx = vx(i,j)*(q(i+1,j) - q(i,j))
      end if
      fy = merge(vy(i,j)*(q(i,j) - q(i,j-1)), vy(i,j)*(q(i,j+1) - q(i,j)), vy(i,j) .gt. 0d0)
      qnew(i,j) = q(i,j) - dt*(fx/dx + fy/dy)
    end do
  end do
end subroutine upwind
