! Solves the columns of survey nest 6 (tests/inputs/survey/s06_vdiff.f) with
! the original subroutine, as gfortran builds it, and with the library's
! procedure, from the same random data, and counts the elements that differ.
!   usage: s06_vdiff_check [nx ny nz]     (default 33 17 5)
program s06_vdiff_check
  use f2s_s06_vdiff, only: vmix_k
  implicit none
  integer :: nx = 33, ny = 17, nz = 5
  real(8), allocatable :: akv(:,:,:), dz(:), ref(:,:,:), t(:,:,:)
  real(8), parameter :: dt = 0.3d0
  character(len=32) :: arg
  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
    call get_command_argument(3, arg); read (arg, *) nz
  end if
  allocate(akv(nx, ny, nz+1), dz(nz), ref(nx, ny, nz), t(nx, ny, nz))
  call random_number(akv)
  call random_number(dz)
  dz = dz + 0.5d0
  call random_number(ref)
  t = ref
  call vmix(nx, ny, nz, dt, akv, dz, ref)
  call vmix_k(nx, ny, nz, dt, akv, dz, t)
  print '(a, 3i6, a, i8)', 's06_vdiff', nx, ny, nz, ': elements that differ ', count(t /= ref)
  if (any(t /= ref)) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program s06_vdiff_check
