program b10_omp77_check
  use f2s_b10_omp77, only: b10_omp77
  implicit none
  integer :: nx = 23, ny = 16, nz = 11
  real(8), allocatable :: a(:,:,:,:), rhs(:,:,:), p(:,:,:), ref(:,:,:), out(:,:,:)
  real(8) :: err
  character(len=32) :: arg
  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
    call get_command_argument(3, arg); read (arg, *) nz
  end if
  allocate(a(nx, ny, nz, 7), rhs(nx, ny, nz), p(0:nx+1, 0:ny+1, 0:nz+1), &
           ref(0:nx+1, 0:ny+1, 0:nz+1), out(0:nx+1, 0:ny+1, 0:nz+1))
  call random_number(a)
  a(:,:,:,1) = a(:,:,:,1) + 6d0
  call random_number(rhs)
  call random_number(p)
  call random_number(ref)
  out = ref
  call relax(nx, ny, nz, 0.8d0, a(:,:,:,1), a(:,:,:,2), a(:,:,:,3), a(:,:,:,4), a(:,:,:,5), &
             a(:,:,:,6), a(:,:,:,7), rhs, p, ref)
  call b10_omp77(nx, ny, nz, 0.8d0, a(:,:,:,1), a(:,:,:,2), a(:,:,:,3), a(:,:,:,4), a(:,:,:,5), &
                 a(:,:,:,6), a(:,:,:,7), rhs, p, out)
  err = maxval(abs(out - ref))
  print '(a, es10.3)', 'b10_omp77: largest difference ', err
  if (err /= 0d0) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program b10_omp77_check
