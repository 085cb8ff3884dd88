! The stress half-step of a 2D elastic velocity-stress scheme on a staggered
! grid, as seismic codes write it: the Lame coefficients vary from point to
! point, the absorbing layer's damping is given as 1D profiles along x and y
! (dampx(i), dampy(j)), and the fourth-order difference weights sit in a small
! array read at constant subscripts (w(1), w(2)).
subroutine stress_update(nx, ny, dt, rdx, rdy, w, dampx, dampy, lam, mu, vx, vy, &
                         sxx, syy, sxy)
  implicit none
  integer, intent(in) :: nx, ny
  real(8), intent(in) :: dt, rdx, rdy
  real(8), intent(in) :: w(2), dampx(nx), dampy(-1:ny+2)
  real(8), intent(in) :: lam(nx, ny), mu(nx, ny)
  real(8), intent(in) :: vx(-1:nx+2, -1:ny+2), vy(-1:nx+2, -1:ny+2)
  real(8), intent(inout) :: sxx(nx, ny), syy(nx, ny), sxy(nx, ny)
  real(8) :: dvxdx, dvydy, dvxdy, dvydx, l2m, decay
  integer :: i, j

  !$f2s stencil name(stress2d)
  do j = 1, ny
    do i = 1, nx
      dvxdx = rdx*(w(1)*(vx(i, j) - vx(i-1, j)) + w(2)*(vx(i+1, j) - vx(i-2, j)))
      dvydy = rdy*(w(1)*(vy(i, j) - vy(i, j-1)) + w(2)*(vy(i, j+1) - vy(i, j-2)))
      dvxdy = rdy*(w(1)*(vx(i, j+1) - vx(i, j)) + w(2)*(vx(i, j+2) - vx(i, j-1)))
      dvydx = rdx*(w(1)*(vy(i+1, j) - vy(i, j)) + w(2)*(vy(i+2, j) - vy(i-1, j)))
      l2m = lam(i, j) + 2.0d0*mu(i, j)
      decay = 1.0d0/(1.0d0 + dt*(dampx(i) + dampy(j)))
      sxx(i, j) = decay*(sxx(i, j) + dt*(l2m*dvxdx + lam(i, j)*dvydy))
      syy(i, j) = decay*(syy(i, j) + dt*(lam(i, j)*dvxdx + l2m*dvydy))
      sxy(i, j) = decay*(sxy(i, j) + dt*mu(i, j)*(dvxdy + dvydx)) &
                * (1.0d0 - 0.25d0*dt*(dampy(j+1) - dampy(j-1)))
    end do
  end do
end subroutine stress_update
