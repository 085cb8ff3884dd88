program b04_upwind_check
  use advect_kinds
  use f2s_b04_upwind, only: b04_upwind
  implicit none
  integer :: nx = 50, ny = 27
  real(dp), allocatable :: uprof(:), vprof(:), q(:,:), ref(:,:), out(:,:)
  real(dp) :: err
  character(len=32) :: arg
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
  end if
  allocate(uprof(ny), vprof(nx), q(0:nx+1, 0:ny+1), ref(0:nx+1, 0:ny+1), out(0:nx+1, 0:ny+1))
  call random_number(uprof)
  uprof = 4.0_dp*(uprof - 0.5_dp)
  call random_number(vprof)
  vprof = 4.0_dp*(vprof - 0.5_dp)
  call random_number(q)
  q = q - 0.3_dp
  call random_number(ref)
  out = ref
  call upwind_step(nx, ny, 0.2_dp, 1.0_dp, 0.9_dp, uprof, vprof, q, ref)
  call b04_upwind(nx, ny, 0.2_dp, 1.0_dp, 0.9_dp, uprof, vprof, q, out)
  err = maxval(abs(out - ref))
  print '(a, es10.3)', 'b04_upwind: largest difference ', err
  if (err /= 0.0_dp) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program b04_upwind_check
