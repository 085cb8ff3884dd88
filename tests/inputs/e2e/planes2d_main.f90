! Calls the original periodic boundaries and row mix and the library's
! kernels on the same random data (m and n from the command line, at least
! 2), with the row k0 at the first ghost row, inside and at the last
! interior row, and the shifted row at column offsets -1, 0 and 1 from
! differences of v at offsets -1, 0 and 1, and requires bitwise equal
! results.
program planes2d_check
  use planes_state, only: m, n, g
  use planes_ops, only: periodic, row_mix, shift_row
  use f2s_planes2d, only: pl_bc_x, pl_bc_y, pl_row, pl_shift
  implicit none
  real(8), allocatable :: ref(:,:), out(:,:), gref(:,:), v(:)
  real(8) :: err
  integer :: k0, pick, ioff, d1, d2
  character(len=32) :: arg
  m = 37
  n = 11
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) m
    call get_command_argument(2, arg); read (arg, *) n
  end if
  m = max(m, 2)
  n = max(n, 2)
  allocate(ref(0:m+1, 0:n+1), out(0:m+1, 0:n+1))
  call random_number(ref)
  out = ref
  call periodic(ref)
  call pl_bc_x(f=out, m=m, n=n)
  call pl_bc_y(f=out, m=m, n=n)
  err = maxval(abs(out - ref))
  allocate(g(0:m+1, 0:n+1), gref(0:m+1, 0:n+1))
  do pick = 1, 3
    k0 = merge(0, merge(n/2, n, pick == 2), pick == 1)
    call random_number(g)
    gref = g
    call pl_row(k0=k0, m=m, n=n, g=g)
    out = g
    g = gref
    call row_mix(k0)
    err = max(err, maxval(abs(out - g)))
  end do
  allocate(v(0:m+1))
  call random_number(v)
  do pick = 1, 3
    ioff = pick - 2
    d1 = mod(pick, 3) - 1
    d2 = mod(pick + 1, 3) - 1
    k0 = merge(0, merge(n/2, n + 1, pick == 2), pick == 1)
    call random_number(g)
    gref = g
    call pl_shift(ioff=ioff, d1=d1, d2=d2, k0=k0, v=v, m=m, g=g)
    out = g
    g = gref
    call shift_row(ioff, d1, d2, k0, v)
    err = max(err, maxval(abs(out - g)))
  end do
  print '(a, es10.3)', 'planes2d: largest difference ', err
  if (err /= 0d0) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program planes2d_check
