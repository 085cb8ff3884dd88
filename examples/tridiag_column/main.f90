! Takes three implicit diffusion steps with the original subroutine and with
! the f2stencil library procedures (elimination, then substitution) from the
! same random data, and reports the largest relative difference.
!   usage: tridiag_column_check [nx ny nz]     (default 64 48 40)
program tridiag_column_check
  use f2s_tridiag_column, only: vdiff_down, vdiff_up
  implicit none
  integer :: nx = 64, ny = 48, nz = 40, step
  real(8), allocatable :: kz(:,:,:), ref(:,:,:), out(:,:,:), cp_ref(:,:,:), cp_out(:,:,:)
  real(8) :: dt, rdz2, err
  character(len=32) :: arg

  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
    call get_command_argument(3, arg); read (arg, *) nz
  end if
  allocate(kz(nx, ny, nz+1), ref(nx, ny, 0:nz), out(nx, ny, 0:nz))
  allocate(cp_ref(nx, ny, 0:nz), cp_out(nx, ny, 0:nz))
  call random_number(kz)
  kz(:,:,1) = 0d0
  kz(:,:,nz+1) = 0d0
  call random_number(ref)
  out = ref
  cp_ref = 0d0
  cp_out = 0d0
  dt = 0.5d0
  rdz2 = dble(nz)**2 / 4d0

  do step = 1, 3
    call vdiff(nx, ny, nz, dt, rdz2, kz, ref, cp_ref)
    call vdiff_down(nx, ny, nz, dt, rdz2, kz, out, cp_out)
    call vdiff_up(nx, ny, nz, out, cp_out)
  end do

  err = max(maxval(abs(out - ref)) / maxval(abs(ref)), &
            maxval(abs(cp_out - cp_ref)) / max(maxval(abs(cp_ref)), tiny(1d0)))
  print '(a, 3i6, a, es10.3)', 'tridiag_column', nx, ny, nz, ': largest relative difference ', err
  if (err > 1d-12) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program tridiag_column_check
