! smooth2d_main.f90's four steps of smooth, with the grids kept on the GPU:
! MODE "exchange" calls smooth_exchange then smooth, "overlap" calls
! smooth_mpi, both inside a data region and without any update between the
! steps (the steps alternate between u and v instead of copying v back on
! the host); "host" does the same with no data region, on the CPU. Rank 0
! writes the gathered grid to OUT and prints the host-device copies of grids
! the steps made.
!   mpirun -np P ./check PX PY PERIODIC OUT MODE
program check
  use mpi
  use iso_c_binding, only: c_size_t
  use f2s_smooth2d, only: smooth, smooth_exchange, smooth_mpi, f2s_smooth2d_data_enter, &
                          f2s_smooth2d_data_exit, f2s_smooth2d_data_transfers
  implicit none
  integer, parameter :: gx = 37, gy = 23
  integer :: ierr, me, np, comm, dims(2), coords(2), ox, oy, nx, ny, i, j, it, r, info(4)
  integer :: status(MPI_STATUS_SIZE)
  integer(8) :: before, moved
  logical :: periods(2), owned, outside
  character(len=256) :: arg, out, mode
  real(8), allocatable :: u(:, :), v(:, :), prof(:), glob(:, :), part(:, :)
  call mpi_init(ierr)
  call get_command_argument(1, arg)
  read (arg, *) dims(1)
  call get_command_argument(2, arg)
  read (arg, *) dims(2)
  call get_command_argument(3, arg)
  periods = trim(arg) == '1'
  call get_command_argument(4, out)
  call get_command_argument(5, mode)
  call mpi_cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., comm, ierr)
  call mpi_comm_rank(comm, me, ierr)
  call mpi_comm_size(comm, np, ierr)
  call mpi_cart_coords(comm, me, 2, coords, ierr)
  ox = gx*coords(1)/dims(1)
  nx = gx*(coords(1) + 1)/dims(1) - ox
  oy = gy*coords(2)/dims(2)
  ny = gy*(coords(2) + 1)/dims(2) - oy
  allocate (u(0:nx+1, 0:ny+1), v(0:nx+1, 0:ny+1), prof(0:ny+1))
  do j = 0, ny + 1
    outside = oy + j < 1 .or. oy + j > gy
    prof(j) = merge(0.3d0 + 0.01d0*mod(oy + j + 40, 7), 1.0d30, (j >= 1 .and. j <= ny) &
                    .or. (outside .and. .not. periods(2)))
    do i = 0, nx + 1
      owned = i >= 1 .and. i <= nx .and. j >= 1 .and. j <= ny
      outside = ox + i < 1 .or. ox + i > gx .or. oy + j < 1 .or. oy + j > gy
      u(i, j) = merge(sin(0.37d0*(ox + i)) + cos(0.21d0*(oy + j)), 1.0d30, &
                      owned .or. (outside .and. .not. any(periods)))
    end do
  end do
  ! v's fixed boundary is u's, as the second step reads it.
  v = u
  if (mode /= 'host') then
    call f2s_smooth2d_data_enter(u, int(8*size(u), c_size_t))
    call f2s_smooth2d_data_enter(v, int(8*size(v), c_size_t))
    call f2s_smooth2d_data_enter(prof, int(8*size(prof), c_size_t))
  end if
  before = f2s_smooth2d_data_transfers()
  do it = 1, 4
    if (mod(it, 2) == 1) then
      call step(u, v)
    else
      call step(v, u)
    end if
  end do
  moved = f2s_smooth2d_data_transfers() - before
  if (mode /= 'host') then
    call f2s_smooth2d_data_exit(u, int(8*size(u), c_size_t))
    call f2s_smooth2d_data_exit(v, int(8*size(v), c_size_t))
    call f2s_smooth2d_data_exit(prof, int(8*size(prof), c_size_t))
  end if
  if (me == 0) then
    print '(a, i0)', 'transfers ', moved
    allocate (glob(gx, gy))
    glob(ox+1:ox+nx, oy+1:oy+ny) = u(1:nx, 1:ny)
    do r = 1, np - 1
      call mpi_recv(info, 4, MPI_INTEGER, r, 1, comm, status, ierr)
      allocate (part(info(2), info(4)))
      call mpi_recv(part, size(part), MPI_DOUBLE_PRECISION, r, 2, comm, status, ierr)
      glob(info(1)+1:info(1)+info(2), info(3)+1:info(3)+info(4)) = part
      deallocate (part)
    end do
    open (10, file=out, access='stream', form='unformatted', status='replace')
    write (10) glob
    close (10)
  else
    info = [ox, nx, oy, ny]
    call mpi_send(info, 4, MPI_INTEGER, 0, 1, comm, ierr)
    allocate (part(nx, ny))
    part = u(1:nx, 1:ny)
    call mpi_send(part, size(part), MPI_DOUBLE_PRECISION, 0, 2, comm, ierr)
  end if
  call mpi_finalize(ierr)
contains
  subroutine step(a, b)
    real(8), intent(inout) :: a(0:, 0:), b(0:, 0:)
    if (mode == 'overlap') then
      call smooth_mpi(comm, nx, ny, a, prof, b)
    else
      call smooth_exchange(comm, nx, ny, a, prof, b)
      call smooth(nx, ny, a, prof, b)
    end if
  end subroutine step
end program check
