! Calls the original nests of imperfect.f90 and the library's kernels on
! the same random data (nx, ny, nz from the command line; nx at least 2 in
! 2D, as the rows read a(2, j)) and requires bitwise equal results.
program imperfect_check
  use f2s_imperfect, only: imp_rows, imp_edge, imp_planes
  implicit none
  real(8), allocatable :: a(:,:), b(:,:), a2(:,:), b2(:,:)
  real(8), allocatable :: u(:,:,:), v(:,:,:), w(:,:), v2(:,:,:), w2(:,:)
  real(8) :: err
  integer :: nx, ny, nz, n2
  character(len=32) :: arg
  nx = 29
  ny = 13
  nz = 7
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg); read (arg, *) nx
  end if
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg); read (arg, *) ny
  end if
  if (command_argument_count() >= 3) then
    call get_command_argument(3, arg); read (arg, *) nz
  end if
  n2 = max(nx, 2)
  allocate(a(n2, ny), b(n2, ny), a2(n2, ny), b2(n2, ny))
  call random_number(a)
  call random_number(b)
  a2 = a
  b2 = b
  call rows_orig(n2, ny, a, b)
  call imp_rows(nx=n2, ny=ny, a=a2, b=b2)
  err = max(maxval(abs(a - a2)), maxval(abs(b - b2)))
  call random_number(a)
  call random_number(b)
  a2 = a
  b2 = b
  call edge_orig(n2, ny, a, b)
  call imp_edge(nx=n2, ny=ny, a=a2, b=b2)
  err = max(err, maxval(abs(a - a2)), maxval(abs(b - b2)))
  allocate(u(0:nx+1, 0:ny+1, nz), v(0:nx+1, 0:ny+1, nz), w(ny, nz))
  allocate(v2(0:nx+1, 0:ny+1, nz), w2(ny, nz))
  call random_number(u)
  call random_number(v)
  call random_number(w)
  v2 = v
  w2 = w
  call planes_orig(nx, ny, nz, u, v, w)
  call imp_planes(nx=nx, ny=ny, nz=nz, u=u, v=v2, w=w2)
  err = max(err, maxval(abs(v - v2)), maxval(abs(w - w2)))
  print '(a, es10.3)', 'imperfect: largest difference ', err
  if (err /= 0d0) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program imperfect_check
