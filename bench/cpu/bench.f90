! Times one operator of Kamil et al. one way, at n^3 (double), and prints one
! line for table.py:
!   BENCH mode=M kernel=K n=N reps=R threads=T median_s=... min_s=... max_s=... checksum=...
! usage: stencil_bench MODE KERNEL N [REPS]
!   MODE   serial: the examples' original subroutine, compiled with gfortran -O3;
!          omp:    the same loop with `!$omp parallel do` (omp_kernels.f90);
!          f2s:    the f2stencil library procedure (whichever libf2s_K.so the
!                  dynamic linker finds: untuned or tuned).
!   KERNEL laplacian | divergence | gradient
! Every mode allocates the same arrays, (0:n+1)^3, and first-touches them with
! the OpenMP loop of omp_kernels.f90, so layout and placement are the same.
! One warm-up call, then REPS timed calls (default 7); the median is the result.
program stencil_bench
  use omp_lib, only: omp_get_wtime, omp_get_max_threads
  use omp_kernels, only: first_touch, omp_laplacian, omp_divergence, omp_gradient
  use f2s_laplacian, only: f2s_lap => laplacian
  use f2s_divergence, only: f2s_div => divergence
  use f2s_gradient, only: f2s_grad => gradient
  implicit none
  character(len=32) :: mode, kernel, arg
  integer :: n, reps = 7, r, threads
  real(8), allocatable :: u(:,:,:), x(:,:,:), y(:,:,:), z(:,:,:), times(:)
  real(8), parameter :: alpha = 0.4d0, beta = 0.1d0, gamma = 0.125d0
  real(8) :: t0, checksum
  character(len=16) :: env

  if (command_argument_count() < 3) then
    print '(a)', 'usage: stencil_bench serial|omp|f2s laplacian|divergence|gradient N [REPS]'
    stop 2
  end if
  call get_command_argument(1, mode)
  call get_command_argument(2, kernel)
  call get_command_argument(3, arg); read (arg, *) n
  if (command_argument_count() >= 4) then
    call get_command_argument(4, arg); read (arg, *) reps
  end if
  if (mode /= 'serial' .and. mode /= 'omp' .and. mode /= 'f2s') stop 'unknown mode'
  if (kernel /= 'laplacian' .and. kernel /= 'divergence' .and. kernel /= 'gradient') &
    stop 'unknown kernel'

  allocate(u(0:n+1, 0:n+1, 0:n+1), x(0:n+1, 0:n+1, 0:n+1), times(reps))
  call first_touch(n, 1.0d0, u)
  call first_touch(n, 2.0d0, x)
  if (kernel /= 'laplacian') then
    allocate(y(0:n+1, 0:n+1, 0:n+1), z(0:n+1, 0:n+1, 0:n+1))
    call first_touch(n, 3.0d0, y)
    call first_touch(n, 4.0d0, z)
  end if

  do r = 0, reps
    t0 = omp_get_wtime()
    call sweep()
    if (r > 0) times(r) = omp_get_wtime() - t0
  end do

  ! The outputs of the last sweep, summed in a fixed order, so that the table
  ! can check every mode computed the same thing. Absolute values: the sum of
  ! a difference operator's values nearly cancels, which would magnify rounding.
  select case (kernel)
  case ('laplacian')
    checksum = sum(abs(x(1:n, 1:n, 1:n)))
  case ('divergence')
    checksum = sum(abs(u(1:n, 1:n, 1:n)))
  case default
    checksum = sum(abs(x(1:n, 1:n, 1:n))) + sum(abs(y(1:n, 1:n, 1:n))) + sum(abs(z(1:n, 1:n, 1:n)))
  end select

  threads = 1
  if (mode == 'omp') threads = omp_get_max_threads()
  if (mode == 'f2s') then
    ! The library's own count (the tuned one) unless F2S_NUM_THREADS overrides it.
    threads = 0
    call get_environment_variable('F2S_NUM_THREADS', env)
    if (len_trim(env) > 0) read (env, *) threads
  end if
  call sort(times)
  print '(a, a, a, a, a, i0, a, i0, a, i0, 8a)', 'BENCH mode=', trim(mode), ' kernel=', &
    trim(kernel), ' n=', n, ' reps=', reps, ' threads=', threads, ' median_s=', &
    num(median(times)), ' min_s=', num(times(1)), ' max_s=', num(times(reps)), ' checksum=', &
    num(checksum)

contains

  subroutine sweep()
    select case (trim(kernel) // '/' // trim(mode))
    case ('laplacian/serial')
      call smooth(n, n, n, alpha, beta, u, x)
    case ('laplacian/omp')
      call omp_laplacian(n, n, n, alpha, beta, u, x)
    case ('laplacian/f2s')
      call f2s_lap(n, n, n, alpha, beta, u, x)
    case ('divergence/serial')
      call div(n, n, n, alpha, beta, gamma, x, y, z, u)
    case ('divergence/omp')
      call omp_divergence(n, n, n, alpha, beta, gamma, x, y, z, u)
    case ('divergence/f2s')
      call f2s_div(n, n, n, alpha, beta, gamma, x, y, z, u)
    case ('gradient/serial')
      call grad(n, n, n, alpha, beta, gamma, u, x, y, z)
    case ('gradient/omp')
      call omp_gradient(n, n, n, alpha, beta, gamma, u, x, y, z)
    case ('gradient/f2s')
      call f2s_grad(n, n, n, alpha, beta, gamma, u, x, y, z)
    end select
  end subroutine sweep

  subroutine sort(a)
    real(8), intent(inout) :: a(:)
    integer :: i, j
    real(8) :: t
    do i = 2, size(a)
      t = a(i)
      j = i - 1
      do while (j >= 1)
        if (a(j) <= t) exit
        a(j + 1) = a(j)
        j = j - 1
      end do
      a(j + 1) = t
    end do
  end subroutine sort

  ! A number with no blanks, for the key=value line.
  function num(v) result(s)
    real(8), intent(in) :: v
    character(len=:), allocatable :: s
    character(len=32) :: buf
    write (buf, '(es23.16)') v
    s = trim(adjustl(buf))
  end function num

  real(8) function median(a)
    real(8), intent(in) :: a(:)
    integer :: m
    m = size(a)
    if (mod(m, 2) == 1) then
      median = a(m/2 + 1)
    else
      median = 0.5d0*(a(m/2) + a(m/2 + 1))
    end if
  end function median
end program stencil_bench
