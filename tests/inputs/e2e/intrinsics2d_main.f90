program intrinsics2d_check
  use f2s_intrinsics2d, only: intrin
  implicit none
  integer :: n = 50, m = 20
  real(8), allocatable :: u(:,:), v(:,:), w(:,:), vr(:,:), wr(:,:)
  real(4), allocatable :: s(:,:), sr(:,:)
  integer, allocatable :: k(:,:), kr(:,:)
  real(8) :: dx = 0.37d0
  character(len=32) :: arg
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) n
    call get_command_argument(2, arg); read (arg, *) m
  end if
  allocate(u(0:n+1, 0:m+1), v(0:n+1, 0:m+1), w(0:n+1, 0:m+1), vr(0:n+1, 0:m+1), wr(0:n+1, 0:m+1))
  allocate(s(0:n+1, 0:m+1), sr(0:n+1, 0:m+1), k(0:n+1, 0:m+1), kr(0:n+1, 0:m+1))
  call random_number(u)
  u(1, 1) = 0.1d0    ! 7.5*u = 0.75 and -3.5*u, 4.5*u near halves: rounding cases
  u(2, 1) = 1d0 / 3d0
  v = 0; w = 0; s = 0; k = 0
  vr = v; wr = w; sr = s; kr = k
  call coefs(n, m, dx, u, vr, wr, sr, kr)
  call intrin(n, m, dx, u, v, w, s, k)
  if (any(v /= vr) .or. any(w /= wr) .or. any(s /= sr) .or. any(k /= kr)) then
    print '(a, 3es10.3, i6)', 'intrinsics2d: differences ', maxval(abs(v - vr)), &
      maxval(abs(w - wr)), maxval(abs(s - sr)), maxval(abs(k - kr))
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program intrinsics2d_check
