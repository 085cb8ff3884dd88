! swc: the 2D shallow-water equations on a doubly periodic f-plane, on the
! staggered C grid, in the vector-invariant form with the potential
! vorticity and the Bernoulli function (energy conserving in space), a
! leapfrog step and a Robert-Asselin filter.
!
!   p(i,j)  geopotential (g times the depth) at cell centres
!   u(i,j)  x velocity on the east face of cell (i,j)
!   v(i,j)  y velocity on the north face of cell (i,j)
!   z(i,j)  potential vorticity at the north-east corner of cell (i,j)
!
! Every field has one ghost cell on each side, filled by the periodic
! boundary update after each kernel that writes it. A step is seven loop
! nests in six subroutines, called from the main time loop; every nout
! steps the total energy is summed and printed.
!
! usage: swc [m n [itmax [nout]]]        (default 127 95 40 10)
!
! The periodic boundary nests are annotated as they were first written:
! planes at run-time positions (f(m+1,j)), which f2stencil accepts since
! issue 38 (bench/apps/README.md).
module swc_state
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  integer :: m, n
  real(dp) :: dt, dx, dy, fcor, alpha, p0
  real(dp), dimension(:,:), allocatable :: u, v, p, unew, vnew, pnew, uold, vold, pold
  real(dp), dimension(:,:), allocatable :: cu, cv, z, h, psi
end module swc_state

module swc_kernels
  use swc_state
  implicit none
contains

  ! Mass fluxes through the cell faces.
  subroutine mass_flux
    integer :: i, j
!$omp parallel do private(i)
!$f2s stencil name(sw_flux)
    do j = 1, n
      do i = 1, m
        cu(i,j) = 0.5_dp*(p(i,j) + p(i+1,j))*u(i,j)
        cv(i,j) = 0.5_dp*(p(i,j) + p(i,j+1))*v(i,j)
      end do
    end do
  end subroutine mass_flux

  ! Potential vorticity (f + relative vorticity over the depth) at the
  ! corners.
  subroutine potvort
    integer :: i, j
    real(dp) :: rdx, rdy
    rdx = 1.0_dp/dx
    rdy = 1.0_dp/dy
!$omp parallel do private(i)
!$f2s stencil name(sw_pv)
    do j = 1, n
      do i = 1, m
        z(i,j) = (fcor + (v(i+1,j) - v(i,j))*rdx - (u(i,j+1) - u(i,j))*rdy) &
               / (0.25_dp*(p(i,j) + p(i+1,j) + p(i+1,j+1) + p(i,j+1)))
      end do
    end do
  end subroutine potvort

  ! Bernoulli function: geopotential plus kinetic energy at the centres.
  subroutine bernoulli
    integer :: i, j
!$omp parallel do private(i)
!$f2s stencil name(sw_bern)
    do j = 1, n
      do i = 1, m
        h(i,j) = p(i,j) + 0.25_dp*(u(i,j)*u(i,j) + u(i-1,j)*u(i-1,j) &
                                 + v(i,j)*v(i,j) + v(i,j-1)*v(i,j-1))
      end do
    end do
  end subroutine bernoulli

  ! Leapfrog (forward on the first step) updates of u, v and p over tdt.
  subroutine step_u(tdt)
    real(dp), intent(in) :: tdt
    integer :: i, j
    real(dp) :: tdts8, tdtsdx
    tdts8 = 0.125_dp*tdt
    tdtsdx = tdt/dx
!$omp parallel do private(i)
!$f2s stencil name(sw_stepu)
    do j = 1, n
      do i = 1, m
        unew(i,j) = uold(i,j) + tdts8*(z(i,j) + z(i,j-1)) &
                  *(cv(i,j) + cv(i+1,j) + cv(i,j-1) + cv(i+1,j-1)) &
                  - tdtsdx*(h(i+1,j) - h(i,j))
      end do
    end do
  end subroutine step_u

  subroutine step_v(tdt)
    real(dp), intent(in) :: tdt
    integer :: i, j
    real(dp) :: tdts8, tdtsdy
    tdts8 = 0.125_dp*tdt
    tdtsdy = tdt/dy
!$omp parallel do private(i)
!$f2s stencil name(sw_stepv)
    do j = 1, n
      do i = 1, m
        vnew(i,j) = vold(i,j) - tdts8*(z(i,j) + z(i-1,j)) &
                  *(cu(i,j) + cu(i-1,j) + cu(i,j+1) + cu(i-1,j+1)) &
                  - tdtsdy*(h(i,j+1) - h(i,j))
      end do
    end do
  end subroutine step_v

  subroutine step_p(tdt)
    real(dp), intent(in) :: tdt
    integer :: i, j
    real(dp) :: tdtsdx, tdtsdy
    tdtsdx = tdt/dx
    tdtsdy = tdt/dy
!$omp parallel do private(i)
!$f2s stencil name(sw_stepp)
    do j = 1, n
      do i = 1, m
        pnew(i,j) = pold(i,j) - tdtsdx*(cu(i,j) - cu(i-1,j)) - tdtsdy*(cv(i,j) - cv(i,j-1))
      end do
    end do
  end subroutine step_p

  ! Robert-Asselin filter of the middle time level, and the shift of the
  ! three levels, over the ghost cells too (they are consistent already).
  subroutine time_filter(alf)
    real(dp), intent(in) :: alf
    integer :: i, j
!$omp parallel do private(i)
!$f2s stencil name(sw_filter)
    do j = 0, n + 1
      do i = 0, m + 1
        uold(i,j) = u(i,j) + alf*(unew(i,j) - 2.0_dp*u(i,j) + uold(i,j))
        vold(i,j) = v(i,j) + alf*(vnew(i,j) - 2.0_dp*v(i,j) + vold(i,j))
        pold(i,j) = p(i,j) + alf*(pnew(i,j) - 2.0_dp*p(i,j) + pold(i,j))
        u(i,j) = unew(i,j)
        v(i,j) = vnew(i,j)
        p(i,j) = pnew(i,j)
      end do
    end do
  end subroutine time_filter

  ! Periodic ghost cells of one field: the columns first, then the rows
  ! with the ghost columns, so the corners come out right.
  subroutine periodic(f)
    real(dp), intent(inout) :: f(0:, 0:)
    integer :: i, j
!$omp parallel do
!$f2s stencil name(sw_bc_x)
    do j = 1, n
      f(0,j) = f(m,j)
      f(m+1,j) = f(1,j)
    end do
!$omp parallel do
!$f2s stencil name(sw_bc_y)
    do i = 0, m + 1
      f(i,0) = f(i,n)
      f(i,n+1) = f(i,1)
    end do
  end subroutine periodic

  ! Kinetic and potential energy per unit area (g absorbed in p).
  subroutine energy(ek, ep)
    real(dp), intent(out) :: ek, ep
    integer :: i, j
    ek = 0.0_dp
    ep = 0.0_dp
!$omp parallel do private(i) reduction(+:ek, ep)
!$f2s stencil name(sw_energy)
    do j = 1, n
      do i = 1, m
        ek = ek + 0.25_dp*p(i,j)*(u(i,j)*u(i,j) + u(i-1,j)*u(i-1,j) &
                                + v(i,j)*v(i,j) + v(i,j-1)*v(i,j-1))
        ep = ep + 0.5_dp*p(i,j)*p(i,j)
      end do
    end do
    ek = ek/dble(m*n)
    ep = ep/dble(m*n)
  end subroutine energy

  ! A jet and a wave from a stream function: u, v nondivergent, p in
  ! geostrophic balance with them.
  subroutine initial
    integer :: i, j
    real(dp) :: ax, ay, amp, pi2
    pi2 = 8.0_dp*atan(1.0_dp)
    ax = pi2/dble(m)
    ay = pi2/dble(n)
    amp = 5.0e7_dp
!$omp parallel do private(i)
!$f2s stencil name(sw_init_psi)
    do j = 0, n + 1
      do i = 0, m + 1
        psi(i,j) = amp*(sin(ax*(dble(i) + 0.5_dp))*sin(ay*(dble(j) + 0.5_dp)) &
                 + 0.3_dp*cos(2.0_dp*ay*(dble(j) + 0.5_dp)))
      end do
    end do
!$omp parallel do private(i)
!$f2s stencil name(sw_init_uvp)
    do j = 1, n + 1
      do i = 1, m + 1
        u(i,j) = -(psi(i,j) - psi(i,j-1))/dy
        v(i,j) = (psi(i,j) - psi(i-1,j))/dx
        p(i,j) = p0 + fcor*0.25_dp*(psi(i,j) + psi(i-1,j) + psi(i,j-1) + psi(i-1,j-1))
        uold(i,j) = 0.0_dp
        vold(i,j) = 0.0_dp
        pold(i,j) = 0.0_dp
      end do
    end do
  end subroutine initial

end module swc_kernels

program swc
  use swc_state
  use swc_kernels
  implicit none
  integer :: itmax, nout, ncycle, i, j, nargs
  integer(8) :: t0, t1, rate
  real(dp) :: tdt, ek, ep, e0, wall, usum, vsum, psum
  character(len=32) :: arg
  character(len=32) :: s(8)

  call system_clock(t0, rate)
  m = 127; n = 95; itmax = 40; nout = 10
  nargs = command_argument_count()
  if (nargs >= 2) then
    call get_command_argument(1, arg); read (arg, *) m
    call get_command_argument(2, arg); read (arg, *) n
  end if
  if (nargs >= 3) then
    call get_command_argument(3, arg); read (arg, *) itmax
  end if
  if (nargs >= 4) then
    call get_command_argument(4, arg); read (arg, *) nout
  end if
  ! a basin of 40000 km each way whatever the grid; the step keeps the
  ! gravity-wave Courant number of the leapfrog (2 dt) at 0.5
  dx = 4.0e7_dp/dble(m)
  dy = 4.0e7_dp/dble(n)
  p0 = 5.0e4_dp
  dt = 0.25_dp*min(dx, dy)/sqrt(p0)
  fcor = 1.0e-4_dp
  alpha = 0.001_dp

  allocate(u(0:m+1, 0:n+1), v(0:m+1, 0:n+1), p(0:m+1, 0:n+1))
  allocate(unew, vnew, pnew, uold, vold, pold, cu, cv, z, h, psi, mold=u)
  unew = 0; vnew = 0; pnew = 0; cu = 0; cv = 0; z = 0; h = 0

  call initial
  call periodic(u)
  call periodic(v)
  call periodic(p)
  uold = u
  vold = v
  pold = p
  call energy(ek, ep)
  e0 = ek + ep

  tdt = dt
  do ncycle = 1, itmax
    call mass_flux
    call periodic(cu)
    call periodic(cv)
    call potvort
    call bernoulli
    call periodic(z)
    call periodic(h)
    call step_u(tdt)
    call step_v(tdt)
    call step_p(tdt)
    call periodic(unew)
    call periodic(vnew)
    call periodic(pnew)
    if (ncycle == 1) then
      call time_filter(0.0_dp)
    else
      call time_filter(alpha)
    end if
    tdt = 2.0_dp*dt
    if (mod(ncycle, nout) == 0) then
      call energy(ek, ep)
      write (s(1), '(es24.16e3)') ek + ep
      write (s(2), '(es12.4e2)') (ek + ep - e0)/e0
      write (*, '(a,i0,4a)') 'ENERGY step=', ncycle, ' total=', trim(adjustl(s(1))), &
        ' drift=', trim(adjustl(s(2)))
    end if
  end do
  call energy(ek, ep)

  usum = 0; vsum = 0; psum = 0
  do j = 1, n
    do i = 1, m
      usum = usum + abs(u(i,j))
      vsum = vsum + abs(v(i,j))
      psum = psum + p(i,j)
    end do
  end do
  call system_clock(t1)
  wall = dble(t1 - t0)/dble(rate)
  write (s(1), '(f0.4)') wall
  write (s(2), '(f0.2)') dble(m)*dble(n)*dble(itmax)/wall*1.0e-6_dp
  write (s(3), '(es24.16e3)') ek + ep
  write (s(4), '(es24.16e3)') psum
  write (s(5), '(es24.16e3)') usum
  write (s(6), '(es24.16e3)') vsum
  write (*, '(a,i0,a,i0,a,i0,13a)') 'RESULT app=swc size=', m, 'x', n, ' iters=', itmax, &
    ' wall_s=', trim(adjustl(s(1))), ' fom=', trim(adjustl(s(2))), ' fom_unit=MLUP/s', &
    ' energy=', trim(adjustl(s(3))), ' psum=', trim(adjustl(s(4))), ' usum=', trim(adjustl(s(5))), &
    ' vsum=', trim(adjustl(s(6)))
end program swc
