! Trilinear interpolation (prolongation) of a coarse-grid correction e onto
! the fine grid of a vertex-centred multigrid cycle, added to the fine-grid
! solution u: coarse point i is fine point 2*i, and fine point 2*i + 1 lies
! half way between coarse points i and i + 1. Each coarse point (i,j,k)
! writes the eight fine points (2*i..2*i+1, 2*j..2*j+1, 2*k..2*k+1), so no
! two coarse points write the same fine point. The fine grid has
! nf = 2*nc + 1 interior points per axis; the loops start at coarse point 0
! so that the fine points next to the boundary get their share, and the
! correction is zero on the coarse boundary, so fine point 0 gets nothing.
subroutine interp(nc1, nc2, nc3, nf1, nf2, nf3, e, u)
  implicit none
  integer, intent(in) :: nc1, nc2, nc3, nf1, nf2, nf3
  real(8), intent(in) :: e(0:nc1+1, 0:nc2+1, 0:nc3+1)
  real(8), intent(inout) :: u(0:nf1+1, 0:nf2+1, 0:nf3+1)
  integer :: i, j, k

  !$f2s stencil name(interp3d) tune_size(128, 128, 128)
  do k = 0, nc3
    do j = 0, nc2
      do i = 0, nc1
        u(2*i,2*j,2*k) = u(2*i,2*j,2*k) + e(i,j,k)
        u(2*i+1,2*j,2*k) = u(2*i+1,2*j,2*k) + 0.5d0*(e(i,j,k) + e(i+1,j,k))
        u(2*i,2*j+1,2*k) = u(2*i,2*j+1,2*k) + 0.5d0*(e(i,j,k) + e(i,j+1,k))
        u(2*i+1,2*j+1,2*k) = u(2*i+1,2*j+1,2*k) + 0.25d0*(e(i,j,k) + e(i+1,j,k) + e(i,j+1,k) + e(i+1,j+1,k))
        u(2*i,2*j,2*k+1) = u(2*i,2*j,2*k+1) + 0.5d0*(e(i,j,k) + e(i,j,k+1))
        u(2*i+1,2*j,2*k+1) = u(2*i+1,2*j,2*k+1) + 0.25d0*(e(i,j,k) + e(i+1,j,k) + e(i,j,k+1) + e(i+1,j,k+1))
        u(2*i,2*j+1,2*k+1) = u(2*i,2*j+1,2*k+1) + 0.25d0*(e(i,j,k) + e(i,j+1,k) + e(i,j,k+1) + e(i,j+1,k+1))
        u(2*i+1,2*j+1,2*k+1) = u(2*i+1,2*j+1,2*k+1) + 0.125d0*(e(i,j,k) + e(i+1,j,k) + e(i,j+1,k) + e(i+1,j+1,k) &
                                                               + e(i,j,k+1) + e(i+1,j,k+1) + e(i,j+1,k+1) + e(i+1,j+1,k+1))
      end do
    end do
  end do
end subroutine interp
