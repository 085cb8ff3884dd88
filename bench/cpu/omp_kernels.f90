! What a user writes by hand to parallelise the three operators of Kamil et al.
! with OpenMP: the examples' loop nests with one `parallel do` on the
! outermost loop, static schedule, and arrays first touched by the same loop
! structure so that each thread's planes live on its own NUMA node.
module omp_kernels
  implicit none
  private
  public :: first_touch, omp_laplacian, omp_divergence, omp_gradient

contains

  ! Fills a(0:n+1, 0:n+1, 0:n+1) with nonzero, non-uniform values. Planes
  ! 1..n are written by the threads that will compute them (the kernels'
  ! k loop, same static schedule); the two halo planes are written after.
  subroutine first_touch(n, salt, a)
    integer, intent(in) :: n
    real(8), intent(in) :: salt
    real(8), intent(inout) :: a(0:n+1, 0:n+1, 0:n+1)
    integer :: i, j, k

    !$omp parallel do schedule(static)
    do k = 1, n
      do j = 0, n + 1
        do i = 0, n + 1
          a(i,j,k) = value(i, j, k)
        end do
      end do
    end do
    !$omp end parallel do
    do k = 0, n + 1, n + 1
      do j = 0, n + 1
        do i = 0, n + 1
          a(i,j,k) = value(i, j, k)
        end do
      end do
    end do
  contains
    pure real(8) function value(i, j, k)
      integer, intent(in) :: i, j, k
      value = salt + 0.01d0*mod(7*i + 13*j + 29*k, 97)
    end function value
  end subroutine first_touch

  subroutine omp_laplacian(nx, ny, nz, alpha, beta, u, unew)
    integer, intent(in) :: nx, ny, nz
    real(8), intent(in) :: alpha, beta
    real(8), intent(in) :: u(0:nx+1, 0:ny+1, 0:nz+1)
    real(8), intent(inout) :: unew(0:nx+1, 0:ny+1, 0:nz+1)
    integer :: i, j, k

    !$omp parallel do schedule(static)
    do k = 1, nz
      do j = 1, ny
        do i = 1, nx
          unew(i,j,k) = alpha*u(i,j,k) + beta*(u(i+1,j,k) + u(i-1,j,k) + u(i,j+1,k) &
                      + u(i,j-1,k) + u(i,j,k+1) + u(i,j,k-1))
        end do
      end do
    end do
    !$omp end parallel do
  end subroutine omp_laplacian

  subroutine omp_divergence(nx, ny, nz, alpha, beta, gamma, x, y, z, u)
    integer, intent(in) :: nx, ny, nz
    real(8), intent(in) :: alpha, beta, gamma
    real(8), intent(in) :: x(0:nx+1, 0:ny+1, 0:nz+1), y(0:nx+1, 0:ny+1, 0:nz+1)
    real(8), intent(in) :: z(0:nx+1, 0:ny+1, 0:nz+1)
    real(8), intent(inout) :: u(0:nx+1, 0:ny+1, 0:nz+1)
    integer :: i, j, k

    !$omp parallel do schedule(static)
    do k = 1, nz
      do j = 1, ny
        do i = 1, nx
          u(i,j,k) = alpha*(x(i+1,j,k) - x(i-1,j,k)) + beta*(y(i,j+1,k) - y(i,j-1,k)) &
                   + gamma*(z(i,j,k+1) - z(i,j,k-1))
        end do
      end do
    end do
    !$omp end parallel do
  end subroutine omp_divergence

  subroutine omp_gradient(nx, ny, nz, alpha, beta, gamma, u, x, y, z)
    integer, intent(in) :: nx, ny, nz
    real(8), intent(in) :: alpha, beta, gamma
    real(8), intent(in) :: u(0:nx+1, 0:ny+1, 0:nz+1)
    real(8), intent(inout) :: x(0:nx+1, 0:ny+1, 0:nz+1), y(0:nx+1, 0:ny+1, 0:nz+1)
    real(8), intent(inout) :: z(0:nx+1, 0:ny+1, 0:nz+1)
    integer :: i, j, k

    !$omp parallel do schedule(static)
    do k = 1, nz
      do j = 1, ny
        do i = 1, nx
          x(i,j,k) = alpha*(u(i+1,j,k) - u(i-1,j,k))
          y(i,j,k) = beta*(u(i,j+1,k) - u(i,j-1,k))
          z(i,j,k) = gamma*(u(i,j,k+1) - u(i,j,k-1))
        end do
      end do
    end do
    !$omp end parallel do
  end subroutine omp_gradient
end module omp_kernels
