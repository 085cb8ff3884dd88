! The Fortran side of bench/cpu/gap: allocatable grids initialised by the
! main thread, as a program does, then CALLS iterations of the sweep and the
! copy back of the interior. Built against the f2stencil library (-DF2S, the
! module's procedure) or against poisson19.f90 itself (serially, or with the
! OpenMP directive run.sh inserts). Prints the median time of a sweep call and
! of an iteration.
program gap_main
#ifdef F2S
  use f2s_poisson19
#endif
  implicit none
  integer :: mx, my, mz, calls, it, k
  integer(8) :: count0, count1, rate
  character(len=32) :: arg
  real(4), allocatable :: p(:,:,:), a(:,:,:,:), b(:,:,:,:), c(:,:,:,:)
  real(4), allocatable :: wrk1(:,:,:), bnd(:,:,:), wrk2(:,:,:)
  real(8), allocatable :: tcall(:), titer(:)
  real(8) :: points
  call get_command_argument(1, arg); read (arg, *) mx
  call get_command_argument(2, arg); read (arg, *) my
  call get_command_argument(3, arg); read (arg, *) mz
  call get_command_argument(4, arg); read (arg, *) calls
  allocate (p(mx,my,mz), a(mx,my,mz,4), b(mx,my,mz,3), c(mx,my,mz,3))
  allocate (wrk1(mx,my,mz), bnd(mx,my,mz), wrk2(mx,my,mz), tcall(calls), titer(calls))
  do k = 1, mz
    p(:,:,k) = real((k-1)*(k-1), 4) / real((mz-1)*(mz-1), 4)
  end do
  a(:,:,:,1:3) = 1.0; a(:,:,:,4) = 1.0 / 6.0
  b = 0.0; c = 1.0; wrk1 = 0.0; bnd = 1.0; wrk2 = p
  do it = 1, calls
    call system_clock(count0, rate)
    call jacobi19(mx, my, mz, 0.8, p, a, b, c, wrk1, bnd, wrk2)
    call system_clock(count1)
    tcall(it) = real(count1 - count0, 8) / rate
    p(2:mx-1, 2:my-1, 2:mz-1) = wrk2(2:mx-1, 2:my-1, 2:mz-1)
    call system_clock(count0)
    titer(it) = real(count0 - count1, 8) / rate + tcall(it)
  end do
  call sort(tcall); call sort(titer)
  points = real(mx-2, 8) * (my-2) * (mz-2)
  write (*, '(a, f9.3, a, f8.2, a, f9.3, a, es14.7)') 'call ', tcall(calls/2+1)*1d3, ' ms ', &
    34 * points / tcall(calls/2+1) * 1d-9, ' GFlop/s; iteration ', titer(calls/2+1)*1d3, &
    ' ms; p(mid) ', p(mx/2, my/2, mz/2)
contains
  subroutine sort(x)
    real(8), intent(inout) :: x(:)
    integer :: i, j
    real(8) :: s
    do i = 1, size(x)
      do j = i + 1, size(x)
        if (x(j) < x(i)) then
          s = x(i); x(i) = x(j); x(j) = s
        end if
      end do
    end do
  end subroutine
end program
