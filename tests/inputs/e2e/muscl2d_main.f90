program muscl2d_check
  use f2s_muscl2d, only: muscl2d
  implicit none
  ! The sizes of muscl2d_size.inc.
  integer, parameter :: imax = 160, jmax = 96
  real(8) :: r(imax,jmax), ru(imax,jmax), rv(imax,jmax), e(imax,jmax)
  real(8) :: f(imax,jmax,4), g(imax,jmax,4)
  real(8) :: err
  integer :: ni = 60, nj = 41
  character(len=32) :: arg
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) ni
    call get_command_argument(2, arg); read (arg, *) nj
  end if
  ni = min(ni, imax)
  nj = min(nj, jmax)
  call random_number(r)
  r = r + 0.5d0
  call random_number(ru)
  ru = ru - 0.5d0
  call random_number(rv)
  rv = rv - 0.5d0
  call random_number(e)
  e = e + 2d0
  call random_number(f)
  g = f
  call fluxi(ni, nj, 1.4d0, r, ru, rv, e, f(:,:,1), f(:,:,2), f(:,:,3), f(:,:,4))
  call muscl2d(ni, nj, 1.4d0, r, ru, rv, e, g(:,:,1), g(:,:,2), g(:,:,3), g(:,:,4))
  err = maxval(abs(f - g))
  print '(a, es10.3)', 'muscl2d: largest difference ', err
  if (err /= 0d0) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program muscl2d_check
