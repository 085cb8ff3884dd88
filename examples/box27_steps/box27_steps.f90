! A 27-point smoother run for many steps, as multigrid and image codes run
! it: the weights by distance class (centre, faces, edges, corners), the
! field smoothed from u into v and back each step, the faces of the box
! (never written) fixed.
subroutine smooth27(nx, ny, nz, nsteps, w0, w1, w2, w3, u, v)
  implicit none
  integer, intent(in) :: nx, ny, nz, nsteps
  real(8), intent(in) :: w0, w1, w2, w3
  real(8), intent(inout) :: u(0:nx+1, 0:ny+1, 0:nz+1), v(0:nx+1, 0:ny+1, 0:nz+1)
  integer :: i, j, k, n

  !$f2s stencil timesteps name(box27_steps) tune_size(96, 64, 48)
  do n = 1, nsteps
    do k = 1, nz
      do j = 1, ny
        do i = 1, nx
          v(i,j,k) = w0*u(i,j,k) &
                   + w1*(u(i-1,j,k) + u(i+1,j,k) + u(i,j-1,k) + u(i,j+1,k) + u(i,j,k-1) &
                         + u(i,j,k+1)) &
                   + w2*(u(i-1,j-1,k) + u(i+1,j-1,k) + u(i-1,j+1,k) + u(i+1,j+1,k) &
                         + u(i-1,j,k-1) + u(i+1,j,k-1) + u(i-1,j,k+1) + u(i+1,j,k+1) &
                         + u(i,j-1,k-1) + u(i,j+1,k-1) + u(i,j-1,k+1) + u(i,j+1,k+1)) &
                   + w3*(u(i-1,j-1,k-1) + u(i+1,j-1,k-1) + u(i-1,j+1,k-1) + u(i+1,j+1,k-1) &
                         + u(i-1,j-1,k+1) + u(i+1,j-1,k+1) + u(i-1,j+1,k+1) + u(i+1,j+1,k+1))
        end do
      end do
    end do
    do k = 1, nz
      do j = 1, ny
        do i = 1, nx
          u(i,j,k) = w0*v(i,j,k) &
                   + w1*(v(i-1,j,k) + v(i+1,j,k) + v(i,j-1,k) + v(i,j+1,k) + v(i,j,k-1) &
                         + v(i,j,k+1)) &
                   + w2*(v(i-1,j-1,k) + v(i+1,j-1,k) + v(i-1,j+1,k) + v(i+1,j+1,k) &
                         + v(i-1,j,k-1) + v(i+1,j,k-1) + v(i-1,j,k+1) + v(i+1,j,k+1) &
                         + v(i,j-1,k-1) + v(i,j+1,k-1) + v(i,j-1,k+1) + v(i,j+1,k+1)) &
                   + w3*(v(i-1,j-1,k-1) + v(i+1,j-1,k-1) + v(i-1,j+1,k-1) + v(i+1,j+1,k-1) &
                         + v(i-1,j-1,k+1) + v(i+1,j-1,k+1) + v(i-1,j+1,k+1) + v(i+1,j+1,k+1))
        end do
      end do
    end do
  end do
end subroutine smooth27
