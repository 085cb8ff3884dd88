program b14_fnorm_check
  use f2s_b14_fnorm, only: b14_fnorm
  implicit none
  interface
    real(8) function resnorm(nx, ny, h2, u, f)
      integer, intent(in) :: nx, ny
      real(8), intent(in) :: h2, u(0:nx+1, 0:ny+1), f(nx, ny)
    end function
  end interface
  integer :: nx = 37, ny = 21
  real(8), allocatable :: u(:,:), f(:,:)
  real(8) :: ref, out
  character(len=32) :: arg
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
  end if
  allocate(u(0:nx+1, 0:ny+1), f(nx, ny))
  call random_number(u)
  call random_number(f)
  ref = resnorm(nx, ny, 0.5d0, u, f)
  out = 0d0
  call b14_fnorm(nx, ny, 0.5d0, u, f, out)
  out = sqrt(out)
  print '(a, es10.3)', 'b14_fnorm: relative difference ', abs(out - ref)/ref
  if (abs(out - ref) > 1d-13*ref) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program
