! poisson19: point-Jacobi iteration of the 19-point pressure-Poisson operator
! in single precision, in the layout incompressible-flow and benchmark codes
! use: coefficient fields a(i,j,k,1:4), b(i,j,k,1:3), c(i,j,k,1:3), a source
! term wrk1, a boundary mask bnd, a work array wrk2 for the new iterate, and
! the residual summed inside the iteration loop. The whole solve is one
! subroutine (jacobi) holding the loop over iterations.
!
! usage: poisson19 [mimax mjmax mkmax [nn]]     (default 65 33 33 20)
!
! Build switches (cpp): -DTIMELOOP marks the iteration loop itself as an
! f2stencil time loop (it holds only sweeps and scalars); -DAS_WRITTEN
! with it puts the cpp conditional around the directive alone, as first
! written (f2stencil's --rewrite refuses that today).
module ps_grid
  implicit none
  integer :: mimax, mjmax, mkmax
  integer :: imax, jmax, kmax
  real(4), parameter :: omega = 0.8
  real(4), dimension(:,:,:,:), allocatable :: a, b, c
  real(4), dimension(:,:,:), allocatable :: p, bnd, wrk1, wrk2
end module ps_grid

module ps_solver
  use ps_grid
  implicit none
contains

  subroutine grid_alloc
    allocate(p(mimax,mjmax,mkmax), bnd(mimax,mjmax,mkmax))
    allocate(wrk1(mimax,mjmax,mkmax), wrk2(mimax,mjmax,mkmax))
    allocate(a(mimax,mjmax,mkmax,4), b(mimax,mjmax,mkmax,3), c(mimax,mjmax,mkmax,3))
  end subroutine grid_alloc

  ! Coefficients of a mildly anisotropic operator with cross terms, and a
  ! pressure that rises quadratically with k; the values are exact in
  ! single precision so that every build starts from the same bits.
  subroutine initmt
    integer :: i, j, k
    real(4) :: rk

!$omp parallel do private(i, j, rk)
!$f2s stencil name(ps_init)
    do k = 1, mkmax
      do j = 1, mjmax
        do i = 1, mimax
          rk = real(k - 1)
          a(i,j,k,1) = 1.0
          a(i,j,k,2) = 1.0
          a(i,j,k,3) = 1.0
          a(i,j,k,4) = 1.0/6.25
          b(i,j,k,1) = 0.015625*real(mod(i + j, 3) - 1)
          b(i,j,k,2) = 0.015625*real(mod(j + k, 3) - 1)
          b(i,j,k,3) = 0.015625*real(mod(i + k, 3) - 1)
          c(i,j,k,1) = 1.0
          c(i,j,k,2) = 1.0
          c(i,j,k,3) = 1.0
          p(i,j,k) = rk*rk/real((kmax - 1)*(kmax - 1))
          wrk1(i,j,k) = 0.0009765625*real(mod(i*3 + j*5 + k*7, 11) - 5)
          bnd(i,j,k) = 1.0
          wrk2(i,j,k) = 0.0
        end do
      end do
    end do
  end subroutine initmt

  ! nn Jacobi sweeps; gosa is the sum of squared corrections of the last one.
  subroutine jacobi(nn, gosa)
    integer, intent(in) :: nn
    real(4), intent(inout) :: gosa
    integer :: i, j, k, loop
    real(4) :: s0, ss

#if defined(TIMELOOP) && defined(AS_WRITTEN)
!$f2s stencil timesteps name(ps_iterate)
#endif
#if defined(TIMELOOP) && !defined(AS_WRITTEN)
! f2stencil's --rewrite takes a cpp conditional around the directive alone
! for one that ends inside the region: the loop is written out in each branch
!$f2s stencil timesteps name(ps_iterate)
    do loop = 1, nn
      gosa = 0.0
!$omp parallel do private(i, j, s0, ss) reduction(+:gosa)
!$f2s stencil name(ps_jacobi)
      do k = 2, kmax - 1
        do j = 2, jmax - 1
          do i = 2, imax - 1
            s0 = a(i,j,k,1)*p(i+1,j,k) + a(i,j,k,2)*p(i,j+1,k) + a(i,j,k,3)*p(i,j,k+1) &
               + b(i,j,k,1)*(p(i+1,j+1,k) - p(i+1,j-1,k) - p(i-1,j+1,k) + p(i-1,j-1,k)) &
               + b(i,j,k,2)*(p(i,j+1,k+1) - p(i,j-1,k+1) - p(i,j+1,k-1) + p(i,j-1,k-1)) &
               + b(i,j,k,3)*(p(i+1,j,k+1) - p(i-1,j,k+1) - p(i+1,j,k-1) + p(i-1,j,k-1)) &
               + c(i,j,k,1)*p(i-1,j,k) + c(i,j,k,2)*p(i,j-1,k) + c(i,j,k,3)*p(i,j,k-1) &
               + wrk1(i,j,k)
            ss = (s0*a(i,j,k,4) - p(i,j,k))*bnd(i,j,k)
            gosa = gosa + ss*ss
            wrk2(i,j,k) = p(i,j,k) + omega*ss
          end do
        end do
      end do
      p(2:imax-1, 2:jmax-1, 2:kmax-1) = wrk2(2:imax-1, 2:jmax-1, 2:kmax-1)
    end do
#else
    do loop = 1, nn
      gosa = 0.0
!$omp parallel do private(i, j, s0, ss) reduction(+:gosa)
!$f2s stencil name(ps_jacobi)
      do k = 2, kmax - 1
        do j = 2, jmax - 1
          do i = 2, imax - 1
            s0 = a(i,j,k,1)*p(i+1,j,k) + a(i,j,k,2)*p(i,j+1,k) + a(i,j,k,3)*p(i,j,k+1) &
               + b(i,j,k,1)*(p(i+1,j+1,k) - p(i+1,j-1,k) - p(i-1,j+1,k) + p(i-1,j-1,k)) &
               + b(i,j,k,2)*(p(i,j+1,k+1) - p(i,j-1,k+1) - p(i,j+1,k-1) + p(i,j-1,k-1)) &
               + b(i,j,k,3)*(p(i+1,j,k+1) - p(i-1,j,k+1) - p(i+1,j,k-1) + p(i-1,j,k-1)) &
               + c(i,j,k,1)*p(i-1,j,k) + c(i,j,k,2)*p(i,j-1,k) + c(i,j,k,3)*p(i,j,k-1) &
               + wrk1(i,j,k)
            ss = (s0*a(i,j,k,4) - p(i,j,k))*bnd(i,j,k)
            gosa = gosa + ss*ss
            wrk2(i,j,k) = p(i,j,k) + omega*ss
          end do
        end do
      end do
!$omp parallel workshare
      p(2:imax-1, 2:jmax-1, 2:kmax-1) = wrk2(2:imax-1, 2:jmax-1, 2:kmax-1)
!$omp end parallel workshare
    end do
#endif
  end subroutine jacobi

end module ps_solver

program poisson19
  use ps_grid
  use ps_solver
  implicit none
  integer :: nn, i, j, k, nargs
  integer(8) :: t0, t1, rate
  real(4) :: gosa
  real(8) :: psum, wall, flop
  character(len=32) :: arg

  call system_clock(t0, rate)
  mimax = 65; mjmax = 33; mkmax = 33; nn = 20
  nargs = command_argument_count()
  if (nargs >= 3) then
    call get_command_argument(1, arg); read (arg, *) mimax
    call get_command_argument(2, arg); read (arg, *) mjmax
    call get_command_argument(3, arg); read (arg, *) mkmax
  end if
  if (nargs >= 4) then
    call get_command_argument(4, arg); read (arg, *) nn
  end if
  imax = mimax; jmax = mjmax; kmax = mkmax

  call grid_alloc
  call initmt
  gosa = 0.0
  call jacobi(nn, gosa)

  ! checksum of the pressure, in the loop order, in double precision
  psum = 0d0
  do k = 1, kmax
    do j = 1, jmax
      do i = 1, imax
        psum = psum + dble(p(i,j,k))
      end do
    end do
  end do
  call system_clock(t1)
  wall = dble(t1 - t0)/dble(rate)
  ! 34 operations a point, as the benchmark counts them
  flop = 34d0*dble(imax - 2)*dble(jmax - 2)*dble(kmax - 2)*dble(nn)
  write (*, '(a,i0,a,i0,a,i0,a,i0,a,a,a,a,a,a,a,a)') 'RESULT app=poisson19 size=', imax, 'x', &
    jmax, 'x', kmax, ' iters=', nn, ' wall_s=', fmt_f(wall), ' fom=', fmt_f(flop/wall*1d-9), &
    ' fom_unit=GFlop/s gosa=', fmt_e(dble(gosa), 8), ' psum=', fmt_e(psum, 16)

contains

  function fmt_f(x) result(s)
    real(8), intent(in) :: x
    character(len=:), allocatable :: s
    character(len=32) :: buf
    write (buf, '(f0.4)') x
    s = trim(adjustl(buf))
  end function fmt_f

  function fmt_e(x, d) result(s)
    real(8), intent(in) :: x
    integer, intent(in) :: d
    character(len=:), allocatable :: s
    character(len=40) :: buf
    character(len=16) :: f
    write (f, '(a,i0,a,i0,a)') '(es', d + 8, '.', d, 'e3)'
    write (buf, f) x
    s = trim(adjustl(buf))
  end function fmt_e

end program poisson19
