! Set-up calls before the time loop and a final call after it hold library
! calls too: the region spans them all. Between the set-up calls the host
! reads what the first one wrote; after the region it reads u alone, so v
! and f are freed without coming back.
program setup_main
  use state
  use kernels
  implicit none
  integer :: it, i
  real(8) :: first
  n = 40
  allocate(u(0:n+1), v(0:n+1), f(0:n+1))
  do i = 0, n + 1
    u(i) = sin(0.3d0*i)
    f(i) = 0.01d0*cos(0.2d0*i)
  end do
  v = 0
  call smooth
  first = v(n/2)
  call halo(v)
  call back(0.3d0)
  do it = 1, 25
    call smooth
    call halo(v)
    call back(0.7d0)
  end do
  call smooth
  call back(0.1d0)
  print '(2es25.16)', first, u(7)
end program setup_main
