! heat.f90 with the grids on the GPU: the CUDA library's heat_mpi (or
! heat_exchange then heat) inside a data region, so that the halo is
! exchanged between the device copies (docs/mpi.md, "On the GPU") and no
! grid crosses to the host between the first step and the last.
!
!   mpirun -np P ./heat_gpu N STEPS MODE [OUT|- [STENCIL]]
!
! N: the cells of a rank along each axis, or NX,NY,NZ (the grid is that
! times the ranks along each axis of MPI_Dims_create's split, so one rank
! given 2N,N,N computes what two ranks given N do).
! MODE: overlap (heat_mpi), exchange (heat_exchange, then heat), host (the
! same as exchange with no data region: the CPU), library (heat alone, no
! exchange: on one rank, the single-GPU library), or halo (heat_exchange
! alone: what the exchange costs). OUT: where rank 0 writes the gathered grid
! (- for nowhere). STENCIL: 7 (heat, the default) or 27 (heat27). Prints what
! heat.f90 prints and the host-device copies of grids made during the steps.
program heat_gpu
  use mpi
  use iso_c_binding, only: c_size_t
  use f2s_heat3d, only: heat_k => heat, heat_mpi, heat_exchange, heat27, heat27_mpi, &
                        heat27_exchange, f2s_heat3d_data_enter, f2s_heat3d_data_exit, &
                        f2s_heat3d_data_transfers
  implicit none
  integer :: ierr, me, np, comm, dims(3), coords(3), nx, ny, nz, steps, s, i, j, k, r, info(4), points
  integer :: status(MPI_STATUS_SIZE)
  integer(c_size_t) :: bytes
  integer(8) :: moved
  logical :: periods(3)
  character(len=256) :: arg, mode, out
  real(8), allocatable :: u(:, :, :), v(:, :, :), glob(:, :, :), part(:, :, :)
  real(8) :: alpha, change, global_change, t0, t1, tmax
  integer :: gx, gy, gz, ox, oy, oz
  ! The stencil's three procedures (heat27's have heat's interfaces).
  procedure(heat_k), pointer :: kernel
  procedure(heat_exchange), pointer :: exchange
  procedure(heat_mpi), pointer :: overlapped
  call mpi_init(ierr)
  call mpi_comm_size(MPI_COMM_WORLD, np, ierr)
  call get_command_argument(1, arg)
  read (arg, *, iostat=ierr) nx, ny, nz
  if (ierr /= 0) then
    read (arg, *) nx
    ny = nx
    nz = nx
  end if
  call get_command_argument(2, arg)
  read (arg, *) steps
  call get_command_argument(3, mode)
  out = ''
  if (command_argument_count() >= 4) call get_command_argument(4, out)
  if (out == '-') out = ''
  points = 7
  if (command_argument_count() >= 5) then
    call get_command_argument(5, arg)
    read (arg, *) points
  end if
  if (points == 7) then
    kernel => heat_k
    exchange => heat_exchange
    overlapped => heat_mpi
  else if (points == 27) then
    kernel => heat27
    exchange => heat27_exchange
    overlapped => heat27_mpi
  else
    error stop 'STENCIL is 7 or 27'
  end if

  dims = 0
  call mpi_dims_create(np, 3, dims, ierr)
  periods = .false.
  call mpi_cart_create(MPI_COMM_WORLD, 3, dims, periods, .false., comm, ierr)
  call mpi_comm_rank(comm, me, ierr)
  call mpi_cart_coords(comm, me, 3, coords, ierr)
  gx = dims(1)*nx
  gy = dims(2)*ny
  gz = dims(3)*nz
  ox = coords(1)*nx
  oy = coords(2)*ny
  oz = coords(3)*nz
  alpha = 0.1d0
  allocate (u(0:nx+1, 0:ny+1, 0:nz+1), v(0:nx+1, 0:ny+1, 0:nz+1))
  u = 0
  do k = 1, nz
    do j = 1, ny
      do i = 1, nx
        if (abs(ox + i - gx/2) + abs(oy + j - gy/2) + abs(oz + k - gz/2) < (gx + gy + gz)/8) &
          u(i, j, k) = 1
      end do
    end do
  end do
  v = u
  bytes = int(8*size(u), c_size_t)
  if (mode /= 'host') then
    call f2s_heat3d_data_enter(u, bytes)
    call f2s_heat3d_data_enter(v, bytes)
  end if
  ! One step first, outside the timing: the GPU's start, the buffers.
  change = 0
  call step(u, v)
  call step(v, u)
  call mpi_barrier(comm, ierr)
  moved = f2s_heat3d_data_transfers()
  t0 = mpi_wtime()
  do s = 1, steps
    change = 0
    ! Ping-pong between the arrays, each present on the device.
    if (mod(s, 2) == 1) then
      call step(u, v)
    else
      call step(v, u)
    end if
    call mpi_allreduce(change, global_change, 1, MPI_DOUBLE_PRECISION, MPI_MAX, comm, ierr)
  end do
  t1 = mpi_wtime() - t0
  moved = f2s_heat3d_data_transfers() - moved
  if (mode /= 'host') then
    call f2s_heat3d_data_exit(u, bytes)
    call f2s_heat3d_data_exit(v, bytes)
  end if
  if (mod(steps, 2) == 1) u = v
  call mpi_reduce(t1, tmax, 1, MPI_DOUBLE_PRECISION, MPI_MAX, 0, comm, ierr)
  if (me == 0) then
    write (*, '(a, i0, a, i0, a, i0, a, i0, a, i0, a, a, a, es12.5, a, es12.5, a, es22.15, a, i0)') &
      'ranks ', np, ' points ', points, ' grid ', gx, 'x', gy, 'x', gz, ' mode ', trim(mode), &
      ' s/step ', tmax/steps, ' cells/s ', dble(gx)*gy*gz*steps/tmax, ' change ', global_change, &
      ' transfers ', moved
  end if
  if (len_trim(out) > 0) then
    if (me == 0) then
      allocate (glob(gx, gy, gz))
      glob(ox+1:ox+nx, oy+1:oy+ny, oz+1:oz+nz) = u(1:nx, 1:ny, 1:nz)
      do r = 1, np - 1
        call mpi_recv(info, 4, MPI_INTEGER, r, 1, comm, status, ierr)
        allocate (part(nx, ny, nz))
        call mpi_recv(part, size(part), MPI_DOUBLE_PRECISION, r, 2, comm, status, ierr)
        glob(info(1)+1:info(1)+nx, info(2)+1:info(2)+ny, info(3)+1:info(3)+nz) = part
        deallocate (part)
      end do
      open (10, file=out, access='stream', form='unformatted', status='replace')
      write (10) glob
      close (10)
    else
      info = [ox, oy, oz, nx]
      call mpi_send(info, 4, MPI_INTEGER, 0, 1, comm, ierr)
      allocate (part(nx, ny, nz))
      part = u(1:nx, 1:ny, 1:nz)
      call mpi_send(part, size(part), MPI_DOUBLE_PRECISION, 0, 2, comm, ierr)
    end if
  end if
  call mpi_finalize(ierr)
contains
  subroutine step(a, b)
    real(8), intent(inout) :: a(0:, 0:, 0:), b(0:, 0:, 0:)
    if (mode == 'overlap') then
      call overlapped(comm, nx, ny, nz, alpha, a, b, change)
    else if (mode == 'library') then
      call kernel(nx, ny, nz, alpha, a, b, change)
    else if (mode == 'halo') then
      call exchange(comm, nx, ny, nz, alpha, a, b, change)
    else
      call exchange(comm, nx, ny, nz, alpha, a, b, change)
      call kernel(nx, ny, nz, alpha, a, b, change)
    end if
  end subroutine step
end program heat_gpu
