! Mixes the same random tracer over a random sea floor (land where KMT is 0)
! with the original subroutine, as gfortran builds it, and with the
! library's procedure, and counts the elements that differ.
!   usage: vmixkmt_check [nx ny nz]     (default 33 17 5)
program vmixkmt_check
  use f2s_vmixkmt, only: vmix_kmt
  implicit none
  integer :: nx = 33, ny = 17, nz = 5
  integer, allocatable :: kmt(:,:)
  real(8), allocatable :: vdc(:,:,:), dzt(:), ref(:,:,:), tr(:,:,:), r(:,:)
  real(8), parameter :: dtt = 0.9d0
  character(len=32) :: arg
  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
    call get_command_argument(3, arg); read (arg, *) nz
  end if
  allocate(kmt(nx, ny), r(nx, ny), vdc(nx, ny, 0:nz), dzt(nz), ref(nx, ny, nz), tr(nx, ny, nz))
  call random_number(r)
  kmt = int(r*(nz + 1))
  call random_number(vdc)
  call random_number(dzt)
  dzt = dzt + 0.5d0
  call random_number(ref)
  tr = ref
  call vmixm(nx, ny, nz, dtt, kmt, vdc, dzt, ref)
  call vmix_kmt(nx, ny, nz, dtt, kmt, vdc, dzt, tr)
  print '(a, 3i6, a, i8)', 'vmixkmt', nx, ny, nz, ': elements that differ ', count(tr /= ref)
  if (any(tr /= ref)) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program vmixkmt_check
