program linerec2d_check
  use f2s_linerec2d, only: filter_east, filter_west
  implicit none
  integer :: nx = 50, ny = 20, iter
  real(8), allocatable :: q(:,:), ref(:,:), out(:,:)
  real(8) :: err
  character(len=32) :: arg
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
  end if
  allocate(q(nx, ny), ref(0:nx+1, ny), out(0:nx+1, ny))
  call random_number(q)
  call random_number(ref)
  out = ref
  do iter = 1, 2
    call rowfilter(nx, ny, 0.7d0, q, ref)
    call filter_east(nx, ny, 0.7d0, q, out)
    call filter_west(nx, ny, 0.7d0, out)
  end do
  err = maxval(abs(out - ref)) / maxval(abs(ref))
  print '(a, es10.3)', 'linerec2d: largest relative difference ', err
  if (err > 1d-14) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program linerec2d_check
