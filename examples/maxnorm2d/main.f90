! Calls the original subroutine and the f2stencil library procedure on the
! same random data: the grid and the max norm err (a maximum is exact in any
! order) must agree exactly.
!   usage: maxnorm2d_check [nx ny]     (default 300 200)
program maxnorm2d_check
  use f2s_maxnorm2d, only: maxnorm2d
  implicit none
  integer :: nx = 300, ny = 200
  real(8), allocatable :: u(:,:), ref(:,:), out(:,:)
  real(8) :: err_ref, err_out
  character(len=32) :: arg

  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
  end if
  allocate(u(0:nx+1, 0:ny+1), ref(0:nx+1, 0:ny+1), out(0:nx+1, 0:ny+1))
  call random_number(u)
  call random_number(ref)
  out = ref
  err_ref = 0
  err_out = 0

  call jacobi_maxnorm(nx, ny, u, ref, err_ref)
  call maxnorm2d(nx, ny, u, out, err_out)

  print '(a, 2i6, a, es12.5, a, es12.5, a, l1)', 'maxnorm2d', nx, ny, ': err ', err_out, &
      ' (original ', err_ref, '), grid identical ', all(out == ref)
  if (any(out /= ref) .or. err_out /= err_ref) then
    print '(a)', 'FAILED'
    stop 1
  end if
  ! A starting value above every change is kept.
  err_out = 10
  call maxnorm2d(nx, ny, u, out, err_out)
  if (err_out /= 10) then
    print '(a)', 'FAILED: the starting value was lost'
    stop 1
  end if
  print '(a)', 'PASSED'
end program maxnorm2d_check
