! One half-sweep of red-black Gauss-Seidel for the variable-coefficient
! Poisson equation -div(a grad u) = f in 3D, in place. The colour test lets
! f2stencil prove the sweep parallel: a point of colour `color` is updated
! from its six neighbours, which all have the other colour and are not
! written in this half-sweep.
subroutine gsrb(nx, ny, nz, color, h2, a, f, u)
  implicit none
  integer, intent(in) :: nx, ny, nz, color
  real(8), intent(in) :: h2
  real(8), intent(in) :: a(0:nx+1, 0:ny+1, 0:nz+1), f(0:nx+1, 0:ny+1, 0:nz+1)
  real(8), intent(inout) :: u(0:nx+1, 0:ny+1, 0:nz+1)
  real(8) :: diag
  integer :: i, j, k

  !$f2s stencil name(gsrb3d)
  do k = 1, nz
    do j = 1, ny
      do i = 1, nx
        if (mod(i + j + k + color, 2) == 0) then
          diag = a(i-1,j,k) + a(i+1,j,k) + a(i,j-1,k) + a(i,j+1,k) + a(i,j,k-1) + a(i,j,k+1)
          u(i,j,k) = (h2*f(i,j,k) + a(i-1,j,k)*u(i-1,j,k) + a(i+1,j,k)*u(i+1,j,k) &
                   + a(i,j-1,k)*u(i,j-1,k) + a(i,j+1,k)*u(i,j+1,k) &
                   + a(i,j,k-1)*u(i,j,k-1) + a(i,j,k+1)*u(i,j,k+1)) / diag
        end if
      end do
    end do
  end do
end subroutine gsrb
