! Calls the original FORTRAN 77 subroutine, which works on its COMMON block,
! and the f2stencil library procedure, which takes the COMMON arrays as
! arguments, on the same random data and reports the largest relative
! difference.
!   usage: jacobi3d_f77_check [n1 n2 n3]     (default 64 48 40; each at most 100)
program jacobi3d_f77_check
  use f2s_jacobi3d_f77, only: jacobi3d_f77
  implicit none
  integer, parameter :: maxn = 100
  real(8) :: a(0:maxn+1, 0:maxn+1, 0:maxn+1), b(0:maxn+1, 0:maxn+1, 0:maxn+1)
  common /grids/ a, b
  real(8), allocatable :: ref(:,:,:), out(:,:,:)
  real(8) :: err
  integer :: n1 = 64, n2 = 48, n3 = 40
  character(len=32) :: arg

  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) n1
    call get_command_argument(2, arg); read (arg, *) n2
    call get_command_argument(3, arg); read (arg, *) n3
  end if
  if (max(n1, n2, n3) > maxn) error stop 'each size must be at most 100'
  call random_number(a)
  call random_number(b)
  out = b

  call jacobi(n1, n2, n3)
  ref = b
  b = out
  call jacobi3d_f77(n1, n2, n3, a, b)
  out = b

  err = maxval(abs(out - ref)) / maxval(abs(ref))
  print '(a, 3i6, a, es10.3)', 'jacobi3d_f77', n1, n2, n3, ': largest relative difference ', err
  if (err > 1d-12) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program jacobi3d_f77_check
