! Two pairs of single-precision POINTER buffers swapped in one step: p and
! q before the first sweep, r and s after the second, with an EXIT between
! the sweeps, so that a step may end with one pair swapped and not the
! other. Every buffer has bounds of its own.
module pair_fields
  implicit none
  real(4), pointer :: p(:), q(:), r(:), s(:), t1(:), t2(:)
end module pair_fields

subroutine advance(n, nt, stop_at)
  use pair_fields
  implicit none
  integer, intent(in) :: n, nt, stop_at
  integer :: i, it

  !$f2s stencil timesteps name(pair_steps) tune_size(1000)
  do it = 1, nt
    t1 => p
    p => q
    q => t1
    do i = 1, n
      q(i) = 0.5*(p(i-1) + p(i+1)) + r(i)
    end do
    if (it == stop_at) exit
    do i = 1, n
      s(i) = r(i) + 0.1*q(i)
    end do
    t2 => r
    r => s
    s => t2
  end do
end subroutine advance
