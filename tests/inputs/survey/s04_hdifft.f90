! Survey nest 4: Laplacian horizontal tracer diffusion of an ocean model,
! one vertical level per call; the land mask is an INTEGER depth index, the
! update is masked with IF (no WHERE), under an OpenMP PARALLEL DO.
subroutine hdifft_lap(k, tracer, hdtk, ahf)
  use oceanish_grid
  implicit none
  integer, intent(in) :: k
  real(r8), dimension(nx_block, ny_block, km), intent(in) :: tracer
  real(r8), dimension(nx_block, ny_block), intent(out) :: hdtk
  real(r8), intent(in) :: ahf
  integer :: i, j
  real(r8) :: cn, cs, ce, cw

  !$f2s stencil name(hdiff_lap)
  !$omp parallel do private(i, j, cn, cs, ce, cw)
  do j = 2, ny_block - 1
    do i = 2, nx_block - 1
      if (k <= kmt(i,j)) then
        ce = ahf*dyt(i,j)/dxt(i,j)
        cw = ahf*dyt(i-1,j)/dxt(i-1,j)
        cn = ahf*dxt(i,j)/dyt(i,j)
        cs = ahf*dxt(i,j-1)/dyt(i,j-1)
        if (k > kmt(i+1,j)) ce = 0.0_r8
        if (k > kmt(i-1,j)) cw = 0.0_r8
        if (k > kmt(i,j+1)) cn = 0.0_r8
        if (k > kmt(i,j-1)) cs = 0.0_r8
        hdtk(i,j) = tarea_r(i,j)*(ce*(tracer(i+1,j,k) - tracer(i,j,k))  &
                                 + cw*(tracer(i-1,j,k) - tracer(i,j,k)) &
                                 + cn*(tracer(i,j+1,k) - tracer(i,j,k)) &
                                 + cs*(tracer(i,j-1,k) - tracer(i,j,k)))
      else
        hdtk(i,j) = 0.0_r8
      end if
    end do
  end do
  !$omp end parallel do
end subroutine hdifft_lap
