! A three-level wave equation in a main program, as modern codes write it:
! allocatable module arrays, an OpenMP PARALLEL DO around the sweep, two
! copies shifting the time levels, the simulated time and an energy norm
! (a reduction) computed every step. Prints numbers to compare.
module fields
  implicit none
  real(8), allocatable :: p(:,:), pold(:,:), pnew(:,:), c2(:,:)
  integer :: nx, ny
end module fields

program wave
  use fields
  implicit none
  integer :: i, j, n, nsteps
  real(8) :: dt, t, energy
  nx = 61; ny = 47; nsteps = 9; dt = 0.1d0; t = 0
  allocate(p(0:nx+1,0:ny+1), pold(0:nx+1,0:ny+1), pnew(0:nx+1,0:ny+1), c2(nx,ny))
  do j = 0, ny+1; do i = 0, nx+1; p(i,j) = mod(i*7 + j*13, 17)/17d0; end do; end do
  pold = p; pnew = 0; c2 = 0.1d0
  !$f2s stencil timesteps name(wave_steps) tune_size(64, 48)
  do n = 1, nsteps
    !$omp parallel do private(i)
    do j = 1, ny
      do i = 1, nx
        pnew(i,j) = 2*p(i,j) - pold(i,j) + c2(i,j)*(p(i-1,j) + p(i+1,j) + p(i,j-1) + p(i,j+1) - 4*p(i,j))
      end do
    end do
    !$omp end parallel do
    pold = p
    p = pnew
    t = n*dt
    energy = 0
    do j = 1, ny
      do i = 1, nx
        energy = energy + p(i,j)**2
      end do
    end do
  end do
  print '(3es24.15)', sum(p), t, energy
end program wave
