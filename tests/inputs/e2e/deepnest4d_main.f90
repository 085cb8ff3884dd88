! Calls the original subroutines and the library procedures on the same
! random data, with 3, 1 and no components, and requires bitwise equal
! results.
program deepnest4d_check
  use f2s_deepnest4d, only: comp_outer, comp_inner, comp_ikj, comp_sum
  implicit none
  integer :: nx = 13, ny = 9, nz = 7, nvar, n
  integer, parameter :: counts(3) = [3, 1, 0]
  real(8), allocatable :: q(:,:,:,:), qa(:,:,:,:), u(:,:,:), w(:,:,:,:), wt(:)
  real(8), allocatable :: o_ref(:,:,:,:), o_out(:,:,:,:), r_ref(:,:,:,:), r_out(:,:,:,:)
  real(8), allocatable :: t_ref(:,:,:,:), t_out(:,:,:,:), s_ref(:,:,:), s_out(:,:,:)
  real(8) :: err
  character(len=32) :: arg
  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
    call get_command_argument(3, arg); read (arg, *) nz
  end if
  err = 0d0
  do n = 1, size(counts)
    nvar = counts(n)
    allocate(q(0:nx+1, 0:ny+1, 0:nz+1, nvar), qa(nvar, 0:nx+1, 0:ny+1, 0:nz+1))
    allocate(u(0:nx+1, nz, 0:ny+1), w(0:nx+1, 0:nz+1, 0:ny+1, nvar), wt(nvar))
    allocate(o_ref(0:nx+1, 0:ny+1, 0:nz+1, nvar), o_out(0:nx+1, 0:ny+1, 0:nz+1, nvar))
    allocate(r_ref(nvar, nx, ny, nz), r_out(nvar, nx, ny, nz))
    allocate(t_ref(nx, nz, ny, nvar), t_out(nx, nz, ny, nvar), s_ref(nx, ny, nz), s_out(nx, ny, nz))
    call random_number(q)
    call random_number(qa)
    call random_number(u)
    call random_number(w)
    call random_number(wt)
    call random_number(o_ref)
    call random_number(r_ref)
    call random_number(t_ref)
    call random_number(s_ref)
    o_out = o_ref
    r_out = r_ref
    t_out = t_ref
    s_out = s_ref
    call diffuse_species(nx, ny, nz, nvar, 0.1d0, q, o_ref)
    call flux_conserved(nx, ny, nz, nvar, qa, r_ref)
    call advect_tracers(nx, ny, nz, nvar, u, w, t_ref)
    call total_mass(nx, ny, nz, nvar, wt, q, s_ref)
    call comp_outer(nx, ny, nz, nvar, 0.1d0, q, o_out)
    call comp_inner(nx, ny, nz, nvar, qa, r_out)
    call comp_ikj(nx, ny, nz, nvar, u, w, t_out)
    call comp_sum(nx, ny, nz, nvar, wt, q, s_out)
    if (nvar > 0) err = max(err, maxval(abs(o_out - o_ref)), maxval(abs(r_out - r_ref)), &
                            maxval(abs(t_out - t_ref)))
    err = max(err, maxval(abs(s_out - s_ref)))
    deallocate(q, qa, u, w, wt, o_ref, o_out, r_ref, r_out, t_ref, t_out, s_ref, s_out)
  end do
  print '(a, es10.3)', 'deepnest4d: largest difference ', err
  if (err /= 0d0) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program deepnest4d_check
