! CYCLE inside IF constructs, as ocean and atmosphere codes skip land or
! masked points: the rest of the loop body runs only on the paths that do
! not cycle (issue 38: lowered as written, the control flow in IFs).

! Land points set and skipped in an IF construct, then the update of the
! wet points below it.
subroutine cyc_land(nx, ny, kmt, t, tn)
  implicit none
  integer, intent(in) :: nx, ny, kmt(nx, ny)
  real(8), intent(in) :: t(nx, ny)
  real(8), intent(inout) :: tn(nx, ny)
  integer :: i, j
  !$f2s stencil name(cyc_a)
  do j = 2, ny - 1
    do i = 2, nx - 1
      if (kmt(i, j) == 0) then
        tn(i, j) = 0d0
        cycle
      end if
      tn(i, j) = t(i, j) + 0.1d0 * (t(i-1, j) + t(i+1, j) + t(i, j-1) + t(i, j+1) - 4d0 * t(i, j))
    end do
  end do
end subroutine cyc_land

! CYCLE in an ELSE IF branch after an IF (...) CYCLE, in an ELSE behind a
! nested IF construct, a temporary carried from before the construct into
! the rest; the first branch falls through.
subroutine cyc_branches(nx, ny, kmt, t, tn)
  implicit none
  integer, intent(in) :: nx, ny, kmt(nx, ny)
  real(8), intent(in) :: t(nx, ny)
  real(8), intent(inout) :: tn(nx, ny)
  integer :: i, j
  real(8) :: s
  !$f2s stencil name(cyc_b)
  do j = 2, ny - 1
    do i = 2, nx - 1
      s = t(i, j)
      if (kmt(i, j) == 1) then
        s = 2d0 * s
      else if (kmt(i, j) == 2) then
        tn(i, j) = -s
        if (t(i+1, j) > 0.5d0) cycle
        s = s + t(i, j-1)
      else
        if (t(i-1, j) < 0.25d0) then
          tn(i, j) = 1d0
          cycle
        else if (t(i, j+1) < 0.5d0) then
          s = s - 1d0
        end if
      end if
      tn(i, j) = s + t(i+1, j)
      if (s > 1.5d0) cycle
      tn(i, j) = tn(i, j) * 0.5d0
    end do
  end do
end subroutine cyc_branches

! A CYCLE among the statements an IF (...) GO TO skips: it skips the
! labelled statement too.
subroutine cyc_goto(nx, ny, kmt, t, tn)
  implicit none
  integer, intent(in) :: nx, ny, kmt(nx, ny)
  real(8), intent(in) :: t(nx, ny)
  real(8), intent(inout) :: tn(nx, ny)
  integer :: i, j
  !$f2s stencil name(cyc_c)
  do j = 2, ny - 1
    do i = 2, nx - 1
      if (kmt(i, j) == 3) go to 10
      if (t(i, j) > 0.75d0) cycle
      tn(i, j) = t(i-1, j)
10    tn(i, j) = tn(i, j) + t(i, j+1)
    end do
  end do
end subroutine cyc_goto
