! Calls the original subroutine and the two library procedures on the same
! random data and requires bitwise equal results.
program offsets3d_check
  use f2s_offsets3d, only: box_offsets, upwind_offsets
  implicit none
  integer :: nx = 30, ny = 20, nz = 10
  real(8), allocatable :: u(:,:,:), v_ref(:,:,:), w_ref(:,:,:), v_out(:,:,:), w_out(:,:,:)
  real(8) :: c(-1:1, -1:1, -1:1), err
  character(len=32) :: arg
  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
    call get_command_argument(3, arg); read (arg, *) nz
  end if
  allocate(u(0:nx+1, 0:ny+1, 0:nz+1), v_ref(nx, ny, nz), w_ref(nx, ny, nz))
  allocate(v_out(nx, ny, nz), w_out(nx, ny, nz))
  call random_number(c)
  call random_number(u)
  call random_number(v_ref)
  call random_number(w_ref)
  v_out = v_ref
  w_out = w_ref
  call smooth3(nx, ny, nz, c, 0.3d0, u, v_ref, w_ref)
  call box_offsets(nx, ny, nz, c, u, v_out)
  call upwind_offsets(nx, ny, nz, 0.3d0, u, w_out)
  err = max(maxval(abs(v_out - v_ref)), maxval(abs(w_out - w_ref)))
  print '(a, es10.3)', 'offsets3d: largest difference ', err
  if (err /= 0d0) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program offsets3d_check
