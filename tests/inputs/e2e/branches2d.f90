! A 2D kernel with branches: IF/ELSE IF/ELSE, a one-line IF, MERGE, every
! comparison in both spellings, .and./.or./.not., the intrinsics SIGN, LOG
! and MOD (on integers and reals), an integer switch read only by the point,
! and two output grids.
subroutine branches(n, m, mode, w, a, c, b, d)
  implicit none
  integer, intent(in) :: n, m, mode
  real(8), intent(in) :: w
  real(8), intent(in) :: a(0:n+1, 0:m+1), c(0:n+1, 0:m+1)
  real(8), intent(inout) :: b(0:n+1, 0:m+1), d(0:n+1, 0:m+1)
  real(8) :: t, s
  integer :: i, j
  !$f2s stencil name(branches2d) tune_size(40, 30)
  do j = 1, m
    do i = 1, n
      s = a(i,j) - 0.5d0
      if (s .lt. -0.25d0 .and. .not. (mod(i, 3) == 0)) then
        t = sign(log(a(i,j) + 1d-3), s) + min(a(i-1,j), c(i,j))
      else if (s <= 0d0 .or. mod(i + j + mode, 4) .eq. 2) then
        t = mod(a(i+1,j) + 2d0, 0.75d0) * w
      else if (s > 0.3d0 .and. c(i,j) >= 0.5d0) then
        t = max(a(i,j-1), a(i,j+1), sign(1d0, c(i,j) - 0.5d0))
      else
        t = sqrt(a(i,j)) - abs(s)
      end if
      b(i,j) = merge(t, -t, c(i,j) .ge. 0.25d0 .or. i /= j)
      d(i,j) = 0d0
      if (t .gt. 0.5d0 .and. c(i,j) .ne. a(i,j) .and. mode .le. 3) d(i,j) = exp(-t) + sign(2, mode - j)
    end do
  end do
end subroutine branches
