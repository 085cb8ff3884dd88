subroutine sub3(nx, alpha, m, s31, fmodf, h3, p3, q3)
  implicit none
  integer, intent(in) :: nx
  real(8), intent(in) :: alpha
  integer, intent(in) :: m
  real(4), intent(inout) :: s31
  real(8), intent(inout) :: fmodf(-1:nx + 2)
  real(8), intent(inout) :: h3(0:)
  real(8), intent(inout) :: p3(-1:nx + 1)
  integer, intent(in) :: q3(-1:nx + 2)
  integer :: it
  logical :: lt
  real(8) :: t1
  real(8) :: t2
  real(4) :: t3
  integer :: i
  !$f2s stencil name(k5) tune_size(9)
  do i = 1, nx
    if (alpha - 0.75_8 < i*0.7 .neqv. i*1.25 /= i*.5d0 .and. .true.) then
    else
      if (sign(i*0.1, i*2.0_4) <= max(alpha, p3(i))) then
        t3 = mod(m / 3 / (1.25 + abs(sin(i*1.25))), 1.25 + abs(i*0.7))
      else
      end if
    end if
    t2 = fmodf(i-1)
    h3(i) = 1.25 + fmodf(i) * i*2.0_4 - (-(t2 - t2))
    p3(i) = alpha
  end do
end subroutine sub3

