program main
  implicit none
  integer :: n1, n2, n3, i1, i2, i3
  character(len=16) :: arg
  real(8), allocatable :: u(:, :, :), w(:, :, :)
  call get_command_argument(1, arg)
  read (arg, *) n1
  call get_command_argument(2, arg)
  read (arg, *) n2
  call get_command_argument(3, arg)
  read (arg, *) n3
  allocate (u(n1, n2, n3), w(n1, n2, n3))
  do i3 = 1, n3
    do i2 = 1, n2
      do i1 = 1, n1
        u(i1, i2, i3) = sin(0.3d0*i1 + 0.7d0*i2 + 1.1d0*i3)
      end do
    end do
  end do
  w = 0
  call smooth(n1, n2, n3, 5, u, w)
  print '(3es25.16)', sum(u), sum(w), u(1, 2, n3)
end program main
