! Red-black in (i,j), lexicographic in k: each colour sweeps the columns
! upward, every point reading the level below, already updated.
subroutine rb_lex(nx, ny, nz, colour, f, u)
  implicit none
  integer, intent(in) :: nx, ny, nz, colour
  real(8), intent(in) :: f(nx, ny, nz)
  real(8), intent(inout) :: u(0:nx+1, 0:ny+1, 0:nz+1)
  integer :: i, j, k
  !$f2s stencil name(rbk)
  do k = 1, nz
    do j = 1, ny
      do i = 1, nx
        if (mod(i + j + colour, 2) == 0) then
          u(i,j,k) = 0.2d0*(u(i-1,j,k) + u(i+1,j,k) + u(i,j-1,k) + u(i,j+1,k) + u(i,j,k-1)) + f(i,j,k)
        end if
      end do
    end do
  end do
end subroutine
