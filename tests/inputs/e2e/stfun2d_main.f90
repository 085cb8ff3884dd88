program stfun2d_check
  use f2s_stfun2d, only: upwind_k
  implicit none
  integer :: n = 50, m = 20
  real(8), allocatable :: q(:,:), qn(:,:), qq(:,:), cx(:,:)
  character(len=32) :: arg
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) n
    call get_command_argument(2, arg); read (arg, *) m
  end if
  allocate(q(0:n+1, m), qn(0:n+1, m), qq(0:n+1, m), cx(0:n+1, m))
  call random_number(q)
  call random_number(cx)
  cx = cx - 0.5d0
  call random_number(qn)
  qq = qn
  call upwind(n, m, q, qn, cx, 0.4d0)
  call upwind_k(n, m, q, qq, cx, 0.4d0)
  print '(a, 2i6, a, i8)', 'stfun2d', n, m, ': elements that differ ', count(qn /= qq)
  if (any(qn /= qq)) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program stfun2d_check
