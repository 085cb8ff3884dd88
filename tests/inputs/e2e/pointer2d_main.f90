program pointer2d_check
  use f2s_pointer2d, only: pointer2d
  implicit none
  interface
    subroutine pointers(n, m, a, b)
      integer :: n, m
      real(8), pointer :: a(:,:), b(:,:)
    end subroutine
  end interface
  integer :: n = 50, m = 20
  real(8), pointer :: a(:,:), ref(:,:), out(:,:)
  real(8), allocatable :: c(:,:)
  real(8) :: err
  character(len=32) :: arg
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) n
    call get_command_argument(2, arg); read (arg, *) m
  end if
  allocate(a(0:n+1, 0:m+1), ref(-1:n+2, 0:m+1), out(-1:n+2, 0:m+1), c(0:n+1, 0:m+1))
  call random_number(a)
  call random_number(ref)
  out = ref
  c = 0.5d0
  call pointers(n, m, a, ref)
  call pointer2d(n, m, a, out, c)
  err = maxval(abs(out - ref))
  print '(a, es10.3)', 'pointer2d: largest difference ', err
  if (err /= 0d0) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program pointer2d_check
