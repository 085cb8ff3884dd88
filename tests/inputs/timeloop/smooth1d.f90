! A column model's vertical smoother stepped in time: the profile over
! 0:n+1 (fixed end values), smoothed into a work array, the interior copied
! back each step.
subroutine smooth1d(n, nsteps, w, q, qw)
  implicit none
  integer, intent(in) :: n, nsteps
  real(8), intent(in) :: w
  real(8), intent(inout) :: q(0:n+1), qw(0:n+1)
  integer :: i, k

  !$f2s stencil timesteps name(smooth_steps)
  do k = 1, nsteps
    do i = 1, n
      qw(i) = q(i) + w*(q(i-1) - 2d0*q(i) + q(i+1))
    end do
    do i = 1, n
      q(i) = qw(i)
    end do
  end do
end subroutine smooth1d
