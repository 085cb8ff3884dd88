! Runs the residual and two smoothing steps of the original subroutines and of
! the f2stencil library procedures from the same random data and checks that
! they agree bit for bit.
!   usage: mg_resid_check [n1 n2 n3]     (default 66 50 42)
program mg_resid_check
  use f2s_mg_resid, only: resid, smooth
  implicit none
  integer :: n1 = 66, n2 = 50, n3 = 42, iter
  double precision, allocatable :: u(:,:,:), v(:,:,:), r(:,:,:), rr(:,:,:), uu(:,:,:)
  double precision :: a(0:3) = (/ -8d0/3d0, 0d0, 1d0/6d0, 1d0/12d0 /)
  double precision :: c(0:3) = (/ -3d0/8d0, 1d0/32d0, -1d0/64d0, 0d0 /)
  character(len=32) :: arg

  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) n1
    call get_command_argument(2, arg); read (arg, *) n2
    call get_command_argument(3, arg); read (arg, *) n3
  end if
  allocate(u(n1, n2, n3), v(n1, n2, n3), r(n1, n2, n3), rr(n1, n2, n3), uu(n1, n2, n3))
  call random_number(u)
  call random_number(v)
  call random_number(r)
  rr = r
  uu = u

  call mg_resid(n1, n2, n3, u, v, r, a)
  call resid(n1, n2, n3, uu, v, rr, a)
  do iter = 1, 2
    call mg_smooth(n1, n2, n3, r, u, c)
    call smooth(n1, n2, n3, rr, uu, c)
  end do

  print '(a, 3i6, a, 2i8)', 'mg_resid', n1, n2, n3, ': elements that differ (r, u) ', &
    count(r /= rr), count(u /= uu)
  if (any(r /= rr) .or. any(u /= uu)) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program mg_resid_check
