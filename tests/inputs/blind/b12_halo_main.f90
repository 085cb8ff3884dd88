program b12_halo_check
  use domain_idx
  use f2s_b12_halo, only: b12_halo
  implicit none
  real(8), allocatable :: fcor(:), v(:,:), ref(:,:), out(:,:)
  real(8) :: err
  integer :: nx = 40, ny = 21
  character(len=32) :: arg
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
  end if
  is = 3; ie = 3 + nx - 1; js = -2; je = -2 + ny - 1; nhalo = 2
  allocate(fcor(js-nhalo:je+nhalo), v(is-nhalo:ie+nhalo, js-nhalo:je+nhalo), &
           ref(is-nhalo:ie+nhalo, js-nhalo:je+nhalo), out(is-nhalo:ie+nhalo, js-nhalo:je+nhalo))
  call random_number(fcor)
  call random_number(v)
  call random_number(ref)
  out = ref
  call coriolis_u(0.3d0, fcor, v, ref)
  call b12_halo(0.3d0, fcor, v, out, is, ie, js, je, nhalo)
  err = maxval(abs(out - ref))
  print '(a, es10.3)', 'b12_halo: largest difference ', err
  if (err /= 0d0) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program b12_halo_check
