! Runs two red-black iterations (both colours each) of the original
! subroutine and of the f2stencil library procedure from the same random
! data and reports the largest relative difference.
!   usage: gsrb3d_check [nx ny nz]     (default 64 48 40)
program gsrb3d_check
  use f2s_gsrb3d, only: gsrb3d
  implicit none
  integer :: nx = 64, ny = 48, nz = 40, iter, color
  real(8), allocatable :: a(:,:,:), f(:,:,:), ref(:,:,:), out(:,:,:)
  real(8) :: h2, err
  character(len=32) :: arg

  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
    call get_command_argument(3, arg); read (arg, *) nz
  end if
  allocate(a(0:nx+1, 0:ny+1, 0:nz+1), f(0:nx+1, 0:ny+1, 0:nz+1))
  allocate(ref(0:nx+1, 0:ny+1, 0:nz+1), out(0:nx+1, 0:ny+1, 0:nz+1))
  call random_number(a)
  a = 0.1d0 + a
  call random_number(f)
  call random_number(ref)
  out = ref
  h2 = 1d0/dble(max(nx, ny, nz) + 1)**2

  do iter = 1, 2
    do color = 0, 1
      call gsrb(nx, ny, nz, color, h2, a, f, ref)
      call gsrb3d(nx, ny, nz, color, h2, a, f, out)
    end do
  end do

  err = maxval(abs(out - ref)) / maxval(abs(ref))
  print '(a, 3i6, a, es10.3)', 'gsrb3d', nx, ny, nz, ': largest relative difference ', err
  if (err > 1d-12) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program gsrb3d_check
