! Calls the original step and the f2stencil library procedure on the same
! random data and reports the largest relative difference. The library's
! wrapper takes the arrays as the original does (assumed-shape and
! allocatable) and passes their bounds itself.
!   usage: heat3d_modern_check [nx ny nz]     (default 64 48 40)
program heat3d_modern_check
  use heat3d_kinds, only: wp
  use heat3d_fields, only: kappa
  use heat3d_solver, only: heat_step
  use f2s_heat3d_modern, only: heat3d_modern
  implicit none
  integer :: nx = 64, ny = 48, nz = 40
  real(wp), allocatable :: t(:,:,:), ref(:,:,:), out(:,:,:)
  real(wp) :: dt = 0.05_wp, err
  character(len=32) :: arg

  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
    call get_command_argument(3, arg); read (arg, *) nz
  end if
  allocate(t(0:nx+1, 0:ny+1, 0:nz+1), ref(0:nx+1, 0:ny+1, 0:nz+1), out(0:nx+1, 0:ny+1, 0:nz+1))
  ! Bounds other than 1 and other than t's: the wrapper passes them.
  allocate(kappa(-1:nx+2, 0:ny+1, 1:nz))
  call random_number(t)
  call random_number(kappa)
  call random_number(ref)
  out = ref

  call heat_step(dt, t, ref)
  call heat3d_modern(dt, t, out, kappa)

  err = maxval(abs(out - ref)) / maxval(abs(ref))
  print '(a, 3i6, a, es10.3)', 'heat3d_modern', nx, ny, nz, ': largest relative difference ', err
  if (err > 1d-12) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program heat3d_modern_check
