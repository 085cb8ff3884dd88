! The cases of f2stencil --rewrite in free form: a subroutine with two
! regions (one under an OpenMP PARALLEL DO), a function, an internal
! procedure, an OpenMP parallel region that does more than the nest, and the
! main program. Prints one number per line; the rewritten program must print
! the same ones.
module grid_size
  implicit none
  integer, parameter :: nx = 37, ny = 23
end module grid_size

subroutine relax(u, f, r, h2)
  use grid_size
  implicit none
  real(8), intent(inout) :: u(0:nx+1, 0:ny+1)
  real(8), intent(in) :: f(0:nx+1, 0:ny+1)
  real(8), intent(inout) :: r(0:nx+1, 0:ny+1)
  real(8), intent(in) :: h2
  integer :: i, j
  ! Jacobi: the new values into r, then back into u.
  !$omp parallel do private(i) &
  !$omp& schedule(static)
  !$f2s stencil name(relax_jacobi)
  do j = 1, ny
    do i = 1, nx
      r(i, j) = 0.25d0*(u(i-1, j) + u(i+1, j) + u(i, j-1) + u(i, j+1) - h2*f(i, j))
    end do
  end do
  !$omp end parallel do
  !$f2s stencil name(relax_copy)
  do j = 1, ny
    do i = 1, nx
      u(i, j) = r(i, j)
    end do
  end do
end subroutine relax

function residual_norm(n, m, u, f, h2) result(norm)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(in) :: u(0:n+1, 0:m+1), f(0:n+1, 0:m+1), h2
  real(8) :: norm, acc
  integer :: i, j
  acc = 0d0
  !$f2s stencil name(resid_sum)
  do j = 1, m
    do i = 1, n
      acc = acc + (f(i, j) - (4d0*u(i, j) - u(i-1, j) - u(i+1, j) - u(i, j-1) - u(i, j+1))/h2)**2
    end do
  end do
  norm = sqrt(acc)
end function residual_norm

subroutine smooth_twice(n, m, u, w)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(inout) :: u(0:n+1, 0:m+1), w(0:n+1, 0:m+1)
  call half_step(u, w)
  call half_step(w, u)
contains
  subroutine half_step(a, b)
    real(8), intent(in) :: a(0:n+1, 0:m+1)
    real(8), intent(inout) :: b(0:n+1, 0:m+1)
    integer :: i, j
    !$f2s stencil name(half_step_avg)
    do j = 1, m
      do i = 1, n
        b(i, j) = 0.5d0*b(i, j) + 0.125d0*(a(i-1, j) + a(i+1, j) + a(i, j-1) + a(i, j+1))
      end do
    end do
  end subroutine half_step
end subroutine smooth_twice

subroutine scaled_update(n, m, c, u, v, total)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(in) :: c, u(0:n+1, 0:m+1)
  real(8), intent(inout) :: v(0:n+1, 0:m+1)
  real(8), intent(out) :: total
  integer :: i, j
  !$omp parallel private(i, j)
  !$omp single
  total = 0d0
  !$omp end single
  !$omp do
  !$f2s stencil name(scaled_lap)
  do j = 1, m
    do i = 1, n
      v(i, j) = v(i, j) + c*(u(i-1, j) + u(i+1, j) - 2d0*u(i, j))
    end do
  end do
  !$omp end do
  !$omp do reduction(+:total)
  do j = 1, m
    total = total + v(1, j)
  end do
  !$omp end do
  !$omp end parallel
end subroutine scaled_update

program rewrite_cases
  use grid_size
  implicit none
  real(8) :: u(0:nx+1, 0:ny+1), f(0:nx+1, 0:ny+1), r(0:nx+1, 0:ny+1)
  real(8) :: w(0:nx+1, 0:ny+1), v(0:nx+1, 0:ny+1)
  real(8) :: residual_norm, total
  integer :: i, j, it
  do j = 0, ny + 1
    do i = 0, nx + 1
      u(i, j) = 0.01d0*mod(7*i + 3*j, 11)
      w(i, j) = 0.02d0*mod(5*i + j, 7)
      v(i, j) = 0d0
      r(i, j) = 0d0
    end do
  end do
  !$f2s stencil name(init_rhs)
  do j = 0, ny + 1
    do i = 0, nx + 1
      f(i, j) = sin(0.1d0*i)*cos(0.2d0*j)
    end do
  end do
  do it = 1, 5
    call relax(u, f, r, 0.01d0)
  end do
  print '(es25.17)', residual_norm(nx, ny, u, f, 0.01d0)
  call smooth_twice(nx, ny, u, w)
  call scaled_update(nx, ny, 0.3d0, u, v, total)
  print '(es25.17)', total
  print '(es25.17)', sum(u), sum(w), sum(v), sum(r), sum(f)
  print '(es25.17)', u(3, 4), w(nx, ny), v(1, ny)
end program rewrite_cases
