! Calls the original subroutine and the f2stencil library procedure on the
! same random fields and requires bitwise equal pressures.
!   usage: star_offsets_check [nx ny]     (default 300 200)
program star_offsets_check
  use f2s_star_offsets, only: star_offsets
  implicit none
  integer, parameter :: rad = 2
  integer :: nx = 300, ny = 200, m
  real(8), allocatable :: vel(:,:), pold(:,:), p(:,:), p_ref(:,:), p_out(:,:)
  real(8) :: w(-rad:rad, -rad:rad), d2(-rad:rad), h = 5d0, err
  character(len=32) :: arg

  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
  end if
  ! The fourth-order second derivative along each axis; the centre weight
  ! holds both axes' share.
  d2 = [-1d0/12d0, 4d0/3d0, -5d0/2d0, 4d0/3d0, -1d0/12d0] / h**2
  w = 0d0
  do m = -rad, rad
    w(m, 0) = d2(m)
    w(0, m) = d2(m)
  end do
  w(0, 0) = 2d0*d2(0)
  allocate(vel(nx, ny), pold(nx, ny), p(1-rad:nx+rad, 1-rad:ny+rad))
  allocate(p_ref(nx, ny), p_out(nx, ny))
  call random_number(vel)
  vel = 1500d0 + 3000d0*vel
  call random_number(pold)
  call random_number(p)
  call random_number(p_ref)
  p_out = p_ref

  call wave_step(nx, ny, 1d-7, w, vel, pold, p, p_ref)
  call star_offsets(nx, ny, 1d-7, w, vel, pold, p, p_out)

  err = maxval(abs(p_out - p_ref))
  print '(a, 2i6, a, es10.3)', 'star_offsets', nx, ny, ': largest difference ', err
  if (err /= 0d0) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program star_offsets_check
