! Calls the original subroutine and the two library procedures on the same
! random data and requires bitwise equal results.
program btri2d_check
  use f2s_btri2d, only: btri_jacobi, btri_limit
  implicit none
  integer, parameter :: nc = 5
  integer :: nx = 40, ny = 30
  real(8), allocatable :: uold(:,:,:), rhs(:,:,:), a(:,:,:,:)
  real(8), allocatable :: u_ref(:,:,:), f_ref(:,:,:), u_out(:,:,:), f_out(:,:,:)
  real(8) :: err
  character(len=32) :: arg
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
  end if
  allocate(uold(nc, nx, ny), rhs(nc, nx, ny), a(nc, nc, nx, ny))
  allocate(u_ref(nc, nx, ny), f_ref(nc, nx, ny), u_out(nc, nx, ny), f_out(nc, nx, ny))
  call random_number(uold)
  call random_number(rhs)
  call random_number(a)
  call random_number(u_ref)
  call random_number(f_ref)
  u_out = u_ref
  f_out = f_ref
  call btri(nx, ny, uold, rhs, a, u_ref, f_ref)
  call btri_jacobi(nx, ny, uold, rhs, a, u_out)
  call btri_limit(nx, ny, a, u_out, f_out)
  err = max(maxval(abs(u_out - u_ref)), maxval(abs(f_out - f_ref)))
  print '(a, es10.3)', 'btri2d: largest difference ', err
  if (err /= 0d0) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program btri2d_check
