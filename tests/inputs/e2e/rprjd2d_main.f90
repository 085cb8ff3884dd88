program rprjd2d_check
  use f2s_rprjd2d, only: rprj2
  implicit none
  integer :: m1 = 33, m2 = 18, n1, n2, d1, d2
  real(8), allocatable :: r(:,:), s(:,:), t(:,:)
  character(len=32) :: arg
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) m1
    call get_command_argument(2, arg); read (arg, *) m2
  end if
  ! The coarse grid of an odd fine size m is (m + 1)/2 + ... as the caller
  ! of an NPB-style restriction computes it: offset 2 for odd, 1 for even.
  d1 = merge(2, 1, mod(m1, 2) == 1)
  d2 = merge(2, 1, mod(m2, 2) == 1)
  n1 = (m1 + d1 - 1)/2 + 1
  n2 = (m2 + d2 - 1)/2 + 1
  allocate(r(m1, m2), s(n1, n2), t(n1, n2))
  call random_number(r)
  call random_number(s)
  t = s
  call restrict2d(m1, m2, n1, n2, d1, d2, r, s)
  call rprj2(m1, m2, n1, n2, d1, d2, r, t)
  print '(a, 6i6, a, i8)', 'rprjd2d', m1, m2, n1, n2, d1, d2, ': elements that differ ', &
    count(s /= t)
  if (any(s /= t)) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program rprjd2d_check
