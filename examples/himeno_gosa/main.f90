! Calls the original subroutine and the f2stencil library procedure on the
! same random data: the grid must agree exactly, the residual gosa (a sum over
! the nest, added in another order by threads) to rounding.
!   usage: himeno_gosa_check [nx ny nz]     (default 64 48 40)
program himeno_gosa_check
  use f2s_himeno_gosa, only: himeno_gosa
  implicit none
  integer :: nx = 64, ny = 48, nz = 40
  real(8), allocatable, dimension(:,:,:) :: p, a0, a1, a2, a3, b0, b1, b2, c0, c1, c2, wrk1, bnd
  real(8), allocatable :: ref(:,:,:), out(:,:,:)
  real(8) :: omega = 0.8d0, gosa_ref, gosa_out, gosa_again, err
  character(len=32) :: arg

  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
    call get_command_argument(3, arg); read (arg, *) nz
  end if
  allocate(p(0:nx+1, 0:ny+1, 0:nz+1), wrk1(0:nx+1, 0:ny+1, 0:nz+1), bnd(0:nx+1, 0:ny+1, 0:nz+1))
  allocate(a0, a1, a2, a3, b0, b1, b2, c0, c1, c2, ref, out, mold=p)
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
  call random_number(ref)
  out = ref
  ! A starting value that is not zero: the result is gosa + the sum.
  gosa_ref = 0.75d0
  gosa_out = gosa_ref

  call himeno_gosa_step(nx, ny, nz, omega, p, a0, a1, a2, a3, b0, b1, b2, c0, c1, c2, wrk1, bnd, &
                        ref, gosa_ref)
  call himeno_gosa(nx, ny, nz, omega, p, a0, a1, a2, a3, b0, b1, b2, c0, c1, c2, wrk1, bnd, out, &
                   gosa_out)

  ! For one thread count, a second run from the same start agrees exactly.
  gosa_again = 0.75d0
  call himeno_gosa(nx, ny, nz, omega, p, a0, a1, a2, a3, b0, b1, b2, c0, c1, c2, wrk1, bnd, out, &
                   gosa_again)
  if (gosa_again /= gosa_out) then
    print '(a)', 'FAILED: two runs gave different sums'
    stop 1
  end if

  err = abs(gosa_out - gosa_ref) / abs(gosa_ref)
  print '(a, 3i6, a, es10.3, a, l1)', 'himeno_gosa', nx, ny, nz, &
      ': relative difference of gosa ', err, ', grid identical ', all(out == ref)
  ! A sum of n positive terms in another order: within n units of rounding.
  if (any(out /= ref) .or. err > 1d-10) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program himeno_gosa_check
