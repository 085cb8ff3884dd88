! The Jacobi step of a block-tridiagonal (ADI-style) sweep over five
! components, as BT-like codes write it: per point, a 5x5 matrix and a
! vector filled in small local work arrays by DO loops of constant bounds,
! then their product; the neighbours come from the previous iterate, so the
! points are independent and the work arrays are each point's own. A second
! region sums a matrix row per component into a work array, limits it under
! an IF and reads an element of another component.
subroutine btri(nx, ny, uold, rhs, a, u, f)
  implicit none
  integer, parameter :: nc = 5
  integer, intent(in) :: nx, ny
  real(8), intent(in) :: uold(nc, nx, ny), rhs(nc, nx, ny), a(nc, nc, nx, ny)
  real(8), intent(inout) :: u(nc, nx, ny), f(nc, nx, ny)
  real(8) :: tv(nc), tmat(nc, nc), w(nc)
  integer :: i, j, m, n

  !$f2s stencil name(btri_jacobi) tune_size(40, 30)
  do j = 2, ny - 1
    do i = 2, nx - 1
      do n = 1, nc
        do m = 1, nc
          tmat(m, n) = a(m, n, i, j) * 0.5d0
        end do
        tmat(n, n) = tmat(n, n) + 1.0d0
      end do
      do m = 1, nc
        tv(m) = rhs(m, i, j) + 0.25d0 * (uold(m, i-1, j) + uold(m, i+1, j) &
                                         + uold(m, i, j-1) + uold(m, i, j+1))
      end do
      do m = 1, nc
        u(m, i, j) = 0.0d0
        do n = 1, nc
          u(m, i, j) = u(m, i, j) + tmat(m, n) * tv(n)
        end do
      end do
    end do
  end do

  !$f2s stencil name(btri_limit) tune_size(40, 30)
  do j = 1, ny
    do i = 1, nx
      do m = 1, nc
        w(m) = 0.0d0
        do n = 1, nc
          w(m) = w(m) + a(m, n, i, j) * u(n, i, j)
        end do
        if (w(m) > 1.0d0) w(m) = 1.0d0
      end do
      do m = 1, nc
        f(m, i, j) = w(m) - 0.5d0 * w(1)
      end do
    end do
  end do
end subroutine btri
