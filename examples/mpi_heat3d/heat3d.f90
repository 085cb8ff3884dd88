! One explicit step of 3D heat diffusion on one rank's block (owned cells
! 1..nx, 1..ny, 1..nz; one halo cell on every side), and the largest change
! of a cell, for a convergence test.
subroutine heat_step(nx, ny, nz, alpha, u, unew, change)
  implicit none
  integer, intent(in) :: nx, ny, nz
  real(8), intent(in) :: alpha
  real(8), intent(in) :: u(0:nx+1, 0:ny+1, 0:nz+1)
  real(8), intent(inout) :: unew(0:nx+1, 0:ny+1, 0:nz+1)
  real(8), intent(inout) :: change
  integer :: i, j, k
  !$f2s stencil name(heat) tune_size(96, 96, 96)
  do k = 1, nz
    do j = 1, ny
      do i = 1, nx
        unew(i, j, k) = u(i, j, k) + alpha*(u(i-1, j, k) + u(i+1, j, k) + u(i, j-1, k) &
                        + u(i, j+1, k) + u(i, j, k-1) + u(i, j, k+1) - 6.0d0*u(i, j, k))
        change = max(change, abs(unew(i, j, k) - u(i, j, k)))
      end do
    end do
  end do
end subroutine heat_step

! The same step with the 27-point (isotropic) Laplacian: faces weighted 14,
! edges 3, corners 1, the cell -128, over 30. A box stencil: the exchange
! moves edges and corners too.
subroutine heat_step27(nx, ny, nz, alpha, u, unew, change)
  implicit none
  integer, intent(in) :: nx, ny, nz
  real(8), intent(in) :: alpha
  real(8), intent(in) :: u(0:nx+1, 0:ny+1, 0:nz+1)
  real(8), intent(inout) :: unew(0:nx+1, 0:ny+1, 0:nz+1)
  real(8), intent(inout) :: change
  integer :: i, j, k
  !$f2s stencil name(heat27) tune_size(96, 96, 96)
  do k = 1, nz
    do j = 1, ny
      do i = 1, nx
        unew(i, j, k) = u(i, j, k) + alpha*(14.0d0*(u(i-1, j, k) + u(i+1, j, k) + u(i, j-1, k) &
                          + u(i, j+1, k) + u(i, j, k-1) + u(i, j, k+1)) &
                        + 3.0d0*(u(i-1, j-1, k) + u(i+1, j-1, k) + u(i-1, j+1, k) + u(i+1, j+1, k) &
                          + u(i-1, j, k-1) + u(i+1, j, k-1) + u(i, j-1, k-1) + u(i, j+1, k-1) &
                          + u(i-1, j, k+1) + u(i+1, j, k+1) + u(i, j-1, k+1) + u(i, j+1, k+1)) &
                        + (u(i-1, j-1, k-1) + u(i+1, j-1, k-1) + u(i-1, j+1, k-1) &
                          + u(i+1, j+1, k-1) + u(i-1, j-1, k+1) + u(i+1, j-1, k+1) &
                          + u(i-1, j+1, k+1) + u(i+1, j+1, k+1)) - 128.0d0*u(i, j, k))/30.0d0
        change = max(change, abs(unew(i, j, k) - u(i, j, k)))
      end do
    end do
  end do
end subroutine heat_step27
