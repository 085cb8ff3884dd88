! Runs the original routines of blimit2d.f90 and the library's on the same
! random data, with every combination of the flags, and requires bitwise
! equal results.
program blimit2d_check
  use f2s_blimit2d, only: blim_step, blim_band_k
  implicit none
  integer :: nx = 13, ny = 7, b, wide
  logical :: periodic
  real(8), allocatable :: u(:,:), ref(:,:), out(:,:)
  real(8) :: err
  character(len=32) :: arg
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
  end if
  allocate(u(0:nx+1, 0:ny+1), ref(0:nx+1, 0:ny+1), out(0:nx+1, 0:ny+1))
  call random_number(u)
  err = 0
  do b = 0, 3
    do wide = 0, 1
      periodic = wide == 1
      call random_number(ref)
      out = ref
      call blim_relax(u, ref, nx, ny, b, periodic)
      call blim_step(u=u, unew=out, nx=nx, ny=ny, b_dist=b, periodic_x=periodic)
      err = max(err, maxval(abs(out - ref)))
      call random_number(ref)
      out = ref
      call blim_band(u(1:nx, 1:ny), ref(1:nx, 1:ny), nx, ny, wide)
      call blim_band_k(u=u(1:nx, 1:ny), v=out(1:nx, 1:ny), nx=nx, ny=ny, wide=wide)
      err = max(err, maxval(abs(out - ref)))
    end do
  end do
  print '(a, es10.3)', 'blimit2d: largest difference ', err
  if (err /= 0d0) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program blimit2d_check
