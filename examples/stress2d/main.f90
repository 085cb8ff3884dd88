! Calls the original subroutine and the f2stencil library procedure on the
! same random data and requires bitwise equal stresses.
!   usage: stress2d_check [nx ny]     (default 300 200)
program stress2d_check
  use f2s_stress2d, only: stress2d
  implicit none
  integer :: nx = 300, ny = 200
  real(8), allocatable :: dampx(:), dampy(:), lam(:,:), mu(:,:), vx(:,:), vy(:,:)
  real(8), allocatable :: s_ref(:,:,:), s_out(:,:,:)
  real(8) :: w(2) = [9d0/8d0, -1d0/24d0], err
  character(len=32) :: arg

  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
  end if
  allocate(dampx(nx), dampy(-1:ny+2), lam(nx, ny), mu(nx, ny))
  allocate(vx(-1:nx+2, -1:ny+2), vy(-1:nx+2, -1:ny+2))
  allocate(s_ref(nx, ny, 3), s_out(nx, ny, 3))
  call random_number(dampx)
  call random_number(dampy)
  call random_number(lam)
  call random_number(mu)
  call random_number(vx)
  call random_number(vy)
  call random_number(s_ref)
  s_out = s_ref

  call stress_update(nx, ny, 1d-3, 1d1, 2d1, w, dampx, dampy, lam, mu, vx, vy, &
                     s_ref(:,:,1), s_ref(:,:,2), s_ref(:,:,3))
  call stress2d(nx, ny, 1d-3, 1d1, 2d1, w, dampx, dampy, lam, mu, vx, vy, &
                s_out(:,:,1), s_out(:,:,2), s_out(:,:,3))

  err = maxval(abs(s_out - s_ref))
  print '(a, 2i6, a, es10.3)', 'stress2d', nx, ny, ': largest difference ', err
  if (err /= 0d0) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program stress2d_check
