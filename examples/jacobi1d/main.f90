! Calls the original subroutine and the f2stencil library procedure on the
! same random data and reports the largest relative difference.
!   usage: jacobi1d_check [n]     (default 100000)
program jacobi1d_check
  use f2s_jacobi1d, only: jacobi1d
  implicit none
  integer :: n = 100000
  real(8), allocatable :: u(:), ref(:), out(:)
  real(8) :: w = 2d0/3d0, err
  character(len=32) :: arg

  if (command_argument_count() == 1) then
    call get_command_argument(1, arg); read (arg, *) n
  end if
  allocate(u(0:n+1), ref(0:n+1), out(0:n+1))
  call random_number(u)
  call random_number(ref)
  out = ref

  call jac1d(n, w, u, ref)
  call jacobi1d(n, w, u, out)

  err = maxval(abs(out - ref)) / maxval(abs(ref))
  print '(a, i9, a, es10.3)', 'jacobi1d', n, ': largest relative difference ', err
  if (err > 1d-12) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program jacobi1d_check
