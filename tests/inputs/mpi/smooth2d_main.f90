! Runs four steps of smooth on a GX x GY grid split over the ranks of a
! DIMS(1) x DIMS(2) Cartesian communicator (periodic or not, uneven parts),
! gathers the grid on rank 0 and writes it to OUT. MODE "exchange" calls
! smooth_exchange then smooth; "overlap" calls smooth_mpi, which computes the
! interior while the halo travels. Run with one rank and with several: the
! files must be equal byte for byte.
!   mpirun -np P ./check PX PY PERIODIC OUT MODE
program check
  use mpi
  use f2s_smooth2d, only: smooth, smooth_exchange, smooth_mpi
  implicit none
  integer, parameter :: gx = 37, gy = 23
  integer :: ierr, me, np, comm, dims(2), coords(2), ox, oy, nx, ny, i, j, it, r, info(4)
  integer :: status(MPI_STATUS_SIZE)
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
  ! Owned cells and the fixed boundary outside the global grid hold their
  ! values; halo cells between ranks (and all halo cells of a periodic grid)
  ! hold garbage that only the exchange can replace.
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
  v = 0
  do it = 1, 4
    if (mode == 'overlap') then
      call smooth_mpi(comm, nx, ny, u, prof, v)
    else
      call smooth_exchange(comm, nx, ny, u, prof, v)
      call smooth(nx, ny, u, prof, v)
    end if
    u(1:nx, 1:ny) = v(1:nx, 1:ny)
  end do
  if (me == 0) then
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
end program check
