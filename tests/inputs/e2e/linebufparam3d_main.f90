program linebufparam3d_check
  use f2s_linebufparam3d, only: resid3_lib => resid3
  implicit none
  integer, parameter :: nx = 34
  real(8) :: u(nx,nx,nx), v(nx,nx,nx), r(nx,nx,nx), ref(nx,nx,nx), a(0:3)
  call random_number(u)
  call random_number(v)
  call random_number(a)
  call random_number(r)
  ref = r
  call resid3(u, v, ref, a)
  call resid3_lib(u, v, r, a)
  if (any(r /= ref)) then
    print '(a, es10.3)', 'linebufparam3d: largest difference ', maxval(abs(r - ref))
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program linebufparam3d_check
