! A weighted 9-point Jacobi smoother run for many iterations, as image and
! multigrid codes write it: the weights by distance from the centre (the
! point, its four edge neighbours, its four corners) passed in, the field
! smoothed from u into v and back each iteration (a ping-pong, so the
! result is in u after every iteration), each sweep under an OpenMP
! PARALLEL DO. The boundary rows and columns are read, never written.
subroutine jacobi9(nx, ny, niter, wc, we, wd, u, v)
  implicit none
  integer, intent(in) :: nx, ny, niter
  real(8), intent(in) :: wc, we, wd
  real(8), intent(inout) :: u(0:nx+1, 0:ny+1), v(0:nx+1, 0:ny+1)
  integer :: i, j, iter

  !$f2s stencil timesteps name(jacobi9_steps) tune_size(120, 90)
  do iter = 1, niter
    !$omp parallel do private(i)
    do j = 1, ny
      do i = 1, nx
        v(i, j) = wc*u(i, j) &
                + we*(u(i-1, j) + u(i+1, j) + u(i, j-1) + u(i, j+1)) &
                + wd*(u(i-1, j-1) + u(i+1, j-1) + u(i-1, j+1) + u(i+1, j+1))
      end do
    end do
    !$omp end parallel do
    !$omp parallel do private(i)
    do j = 1, ny
      do i = 1, nx
        u(i, j) = wc*v(i, j) &
                + we*(v(i-1, j) + v(i+1, j) + v(i, j-1) + v(i, j+1)) &
                + wd*(v(i-1, j-1) + v(i+1, j-1) + v(i-1, j+1) + v(i+1, j+1))
      end do
    end do
    !$omp end parallel do
  end do
end subroutine jacobi9
