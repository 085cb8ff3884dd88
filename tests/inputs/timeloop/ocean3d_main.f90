! The original ocean loop and the library's from the same start, at trip
! counts 0, 1, 2 and 5: both fields and the time variable bitwise equal.
!   usage: ocean3d_main [nx nz ny]
program ocean3d_main
  use f2s_ocean3d, only: ocean_steps
  implicit none
  integer :: nx = 23, nz = 7, ny = 11, n, k, nt
  integer, parameter :: trips(4) = [0, 1, 2, 5]
  real(8), allocatable :: t(:,:,:), tn(:,:,:), t2(:,:,:), tn2(:,:,:), dz(:), fm(:,:)
  character(len=16) :: arg
  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) nz
    call get_command_argument(3, arg); read (arg, *) ny
  end if
  do k = 1, size(trips)
    nt = trips(k)
    allocate(t(0:nx+1, 0:nz+1, 0:ny+1), tn(0:nx+1, 0:nz+1, 0:ny+1), dz(nz), fm(0:nx+1, 0:ny+1))
    call random_number(t); call random_number(tn)
    call random_number(dz); call random_number(fm)
    dz = 0.1d0*dz; fm = 0.1d0*fm
    t2 = t; tn2 = tn
    call ocean(nx, nz, ny, nt, 0.5d0, dz, fm, t, tn)
    n = -7
    call ocean_steps(nx, nz, ny, nt, 0.5d0, dz, fm, t2, tn2, n)
    if (any(t /= t2) .or. any(tn /= tn2) .or. n /= nt + 1) then
      print '(a, i3, a)', 'FAILED after ', nt, ' steps'
      stop 1
    end if
    deallocate(t, tn, dz, fm, t2, tn2)
  end do
  print '(a)', 'PASSED'
end program ocean3d_main
