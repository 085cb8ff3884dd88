program main
  implicit none
  integer, parameter :: n = 50
  real(8) :: u(0:n+1), v(0:n+1), r(n), total
  integer :: i
  do i = 0, n + 1
    u(i) = sin(0.1d0*i)
  end do
  v = 0
  r = 0
  call relax(n, 20, u, v, r, total)
  print '(3es25.16)', total, u(7), v(9)
end program main
