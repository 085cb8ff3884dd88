program rblex3d_check
  use f2s_rblex3d, only: rbk
  implicit none
  integer :: nx = 20, ny = 14, nz = 9, it
  real(8), allocatable :: f(:,:,:), u(:,:,:), v(:,:,:)
  character(len=32) :: arg
  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
    call get_command_argument(3, arg); read (arg, *) nz
  end if
  allocate(f(nx, ny, nz), u(0:nx+1, 0:ny+1, 0:nz+1), v(0:nx+1, 0:ny+1, 0:nz+1))
  call random_number(f)
  call random_number(u)
  v = u
  do it = 1, 2
    call rb_lex(nx, ny, nz, 0, f, u)
    call rb_lex(nx, ny, nz, 1, f, u)
    call rbk(nx, ny, nz, 0, f, v)
    call rbk(nx, ny, nz, 1, f, v)
  end do
  print '(a, 3i5, a, i8)', 'rblex3d', nx, ny, nz, ': elements that differ ', count(u /= v)
  if (any(u /= v)) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program rblex3d_check
