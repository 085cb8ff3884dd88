! Checks the library's hdiff against horiz_diff as a weather model calls it:
! memory bounds three points wider than the domain on every side, the
! domain cut into two tiles along i and two along j, each tile one call.
program wrftile3d_check
  use f2s_wrftile3d, only: hdiff
  implicit none
  integer :: nx = 23, nz = 7, ny = 11
  integer :: ims, ime, jms, jme, kms, kme, it, jt, its, ite, jts, jte
  integer :: i_start, i_end, j_start, j_end, k_end
  real, allocatable :: field(:,:,:), xkh(:,:,:), ref(:,:,:), out(:,:,:), msfx(:,:), rdz(:)
  character(len=32) :: arg
  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) nz
    call get_command_argument(3, arg); read (arg, *) ny
  end if
  ims = 1 - 3; ime = nx + 3; kms = 1; kme = nz + 1; jms = 1 - 3; jme = ny + 3
  allocate(field(ims:ime, kms:kme, jms:jme), xkh(ims:ime, kms:kme, jms:jme), &
           ref(ims:ime, kms:kme, jms:jme), out(ims:ime, kms:kme, jms:jme), &
           msfx(ims:ime, jms:jme), rdz(kms:kme))
  call random_number(field)
  call random_number(xkh)
  call random_number(ref)
  call random_number(msfx)
  call random_number(rdz)
  msfx = 1 + msfx
  out = ref
  do jt = 0, 1
    do it = 0, 1
      its = 1 + it*(nx/2); ite = merge(nx, nx/2, it == 1)
      jts = 1 + jt*(ny/2); jte = merge(ny, ny/2, jt == 1)
      call horiz_diff(field, ref, xkh, msfx, rdz, 0.25, 1, nx, 1, ny, 1, nz, &
                      ims, ime, jms, jme, kms, kme, its, ite, jts, jte, 1, nz)
      ! The bounds the caller computes, as --rewrite would pass them.
      i_start = max(its, 1 + 1); i_end = min(ite, nx - 2)
      j_start = max(jts, 1 + 1); j_end = min(jte, ny - 2)
      k_end = min(nz, nz - 1)
      call hdiff(field, out, xkh, msfx, rdz, 0.25, ims, ime, jms, jme, kms, kme, 1, &
                 i_start, i_end, j_start, j_end, k_end)
    end do
  end do
  if (any(out /= ref)) then
    print '(a, es10.3)', 'wrftile3d: largest difference ', maxval(abs(out - ref))
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'wrftile3d: bitwise equal'
  print '(a)', 'PASSED'
end program wrftile3d_check
