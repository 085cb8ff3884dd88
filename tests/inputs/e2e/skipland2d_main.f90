program skipland2d_check
  use f2s_skipland2d, only: clinic_k, climsk_k
  implicit none
  integer :: n = 50, m = 20, k = 3
  integer, allocatable :: kmt(:,:)
  real, allocatable :: u(:,:), uu(:,:), uold(:,:), w(:,:), ww(:,:), fcor(:), r(:,:)
  character(len=32) :: arg
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) n
    call get_command_argument(2, arg); read (arg, *) m
  end if
  allocate(kmt(n, m), u(n, m), uu(n, m), uold(n, m), w(n, m), ww(n, m), fcor(m), r(n, m))
  call random_number(r)
  kmt = int(6*r)
  call random_number(u)
  call random_number(uold)
  call random_number(w)
  call random_number(fcor)
  uu = u
  ww = w
  call clinic(n, m, k, kmt, u, uold, w, fcor, 0.1)
  call clinic_k(n, m, k, kmt, uu, uold, ww, fcor, 0.1)
  call climsk(n, m, k, kmt, u, uold)
  call climsk_k(n, m, k, kmt, uu, uold)
  print '(a, 2i6, a, 2i8)', 'skipland2d', n, m, ': elements that differ ', count(u /= uu), &
    count(w /= ww)
  if (any(u /= uu) .or. any(w /= ww)) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program skipland2d_check
