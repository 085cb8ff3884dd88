program mask2d_check
  use f2s_mask2d, only: mask2d
  implicit none
  integer :: n = 50, m = 20
  real(8), allocatable :: h(:,:), r(:,:), ref(:,:), out(:,:)
  logical, allocatable :: land(:,:)
  real(8) :: err
  character(len=32) :: arg
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) n
    call get_command_argument(2, arg); read (arg, *) m
  end if
  allocate(h(0:n+1, 0:m+1), r(0:n+1, 0:m+1), ref(0:n+1, 0:m+1), out(0:n+1, 0:m+1))
  allocate(land(0:n+1, 0:m+1))
  call random_number(h)
  call random_number(r)
  land = r > 0.4d0
  call random_number(ref)
  out = ref
  call masked(n, m, land, h, ref)
  call mask2d(n, m, land, h, out)
  err = maxval(abs(out - ref))
  print '(a, es10.3)', 'mask2d: largest difference ', err
  if (err /= 0d0) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program mask2d_check
