program b06_kij_check
  use f2s_b06_kij, only: b06_kij
  implicit none
  integer :: nx = 21, ny = 13, nz = 30
  real(8), allocatable :: rdz(:), kdiff(:), tskin(:,:), q(:,:,:), ref(:,:,:), out(:,:,:)
  real(8) :: err
  character(len=32) :: arg
  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
    call get_command_argument(3, arg); read (arg, *) nz
  end if
  allocate(rdz(nz), kdiff(0:nz), tskin(nx, ny), q(0:nz+1, nx, ny), ref(0:nz+1, nx, ny), &
           out(0:nz+1, nx, ny))
  call random_number(rdz)
  call random_number(kdiff)
  call random_number(tskin)
  call random_number(q)
  call random_number(ref)
  out = ref
  call vdiff_explicit(nz, nx, ny, 0.1d0, 0.3d0, rdz, kdiff, tskin, q, ref)
  call b06_kij(nz, nx, ny, 0.1d0, 0.3d0, rdz, kdiff, tskin, q, out)
  err = maxval(abs(out - ref))
  print '(a, es10.3)', 'b06_kij: largest difference ', err
  if (err /= 0d0) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program b06_kij_check
