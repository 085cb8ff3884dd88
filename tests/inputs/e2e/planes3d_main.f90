! Calls the original comm3 and the library's three face copies on the same
! random data, at sizes of at least 2 a dimension (comm3 reads u(n1-1)),
! and requires bitwise equal results, ghost edges and corners included.
program planes3d_check
  use f2s_planes3d, only: pl_comm_x, pl_comm_y, pl_comm_z
  implicit none
  integer :: n1 = 13, n2 = 7, n3 = 9
  real(8), allocatable :: ref(:,:,:), out(:,:,:)
  real(8) :: err
  character(len=32) :: arg
  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) n1
    call get_command_argument(2, arg); read (arg, *) n2
    call get_command_argument(3, arg); read (arg, *) n3
  end if
  n1 = max(n1, 2)
  n2 = max(n2, 2)
  n3 = max(n3, 2)
  allocate(ref(n1, n2, n3), out(n1, n2, n3))
  call random_number(ref)
  out = ref
  call comm3(ref, n1, n2, n3)
  call pl_comm_x(u=out, n1=n1, n2=n2, n3=n3)
  call pl_comm_y(u=out, n1=n1, n2=n2, n3=n3)
  call pl_comm_z(u=out, n1=n1, n2=n2, n3=n3)
  err = maxval(abs(out - ref))
  print '(a, es10.3)', 'planes3d: largest difference ', err
  if (err /= 0d0) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program planes3d_check
