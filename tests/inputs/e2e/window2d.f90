! Smoothing filters whose radius the caller chooses at run time, as image,
! spectral-filter and sub-grid closure codes write them: the window is a DO
! loop inside the point, with the radius an argument.

! A weighted average along x: the point's sum runs over the window.
subroutine smooth_x(nx, ny, rad, wgt, q, qs)
  implicit none
  integer, intent(in) :: nx, ny, rad
  real(8), intent(in) :: wgt(-rad:rad), q(1-rad:nx+rad, ny)
  real(8), intent(inout) :: qs(nx, ny)
  integer :: i, j, l
  real(8) :: acc
  !$f2s stencil name(window_x)
  do j = 1, ny
    do i = 1, nx
      acc = 0d0
      do l = -rad, rad
        acc = acc + wgt(l) * q(i + l, j)
      end do
      qs(i, j) = acc
    end do
  end do
end subroutine smooth_x

! A box of (2*rad + 1)**2 weights added into the relaxed field itself.
subroutine smooth_box(nx, ny, rad, c, q, qs)
  implicit none
  integer, intent(in) :: nx, ny, rad
  real(8), intent(in) :: c(-rad:rad, -rad:rad), q(1-rad:nx+rad, 1-rad:ny+rad)
  real(8), intent(inout) :: qs(nx, ny)
  integer :: i, j, ii, jj
  !$f2s stencil name(window_box)
  do j = 1, ny
    do i = 1, nx
      qs(i, j) = 0.5d0 * qs(i, j)
      do jj = -rad, rad
        do ii = -rad, rad
          qs(i, j) = qs(i, j) + c(ii, jj) * q(i + ii, j + jj)
        end do
      end do
    end do
  end do
end subroutine smooth_box

! A damped central difference along y, outermost lag first: the order of
! the window matters to the rounding.
subroutine damp_y(nx, ny, rad, q, qd)
  implicit none
  integer, intent(in) :: nx, ny, rad
  real(8), intent(in) :: q(1-rad:nx+rad, 1-rad:ny+rad)
  real(8), intent(inout) :: qd(nx, ny)
  integer :: i, j, l
  real(8) :: acc
  !$f2s stencil name(window_damp)
  do j = 1, ny
    do i = 1, nx
      acc = q(i, j)
      do l = rad, 1, -1
        acc = 0.5d0 * acc + dble(l) * (q(i, j + l) - q(i, j - l))
      end do
      qd(i, j) = acc
    end do
  end do
end subroutine damp_y

! A band three rows high, the rows unrolled and each row's window a loop.
subroutine smooth_band(nx, ny, rad, qb, qs)
  implicit none
  integer, intent(in) :: nx, ny, rad
  real(8), intent(in) :: qb(1-rad:nx+rad, 0:ny+1)
  real(8), intent(inout) :: qs(nx, ny)
  integer :: i, j, ii, jj
  real(8) :: acc
  !$f2s stencil name(window_band)
  do j = 1, ny
    do i = 1, nx
      acc = qs(i, j)
      do jj = -1, 1
        do ii = -rad, rad
          acc = acc + qb(i + ii, j + jj) / dble(2 + abs(jj))
        end do
      end do
      qs(i, j) = acc
    end do
  end do
end subroutine smooth_band
