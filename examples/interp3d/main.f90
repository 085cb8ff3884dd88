! Adds a random coarse-grid correction (zero on the coarse boundary) to a
! random fine grid with the original subroutine and with the f2stencil
! library procedure and reports the largest relative difference. The fine
! grid has nf = 2*nc + 1 interior points per axis.
!   usage: interp3d_check [nc1 nc2 nc3]     (default 40 31 24)
program interp3d_check
  use f2s_interp3d, only: interp3d
  implicit none
  integer :: nc1 = 40, nc2 = 31, nc3 = 24, nf1, nf2, nf3
  real(8), allocatable :: e(:,:,:), ref(:,:,:), out(:,:,:)
  real(8) :: err
  character(len=32) :: arg

  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) nc1
    call get_command_argument(2, arg); read (arg, *) nc2
    call get_command_argument(3, arg); read (arg, *) nc3
  end if
  nf1 = 2*nc1 + 1
  nf2 = 2*nc2 + 1
  nf3 = 2*nc3 + 1
  allocate(e(0:nc1+1, 0:nc2+1, 0:nc3+1))
  allocate(ref(0:nf1+1, 0:nf2+1, 0:nf3+1), out(0:nf1+1, 0:nf2+1, 0:nf3+1))
  call random_number(e)
  e(0, :, :) = 0d0
  e(nc1+1, :, :) = 0d0
  e(:, 0, :) = 0d0
  e(:, nc2+1, :) = 0d0
  e(:, :, 0) = 0d0
  e(:, :, nc3+1) = 0d0
  call random_number(ref)
  out = ref

  call interp(nc1, nc2, nc3, nf1, nf2, nf3, e, ref)
  call interp3d(nc1, nc2, nc3, nf1, nf2, nf3, e, out)

  err = maxval(abs(out - ref)) / maxval(abs(ref))
  print '(a, 3i6, a, es10.3)', 'interp3d', nc1, nc2, nc3, ': largest relative difference ', err
  if (err > 1d-12) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program interp3d_check
