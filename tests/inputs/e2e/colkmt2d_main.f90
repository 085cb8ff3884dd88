! Calls the original subroutines and the library procedures on the same
! random sea floor (land, shallow and full-depth columns) and tracers, and
! requires bitwise equal results.
!   usage: colkmt2d_check [nx ny]     (default 41 23)
program colkmt2d_check
  use f2s_colkmt2d, only: col_heat, col_clip, col_up, col_mix
  implicit none
  integer, parameter :: nz = 9, kmix = 4
  integer :: nx = 41, ny = 23
  integer, allocatable :: kmt(:,:)
  real(8), allocatable :: dz(:), t(:,:,:), hc_ref(:,:), hc_out(:,:), r(:,:)
  real(8), allocatable :: q_ref(:,:,:), q_out(:,:,:), qb_ref(:,:), qb_out(:,:)
  real(8), allocatable :: p_ref(:,:,:), p_out(:,:,:), pb_ref(:,:), pb_out(:,:)
  real(8), allocatable :: buoy(:,:), ml_ref(:,:), ml_out(:,:)
  integer :: bad
  character(len=32) :: arg
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
  end if
  allocate(kmt(nx, ny), r(nx, ny), dz(nz), t(nx, ny, nz), hc_ref(nx, ny), hc_out(nx, ny))
  allocate(q_ref(nx, nz, ny), q_out(nx, nz, ny), qb_ref(nx, ny), qb_out(nx, ny))
  allocate(p_ref(nx, ny, nz), p_out(nx, ny, nz), pb_ref(nx, ny), pb_out(nx, ny))
  allocate(buoy(nx, ny), ml_ref(nx, ny), ml_out(nx, ny))
  call random_number(r)
  kmt = int(r * (nz + 1))          ! 0 (land) .. nz
  kmt(1, 1) = 0
  kmt(nx, ny) = nz
  call random_number(dz)
  call random_number(t)
  call random_number(q_ref)
  q_ref = q_ref - 0.3d0
  q_out = q_ref
  call random_number(p_ref)
  p_out = p_ref
  call random_number(buoy)
  hc_ref = -1d0; hc_out = -1d0
  call heat_content(nx, ny, nz, kmt, dz, t, hc_ref)
  call col_heat(nx, ny, nz, kmt, dz, t, hc_out)
  call clip_tracer(nx, ny, nz, kmt, 0d0, q_ref, qb_ref)
  call col_clip(nx, ny, nz, kmt, 0d0, q_out, qb_out)
  call bottom_up(nx, ny, nz, kmt, t, dz, p_ref, pb_ref)
  call col_up(nx, ny, nz, kmt, t, dz, p_out, pb_out)
  call mixed_layer(nx, ny, nz, kmt, kmix, buoy, t, ml_ref)
  call col_mix(nx, ny, nz, kmt, kmix, buoy, t, ml_out)
  bad = count(hc_out /= hc_ref) + count(q_out /= q_ref) + count(qb_out /= qb_ref) &
      + count(p_out /= p_ref) + count(pb_out /= pb_ref) + count(ml_out /= ml_ref)
  print '(a, 2i6, a, i8)', 'colkmt2d', nx, ny, ': elements that differ ', bad
  if (bad /= 0) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program colkmt2d_check
