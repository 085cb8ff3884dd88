! The time loop calls the procedures that hold the nests: its data region
! is the one that keeps u, v and f on the device.
program main
  use state
  use kernels
  implicit none
  integer :: it, i
  real(8) :: total
  n = 40
  allocate(u(0:n+1), v(0:n+1), f(0:n+1))
  do i = 0, n + 1
    u(i) = sin(0.3d0*i)
    f(i) = 0.01d0*cos(0.2d0*i)
  end do
  v = 0
  call halo(u)
  total = 0
  do it = 1, 25
    call smooth
    call halo(v)
    call back(0.7d0)
    call halo(u)
    if (mod(it, 5) == 0) total = total + u(n/2)
  end do
  print '(3es25.16)', total, u(7), v(9)
end program main
