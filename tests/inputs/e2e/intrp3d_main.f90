program intrp3d_check
  use f2s_intrp3d, only: intrp_k
  implicit none
  integer :: mm1 = 20, mm2 = 12, mm3 = 7
  real(8), allocatable :: z(:,:,:), u(:,:,:), uu(:,:,:)
  character(len=32) :: arg
  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) mm1
    call get_command_argument(2, arg); read (arg, *) mm2
    call get_command_argument(3, arg); read (arg, *) mm3
  end if
  allocate(z(mm1, mm2, mm3), u(2*mm1, 2*mm2, 2*mm3), uu(2*mm1, 2*mm2, 2*mm3))
  call random_number(z)
  call random_number(u)
  uu = u
  call intrp(z, mm1, mm2, mm3, u, 2*mm1, 2*mm2, 2*mm3)
  call intrp_k(z, mm1, mm2, mm3, uu, 2*mm1, 2*mm2, 2*mm3)
  print '(a, 3i6, a, i8)', 'intrp3d', mm1, mm2, mm3, ': elements that differ ', count(u /= uu)
  if (any(u /= uu)) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program intrp3d_check
