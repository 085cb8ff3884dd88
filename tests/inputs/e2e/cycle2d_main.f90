! Checks the regions of cycle2d.f90 against the library at the size given
! (nx ny), on random fields and masks, bit for bit.
program cycle2d_check
  use f2s_cycle2d, only: cyc_a, cyc_b, cyc_c
  implicit none
  integer :: nx = 13, ny = 9, bad
  integer, allocatable :: kmt(:,:)
  real(8), allocatable :: t(:,:), p(:,:), q(:,:), r(:,:)
  character(len=32) :: arg
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
  end if
  allocate(kmt(nx, ny), t(nx, ny), p(nx, ny), q(nx, ny), r(nx, ny))
  call random_number(t)
  call random_number(r)
  kmt = int(4 * r)
  bad = 0
  call random_number(p)
  q = p
  call cyc_land(nx, ny, kmt, t, p)
  call cyc_a(nx, ny, kmt, t, q)
  call check('cyc_a')
  call cyc_branches(nx, ny, kmt, t, p)
  call cyc_b(nx, ny, kmt, t, q)
  call check('cyc_b')
  call cyc_goto(nx, ny, kmt, t, p)
  call cyc_c(nx, ny, kmt, t, q)
  call check('cyc_c')
  if (bad > 0) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
contains
  subroutine check(name)
    character(len=*), intent(in) :: name
    integer :: n
    n = count(p /= q)
    if (n > 0) then
      print '(a, a, 2i5, a, i8)', name, ' at', nx, ny, ': elements that differ ', n
      bad = bad + 1
      q = p
    end if
  end subroutine check
end program cycle2d_check
