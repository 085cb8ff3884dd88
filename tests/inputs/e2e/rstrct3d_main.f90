program rstrct3d_check
  use f2s_rstrct3d, only: rstrct_k
  implicit none
  integer :: m1j = 20, m2j = 12, m3j = 7, m1k, m2k, m3k, d1, d2, d3
  real(8), allocatable :: r(:,:,:), s(:,:,:), ss(:,:,:)
  character(len=32) :: arg
  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) m1j
    call get_command_argument(2, arg); read (arg, *) m2j
    call get_command_argument(3, arg); read (arg, *) m3j
  end if
  ! The fine grid of 2*m - 1 points per axis (at least 3, as the coarsest
  ! level's 3 points take the other parity).
  m1k = max(2*m1j - 1, 3)
  m2k = max(2*m2j - 1, 3)
  m3k = max(2*m3j - 1, 3)
  allocate(r(m1k, m2k, m3k), s(m1j, m2j, m3j), ss(m1j, m2j, m3j))
  call random_number(r)
  call random_number(s)
  ss = s
  call rstrct(r, m1k, m2k, m3k, s, m1j, m2j, m3j)
  d1 = merge(2, 1, m1k == 3)
  d2 = merge(2, 1, m2k == 3)
  d3 = merge(2, 1, m3k == 3)
  call rstrct_k(r, m1k, m2k, m3k, ss, m1j, m2j, m3j, d1, d2, d3)
  print '(a, 3i6, a, i8)', 'rstrct3d', m1j, m2j, m3j, ': elements that differ ', count(s /= ss)
  if (any(s /= ss)) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program rstrct3d_check
