! Calls the original subroutine and the library procedure on the same random
! data, with several and no species and bins, and requires bitwise equal
! results.
program deepnest5d_check
  use f2s_deepnest5d, only: chem5d
  implicit none
  integer :: nx = 11, ny = 6, nz = 5, c
  integer, parameter :: nsp(3) = [3, 0, 2], nbin(3) = [2, 4, 0]
  real(8), allocatable :: q(:,:,:,:,:), ref(:,:,:,:,:), out(:,:,:,:,:)
  real(8) :: err
  character(len=32) :: arg
  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
    call get_command_argument(3, arg); read (arg, *) nz
  end if
  err = 0d0
  do c = 1, size(nsp)
    allocate(q(0:nx+1, 0:nz+1, 0:ny+1, nsp(c), nbin(c)))
    allocate(ref(nx, nz, ny, nsp(c), nbin(c)), out(nx, nz, ny, nsp(c), nbin(c)))
    call random_number(q)
    call random_number(ref)
    out = ref
    call chemstep(nx, ny, nz, nsp(c), nbin(c), 0.1d0, q, ref)
    call chem5d(nx, ny, nz, nsp(c), nbin(c), 0.1d0, q, out)
    if (size(ref) > 0) err = max(err, maxval(abs(out - ref)))
    deallocate(q, ref, out)
  end do
  print '(a, es10.3)', 'deepnest5d: largest difference ', err
  if (err /= 0d0) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program deepnest5d_check
