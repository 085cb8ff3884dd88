! The original ping-pong loop and the library's, at trip counts 0, 1, 2
! and 5: both buffers must agree bitwise, and the time variable too.
!   usage: jacobi3d_pingpong_check [n1 n2 n3]
program jacobi3d_pingpong_check
  use f2s_jacobi3d_pingpong, only: jacpp
  implicit none
  integer :: n1 = 19, n2 = 14, n3 = 11, n, it, niter
  integer, parameter :: trips(4) = [0, 1, 2, 5]
  real(8), allocatable :: a(:,:,:), b(:,:,:), a2(:,:,:), b2(:,:,:)
  character(len=16) :: arg
  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) n1
    call get_command_argument(2, arg); read (arg, *) n2
    call get_command_argument(3, arg); read (arg, *) n3
  end if
  do n = 1, size(trips)
    niter = trips(n)
    allocate(a(0:n1+1, 0:n2+1, 0:n3+1), b(0:n1+1, 0:n2+1, 0:n3+1))
    call random_number(a); call random_number(b)
    a2 = a; b2 = b
    call jacit(n1, n2, n3, niter, a, b)
    it = 0
    call jacpp(n1, n2, n3, niter, a2, b2, it)
    if (any(a /= a2) .or. any(b /= b2) .or. it /= niter + 1) then
      print '(a, i3, a)', 'FAILED after ', niter, ' steps'
      stop 1
    end if
    print '(a, i2, a, 2es24.15)', 'after ', niter, ' steps: sums ', sum(a2), sum(b2)
    deallocate(a, b, a2, b2)
  end do
  print '(a)', 'PASSED'
end program jacobi3d_pingpong_check
