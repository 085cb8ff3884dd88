! Calls the original subroutine and the f2stencil library procedure on the
! same random data and requires bitwise equal tendencies.
!   usage: mapfactor3d_check [ni nk nj]     (default 64 40 48)
program mapfactor3d_check
  use f2s_mapfactor3d, only: mapfactor3d
  implicit none
  integer :: ni = 64, nk = 40, nj = 48
  integer, parameter :: ids = 2, kds = 1, jds = 0
  integer :: ide, kde, jde
  real(8), allocatable :: msfx(:,:), msfy(:,:), rdzw(:), fnm(:), coef(:,:,:,:), w(:,:,:)
  real(8), allocatable :: ref(:,:,:,:), out(:,:,:,:)
  real(8) :: err
  character(len=32) :: arg

  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) ni
    call get_command_argument(2, arg); read (arg, *) nk
    call get_command_argument(3, arg); read (arg, *) nj
  end if
  ide = ids + ni - 1
  kde = kds + nk - 1
  jde = jds + nj - 1
  allocate(msfx(ids:ide, jds:jde), msfy(ids:ide, jds:jde), rdzw(kds:kde), fnm(kds:kde))
  allocate(coef(ids:ide, kds:kde, jds:jde, 3), w(ids-1:ide+1, kds-1:kde+1, jds-1:jde+1))
  allocate(ref(ids:ide, kds:kde, jds:jde, 2), out(ids:ide, kds:kde, jds:jde, 2))
  call random_number(msfx)
  call random_number(msfy)
  call random_number(rdzw)
  call random_number(fnm)
  call random_number(coef)
  call random_number(w)
  call random_number(ref)
  out = ref

  call w_tendency(ids, ide, kds, kde, jds, jde, 0.3d0, 0.7d0, msfx, msfy, rdzw, fnm, &
                  coef, w, ref)
  call mapfactor3d(ids, ide, kds, kde, jds, jde, 0.3d0, 0.7d0, msfx, msfy, rdzw, fnm, &
                   coef, w, out)

  err = maxval(abs(out - ref))
  print '(a, 3i6, a, es10.3)', 'mapfactor3d', ni, nk, nj, ': largest difference ', err
  if (err /= 0d0) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program mapfactor3d_check
