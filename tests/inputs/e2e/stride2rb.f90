! Red-black Gauss-Seidel for the 2D Poisson equation written with the
! stride-2 inner loop: each colour's points are visited directly.
subroutine rbsweep(nx, ny, color, h2, f, u)
  implicit none
  integer, intent(in) :: nx, ny, color
  real(8), intent(in) :: h2, f(0:nx+1, 0:ny+1)
  real(8), intent(inout) :: u(0:nx+1, 0:ny+1)
  integer :: i, j
  !$f2s stencil name(stride2rb) tune_size(40, 30)
  do j = 1, ny
    do i = 1 + mod(j + color, 2), nx, 2
      u(i,j) = 0.25d0*(h2*f(i,j) + u(i-1,j) + u(i+1,j) + u(i,j-1) + u(i,j+1))
    end do
  end do
end subroutine rbsweep
