! Routines that legacy codes call with one array in two argument positions
! (TARGET dummies, as such codes declare them).

! A pointwise logistic update, called in place as advance(.., f, f).
subroutine advance(nx, ny, dt, f, g)
  implicit none
  integer, intent(in) :: nx, ny
  real(8), intent(in) :: dt
  real(8), intent(in), target :: f(0:nx+1, 0:ny+1)
  real(8), intent(inout), target :: g(0:nx+1, 0:ny+1)
  integer :: i, j
  !$f2s stencil name(alias_step) tune_size(40, 30)
  do j = 1, ny
    do i = 1, nx
      g(i,j) = f(i,j) + dt*f(i,j)*(1.0d0 - f(i,j))
    end do
  end do
end subroutine advance

! A step that also records its increment, called in place as
! increment(.., f, f, e): the increment reads the new value through 'g', so
! a compiler told that 'f' and 'g' never alias keeps the old one (e = the
! update instead of 0).
subroutine increment(nx, ny, dt, f, g, e)
  implicit none
  integer, intent(in) :: nx, ny
  real(8), intent(in) :: dt
  real(8), intent(in), target :: f(0:nx+1, 0:ny+1)
  real(8), intent(inout), target :: g(0:nx+1, 0:ny+1), e(0:nx+1, 0:ny+1)
  integer :: i, j
  !$f2s stencil name(alias_incr) tune_size(40, 30)
  do j = 1, ny
    do i = 1, nx
      g(i,j) = f(i,j) + dt*f(i,j)*f(i,j)
      e(i,j) = g(i,j) - f(i,j)
    end do
  end do
end subroutine increment

! The residual r = v - A u of a 5-point Poisson operator, formed in place
! over the right-hand side as residual(.., u, r, r).
subroutine residual(nx, ny, h2, u, v, r)
  implicit none
  integer, intent(in) :: nx, ny
  real(8), intent(in) :: h2
  real(8), intent(in), target :: u(0:nx+1, 0:ny+1), v(0:nx+1, 0:ny+1)
  real(8), intent(inout), target :: r(0:nx+1, 0:ny+1)
  integer :: i, j
  !$f2s stencil name(alias_resid) tune_size(40, 30)
  do j = 1, ny
    do i = 1, nx
      r(i,j) = v(i,j) - (4.0d0*u(i,j) - u(i-1,j) - u(i+1,j) - u(i,j-1) - u(i,j+1))/h2
    end do
  end do
end subroutine residual

! A Jacobi average: called in place, each point would read neighbours that
! another point has already replaced, so the library must refuse the call.
subroutine average(nx, ny, f, g)
  implicit none
  integer, intent(in) :: nx, ny
  real(8), intent(in), target :: f(0:nx+1, 0:ny+1)
  real(8), intent(inout), target :: g(0:nx+1, 0:ny+1)
  integer :: i, j
  !$f2s stencil name(alias_smooth) tune_size(40, 30)
  do j = 1, ny
    do i = 1, nx
      g(i,j) = 0.25d0*(f(i-1,j) + f(i+1,j) + f(i,j-1) + f(i,j+1))
    end do
  end do
end subroutine average
