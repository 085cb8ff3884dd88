program linebuf2d_check
  use f2s_linebuf2d, only: res2, smo2
  implicit none
  integer :: n = 50, m = 20
  real(8), allocatable :: u(:,:), f(:,:), r(:,:), rr(:,:), v(:,:), vv(:,:)
  character(len=32) :: arg
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) n
    call get_command_argument(2, arg); read (arg, *) m
  end if
  allocate(u(0:n+1, 0:m+1), f(n, m), r(n, m), rr(n, m), v(n, m), vv(n, m))
  call random_number(u)
  call random_number(f)
  call random_number(r)
  call random_number(v)
  rr = r
  vv = v
  call resid2(n, m, u, f, r, 0.25d0)
  call res2(n, m, u, f, rr, 0.25d0)
  call smooth2(n, m, u, v, 0.3d0)
  call smo2(n, m, u, vv, 0.3d0)
  print '(a, 2i6, a, 2i8)', 'linebuf2d', n, m, ': elements that differ ', count(r /= rr), &
    count(v /= vv)
  if (any(r /= rr) .or. any(v /= vv)) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program linebuf2d_check
