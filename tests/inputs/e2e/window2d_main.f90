! Calls the original subroutines and the library procedures on the same
! random data, at radii 0, 1 and 3, and requires bitwise equal results.
program window2d_check
  use f2s_window2d, only: window_x, window_box, window_damp, window_band
  implicit none
  integer :: nx = 40, ny = 30, rad, n
  integer, parameter :: radii(3) = [0, 1, 3]
  real(8), allocatable :: wgt(:), c(:,:), qx(:,:), q(:,:), qb(:,:)
  real(8), allocatable :: sx_ref(:,:), sx_out(:,:), sb_ref(:,:), sb_out(:,:)
  real(8), allocatable :: d_ref(:,:), d_out(:,:), b_ref(:,:), b_out(:,:)
  real(8) :: err
  character(len=32) :: arg
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
  end if
  err = 0d0
  do n = 1, size(radii)
    rad = radii(n)
    allocate(wgt(-rad:rad), c(-rad:rad, -rad:rad), qx(1-rad:nx+rad, ny))
    allocate(q(1-rad:nx+rad, 1-rad:ny+rad))
    allocate(sx_ref(nx, ny), sx_out(nx, ny), sb_ref(nx, ny), sb_out(nx, ny))
    allocate(d_ref(nx, ny), d_out(nx, ny), qb(1-rad:nx+rad, 0:ny+1), b_ref(nx, ny), b_out(nx, ny))
    call random_number(wgt)
    call random_number(c)
    call random_number(qx)
    call random_number(q)
    call random_number(sx_ref)
    call random_number(sb_ref)
    call random_number(d_ref)
    call random_number(qb)
    call random_number(b_ref)
    b_out = b_ref
    sx_out = sx_ref
    sb_out = sb_ref
    d_out = d_ref
    call smooth_x(nx, ny, rad, wgt, qx, sx_ref)
    call smooth_box(nx, ny, rad, c, q, sb_ref)
    call damp_y(nx, ny, rad, q, d_ref)
    call smooth_band(nx, ny, rad, qb, b_ref)
    call window_x(nx, ny, rad, wgt, qx, sx_out)
    call window_box(nx, ny, rad, c, q, sb_out)
    call window_damp(nx, ny, rad, q, d_out)
    call window_band(nx, ny, rad, qb, b_out)
    err = max(err, maxval(abs(sx_out - sx_ref)), maxval(abs(sb_out - sb_ref)), &
              maxval(abs(d_out - d_ref)), maxval(abs(b_out - b_ref)))
    deallocate(wgt, c, qx, q, sx_ref, sx_out, sb_ref, sb_out, d_ref, d_out, qb, b_ref, b_out)
  end do
  print '(a, es10.3)', 'window2d: largest difference ', err
  if (err /= 0d0) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program window2d_check
