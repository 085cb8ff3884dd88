program maskwrap_check
  use maskwrap_mod, only: relax
  use f2s_maskwrap2d, only: maskwrap2d
  implicit none
  integer :: n = 50, m = 20, pass
  real(8), allocatable :: h(:,:), r(:,:), ref(:,:), out(:,:)
  logical, allocatable :: ocean(:,:)
  real(8) :: err
  character(len=32) :: arg
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) n
    call get_command_argument(2, arg); read (arg, *) m
  end if
  allocate(h(0:n+1, 0:m+1), r(0:n+1, 0:m+1), ref(0:n+1, 0:m+1), out(0:n+1, 0:m+1))
  allocate(ocean(0:n+1, 0:m+1))
  call random_number(h)
  call random_number(r)
  ocean = r > 0.3d0
  err = 0
  do pass = 1, 2
    call random_number(ref)
    out = ref
    call relax(n, m, ocean, pass == 1, h, ref)
    call maskwrap2d(n, m, ocean, pass == 1, h, out)
    err = max(err, maxval(abs(out - ref)))
  end do
  print '(a, es10.3)', 'maskwrap2d: largest difference ', err
  if (err /= 0d0) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program maskwrap_check
