! The 27-point box of Zhang and Mueller (CGO 2012), Table 1: every point of the
! 3x3x3 cube around the output point, weighted by its distance class: c0 for
! the centre, c1 for the 6 faces, c2 for the 12 edges, c3 for the 8 corners.
! Each class is summed first and scaled once: 30 flops per point.
subroutine stencil27(nx, ny, nz, c0, c1, c2, c3, a, b)
  implicit none
  integer, intent(in) :: nx, ny, nz
  real(8), intent(in) :: c0, c1, c2, c3
  real(8), intent(in) :: a(0:nx+1, 0:ny+1, 0:nz+1)
  real(8), intent(inout) :: b(0:nx+1, 0:ny+1, 0:nz+1)
  real(8) :: faces, edges, corners
  integer :: i, j, k

  !$f2s stencil name(box27)
  do k = 1, nz
    do j = 1, ny
      do i = 1, nx
        faces = a(i-1,j,k) + a(i+1,j,k) + a(i,j-1,k) + a(i,j+1,k) + a(i,j,k-1) + a(i,j,k+1)
        edges = a(i-1,j-1,k) + a(i-1,j+1,k) + a(i+1,j-1,k) + a(i+1,j+1,k) &
              + a(i-1,j,k-1) + a(i-1,j,k+1) + a(i+1,j,k-1) + a(i+1,j,k+1) &
              + a(i,j-1,k-1) + a(i,j-1,k+1) + a(i,j+1,k-1) + a(i,j+1,k+1)
        corners = a(i-1,j-1,k-1) + a(i-1,j-1,k+1) + a(i-1,j+1,k-1) + a(i-1,j+1,k+1) &
                + a(i+1,j-1,k-1) + a(i+1,j-1,k+1) + a(i+1,j+1,k-1) + a(i+1,j+1,k+1)
        b(i,j,k) = c0*a(i,j,k) + c1*faces + c2*edges + c3*corners
      end do
    end do
  end do
end subroutine stencil27
