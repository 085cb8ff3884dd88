! LOGICAL in a 2D kernel: LOGICAL temporaries, .TRUE./.FALSE., .EQV. and
! .NEQV. mixed with .AND./.OR./.NOT. (whose precedences C does not share), a
! LOGICAL named constant, and a LOGICAL dummy argument, which the library's
! module takes as the caller declares it.
subroutine wetdry(n, m, dry, upwind, h, u, hnew)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(in) :: dry
  logical, intent(in) :: upwind
  real(8), intent(in) :: h(0:n+1, 0:m+1), u(0:n+1, 0:m+1)
  real(8), intent(inout) :: hnew(0:n+1, 0:m+1)
  logical, parameter :: limit = .true.
  logical :: wet, east, flux
  integer :: i, j
  !$f2s stencil name(logical2d) tune_size(40, 30)
  do j = 1, m
    do i = 1, n
      wet = h(i,j) > 0.5d0
      east = u(i,j) >= 0.5d0 .eqv. upwind
      flux = .false.
      if (wet .neqv. east) flux = .true.
      if (flux .and. .not. (wet .eqv. .false.)) then
        hnew(i,j) = h(i,j) + 0.25d0*(h(i+1,j) - h(i-1,j))
      else if (flux .or. wet .eqv. u(i,j) > h(i,j) .and. limit) then
        hnew(i,j) = h(i,j-1)
      else if (wet .eqv. .not. upwind .neqv. east) then
        hnew(i,j) = -h(i,j)
      else
        hnew(i,j) = merge(dry, h(i,j+1), wet .or. upwind)
      end if
    end do
  end do
end subroutine wetdry
