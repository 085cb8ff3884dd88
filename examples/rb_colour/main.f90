! Runs three red-black sweeps (red then black) of the original subroutine
! and of the f2stencil library procedures from the same random data and
! reports the largest relative difference.
!   usage: rb_colour_check [n1 n2 n3]     (default 66 50 42)
program rb_colour_check
  use f2s_rb_colour, only: rb_red, rb_black
  implicit none
  integer :: n1 = 66, n2 = 50, n3 = 42, iter
  real(8), allocatable :: f(:,:,:), ref(:,:,:), out(:,:,:)
  real(8) :: h2, err
  real(8), parameter :: omega = 1.15d0
  character(len=32) :: arg

  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) n1
    call get_command_argument(2, arg); read (arg, *) n2
    call get_command_argument(3, arg); read (arg, *) n3
  end if
  allocate(f(n1, n2, n3), ref(n1, n2, n3), out(n1, n2, n3))
  call random_number(f)
  call random_number(ref)
  out = ref
  h2 = 1d0/dble(max(n1, n2, n3))**2

  do iter = 1, 3
    call smooth_rb(n1, n2, n3, omega, h2, f, ref)
    call rb_red(n1, n2, n3, omega, h2, f, out)
    call rb_black(n1, n2, n3, omega, h2, f, out)
  end do

  err = maxval(abs(out - ref)) / maxval(abs(ref))
  print '(a, 3i6, a, es10.3)', 'rb_colour', n1, n2, n3, ': largest relative difference ', err
  if (err > 1d-12) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program rb_colour_check
