program b08_rank4_check
  use euler_vars
  use f2s_b08_rank4, only: b08_rank4
  implicit none
  integer :: nx = 17, ny = 12, nz = 9
  real(8), allocatable :: q(:,:,:,:), ref(:,:,:,:), out(:,:,:,:)
  real(8) :: err
  character(len=32) :: arg
  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
    call get_command_argument(3, arg); read (arg, *) nz
  end if
  allocate(q(nvar, 0:nx+1, 0:ny+1, 0:nz+1), ref(nx, ny, nz, nvar), out(nx, ny, nz, nvar))
  call random_number(q)
  q(irho,:,:,:) = q(irho,:,:,:) + 0.5d0
  q(iene,:,:,:) = q(iene,:,:,:) + 2d0
  call random_number(ref)
  out = ref
  call euler_xflux(nx, ny, nz, 1.9d0, q, ref)
  call b08_rank4(nx, ny, nz, 1.9d0, q, out)
  err = maxval(abs(out - ref))
  print '(a, es10.3)', 'b08_rank4: largest difference ', err
  if (err /= 0d0) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program b08_rank4_check
