! Calls the original subroutine and the f2stencil library procedure on the
! same random data and reports the largest relative difference.
!   usage: himeno19_check [nx ny nz]     (default 64 48 40)
program himeno19_check
  use f2s_himeno19, only: himeno19
  implicit none
  integer :: nx = 64, ny = 48, nz = 40
  real(8), allocatable, dimension(:,:,:) :: p, a0, a1, a2, a3, b0, b1, b2, c0, c1, c2, wrk1, bnd
  real(8), allocatable :: ref(:,:,:), out(:,:,:)
  real(8) :: omega = 0.8d0, err
  character(len=32) :: arg

  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
    call get_command_argument(3, arg); read (arg, *) nz
  end if
  allocate(p(0:nx+1, 0:ny+1, 0:nz+1), wrk1(0:nx+1, 0:ny+1, 0:nz+1), bnd(0:nx+1, 0:ny+1, 0:nz+1))
  allocate(a0, a1, a2, a3, b0, b1, b2, c0, c1, c2, ref, out, mold=p)
  ! Random coefficients rather than Himeno's constant ones, so that a
  ! coefficient grid read at the wrong point shows up in the difference.
  call random_number(p)
  call random_number(a0)
  call random_number(a1)
  call random_number(a2)
  call random_number(a3)
  call random_number(b0)
  call random_number(b1)
  call random_number(b2)
  call random_number(c0)
  call random_number(c1)
  call random_number(c2)
  call random_number(wrk1)
  call random_number(bnd)
  ! Random output contents check that the halo is left as it was.
  call random_number(ref)
  out = ref

  call himeno_jacobi(nx, ny, nz, omega, p, a0, a1, a2, a3, b0, b1, b2, c0, c1, c2, wrk1, bnd, ref)
  call himeno19(nx, ny, nz, omega, p, a0, a1, a2, a3, b0, b1, b2, c0, c1, c2, wrk1, bnd, out)

  err = maxval(abs(out - ref)) / maxval(abs(ref))
  print '(a, 3i6, a, es10.3)', 'himeno19', nx, ny, nz, ': largest relative difference ', err
  if (err > 1d-12) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program himeno19_check
