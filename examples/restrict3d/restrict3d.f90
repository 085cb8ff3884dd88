! Full-weighting restriction of a residual from a fine grid to the coarse
! grid of a vertex-centred multigrid cycle: coarse point i is fine point
! 2*i, and the coarse value is the weighted mean of the 27 fine points
! around it (weights 1/8 at the centre, 1/16 on faces, 1/32 on edges, 1/64
! at corners). The fine grid has nf = 2*nc + 1 interior points per axis.
subroutine restrict(nc1, nc2, nc3, nf1, nf2, nf3, r, rc)
  implicit none
  integer, intent(in) :: nc1, nc2, nc3, nf1, nf2, nf3
  real(8), intent(in) :: r(0:nf1+1, 0:nf2+1, 0:nf3+1)
  real(8), intent(inout) :: rc(0:nc1+1, 0:nc2+1, 0:nc3+1)
  integer :: i, j, k

  !$f2s stencil name(restrict3d) tune_size(128, 128, 128)
  do k = 1, nc3
    do j = 1, nc2
      do i = 1, nc1
        rc(i,j,k) = 0.125d0*r(2*i,2*j,2*k) &
                  + 0.0625d0*(r(2*i-1,2*j,2*k) + r(2*i,2*j-1,2*k) + r(2*i,2*j,2*k-1) &
                  + r(2*i,2*j,2*k+1) + r(2*i,2*j+1,2*k) + r(2*i+1,2*j,2*k)) &
                  + 0.03125d0*(r(2*i-1,2*j-1,2*k) + r(2*i-1,2*j,2*k-1) + r(2*i-1,2*j,2*k+1) &
                  + r(2*i-1,2*j+1,2*k) + r(2*i,2*j-1,2*k-1) + r(2*i,2*j-1,2*k+1) &
                  + r(2*i,2*j+1,2*k-1) + r(2*i,2*j+1,2*k+1) + r(2*i+1,2*j-1,2*k) &
                  + r(2*i+1,2*j,2*k-1) + r(2*i+1,2*j,2*k+1) + r(2*i+1,2*j+1,2*k)) &
                  + 0.015625d0*(r(2*i-1,2*j-1,2*k-1) + r(2*i-1,2*j-1,2*k+1) + r(2*i-1,2*j+1,2*k-1) &
                  + r(2*i-1,2*j+1,2*k+1) + r(2*i+1,2*j-1,2*k-1) + r(2*i+1,2*j-1,2*k+1) &
                  + r(2*i+1,2*j+1,2*k-1) + r(2*i+1,2*j+1,2*k+1))
      end do
    end do
  end do
end subroutine restrict
