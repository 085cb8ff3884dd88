! The discrete L2 norm of a Poisson residual, returned by the function that
! computes it: the sum is accumulated into the function result, typed by
! the FUNCTION statement.
real(8) function resnorm(nx, ny, h2, u, f)
  implicit none
  integer, intent(in) :: nx, ny
  real(8), intent(in) :: h2, u(0:nx+1, 0:ny+1), f(nx, ny)
  integer :: i, j
  real(8) :: r
  resnorm = 0d0
  !$f2s stencil name(b14_fnorm)
  do j = 1, ny
    do i = 1, nx
      r = f(i,j) - (4d0*u(i,j) - u(i-1,j) - u(i+1,j) - u(i,j-1) - u(i,j+1))/h2
      resnorm = resnorm + r*r
    end do
  end do
  resnorm = sqrt(resnorm)
end function resnorm
