program cnames_check
  use cnames_mod
  use f2s_cnames2d
  implicit none
  integer :: n = 50, m = 20
  real(8), allocatable :: a(:,:), b(:,:), ref(:,:), out(:,:), par(:,:)
  real(4), allocatable :: c(:,:)
  real(8) :: x = 0.375d0, r_ref, r_out, r_par, err
  logical :: ok = .true.
  character(len=32) :: arg
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) n
    call get_command_argument(2, arg); read (arg, *) m
  end if
  allocate(a(0:n+1, 0:m+1), b(0:n+1, 0:m+1), c(0:n+1, 0:m+1))
  allocate(ref(0:n+1, 0:m+1), out(0:n+1, 0:m+1), par(0:n+1, 0:m+1))
  call random_number(a)
  call random_number(b)
  call random_number(c)
  b = b + 0.5d0
  c = c + 0.5
  call random_number(ref)
  out = ref
  par = ref
  r_ref = 0.25d0
  r_out = r_ref
  r_par = r_ref
  call sweep0(n, m, a, ref, x, b, c, r_ref)
  call cnames0_c(n, m, a, out, x, b, c, r_out)
  call cnames0_pthreads(n, m, a, par, x, b, c, r_par)
  call check('cnames0')
  call random_number(ref)
  out = ref
  par = ref
  r_ref = 0.25d0
  r_out = r_ref
  r_par = r_ref
  call sweep1(n, m, a, ref, x, b, c, r_ref)
  call cnames1_c(n, m, a, out, x, b, c, r_out)
  call cnames1_pthreads(n, m, a, par, x, b, c, r_par)
  call check('cnames1')
  call random_number(ref)
  out = ref
  par = ref
  r_ref = 0.25d0
  r_out = r_ref
  r_par = r_ref
  call sweep2(n, m, a, ref, x, b, c, r_ref)
  call cnames2_c(n, m, a, out, x, b, c, r_out)
  call cnames2_pthreads(n, m, a, par, x, b, c, r_par)
  call check('cnames2')
  call random_number(ref)
  out = ref
  par = ref
  r_ref = 0.25d0
  r_out = r_ref
  r_par = r_ref
  call sweep3(n, m, a, ref, x, b, c, r_ref)
  call cnames3_c(n, m, a, out, x, b, c, r_out)
  call cnames3_pthreads(n, m, a, par, x, b, c, r_par)
  call check('cnames3')
  call random_number(ref)
  out = ref
  par = ref
  r_ref = 0.25d0
  r_out = r_ref
  r_par = r_ref
  call sweep4(n, m, a, ref, x, b, c, r_ref)
  call cnames4_c(n, m, a, out, x, b, c, r_out)
  call cnames4_pthreads(n, m, a, par, x, b, c, r_par)
  call check('cnames4')
  call random_number(ref)
  out = ref
  par = ref
  r_ref = 0.25d0
  r_out = r_ref
  r_par = r_ref
  call sweep5(n, m, a, ref, x, b, c, r_ref)
  call cnames5_c(n, m, a, out, x, b, c, r_out)
  call cnames5_pthreads(n, m, a, par, x, b, c, r_par)
  call check('cnames5')
  call random_number(ref)
  out = ref
  par = ref
  r_ref = 0.25d0
  r_out = r_ref
  r_par = r_ref
  call sweep6(n, m, a, ref, x, b, c, r_ref)
  call cnames6_c(n, m, a, out, x, b, c, r_out)
  call cnames6_pthreads(n, m, a, par, x, b, c, r_par)
  call check('cnames6')
  call random_number(ref)
  out = ref
  par = ref
  r_ref = 0.25d0
  r_out = r_ref
  r_par = r_ref
  call sweep7(n, m, a, ref, x, b, c, r_ref)
  call cnames7_c(n, m, a, out, x, b, c, r_out)
  call cnames7_pthreads(n, m, a, par, x, b, c, r_par)
  call check('cnames7')
  call random_number(ref)
  out = ref
  par = ref
  r_ref = 0.25d0
  r_out = r_ref
  r_par = r_ref
  call sweep8(n, m, a, ref, x, b, c, r_ref)
  call cnames8_c(n, m, a, out, x, b, c, r_out)
  call cnames8_pthreads(n, m, a, par, x, b, c, r_par)
  call check('cnames8')
  if (.not. ok) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
contains
  ! The serial library exactly; the threads' grid exactly and their sum
  ! (added in another order) to rounding.
  subroutine check(what)
    character(len=*), intent(in) :: what
    err = max(maxval(abs(out - ref)), maxval(abs(par - ref)), abs(r_out - r_ref))
    err = max(err, merge(0d0, 1d0, abs(r_par - r_ref) <= 1d-12*abs(r_ref)))
    if (err /= 0d0) then
      print '(2a, es10.3)', what, ': largest difference ', err
      ok = .false.
    end if
  end subroutine check
end program cnames_check
