! Diffuses the same random tracer with the original subroutine, as gfortran
! builds it, and with the library's procedure, on a tile with halos in
! memory, and counts the elements that differ.
!   usage: vdiffikj_check [nx ny nz]     (default 33 17 5)
program vdiffikj_check
  use f2s_vdiffikj, only: vdiff_q
  implicit none
  integer :: nx = 33, ny = 17, nz = 5
  real(8), allocatable :: rdz(:), kh(:,:,:), ref(:,:,:), q(:,:,:)
  real(8), parameter :: dt = 0.7d0
  character(len=32) :: arg
  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
    call get_command_argument(3, arg); read (arg, *) nz
  end if
  allocate(rdz(nz+1), kh(0:nx+1, nz+1, -1:ny+2), ref(0:nx+1, nz+1, -1:ny+2))
  allocate(q(0:nx+1, nz+1, -1:ny+2))
  call random_number(rdz)
  rdz = rdz + 0.5d0
  call random_number(kh)
  call random_number(ref)
  q = ref
  call vdiff_tracer(1, nx, 1, ny, nz, dt, rdz, kh, ref)
  call vdiff_q(1, nx, 1, ny, nz, dt, rdz, kh, q)
  print '(a, 3i6, a, i8)', 'vdiffikj', nx, ny, nz, ': elements that differ ', count(q /= ref)
  if (any(q /= ref)) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program vdiffikj_check
