! One implicit step of vertical diffusion of a tracer, as column physics in
! an atmosphere or ocean model takes it: in every column (i, j) the levels
! k = 1 (top) .. nz (bottom) are coupled through the interface diffusivities
! kz(i,j,k) (between levels k-1 and k), and the tridiagonal system
!
!   -lo(k)*q(k-1) + (1 + lo(k) + up(k))*q(k) - up(k)*q(k+1) = q_old(k)
!
! is solved by the Thomas algorithm: elimination downwards, storing the
! modified upper diagonal in cp and the modified right-hand side in place of
! q, then substitution upwards. Each loop runs in order along k; the columns
! are independent, and f2stencil runs them in parallel.
!
! kz(:,:,1) and kz(:,:,nz+1) are zero (no flux through the top and the
! bottom), so level 0 of q and cp, which the first level reads, is
! multiplied by zero; the caller keeps it finite.
subroutine vdiff(nx, ny, nz, dt, rdz2, kz, q, cp)
  implicit none
  integer, intent(in) :: nx, ny, nz
  real(8), intent(in) :: dt, rdz2
  real(8), intent(in) :: kz(nx, ny, nz+1)
  real(8), intent(inout) :: q(nx, ny, 0:nz), cp(nx, ny, 0:nz)
  real(8) :: lo, up, rden
  integer :: i, j, k

  ! Forward elimination, top to bottom.
  !$f2s stencil name(vdiff_down)
  do k = 1, nz
    do j = 1, ny
      do i = 1, nx
        lo = dt*rdz2*kz(i,j,k)
        up = dt*rdz2*kz(i,j,k+1)
        rden = 1d0/(1d0 + lo + up - lo*cp(i,j,k-1))
        cp(i,j,k) = -up*rden
        q(i,j,k) = (q(i,j,k) + lo*q(i,j,k-1))*rden
      end do
    end do
  end do

  ! Back substitution, bottom to top; the bottom level is already solved.
  !$f2s stencil name(vdiff_up)
  do k = nz - 1, 1, -1
    do j = 1, ny
      do i = 1, nx
        q(i,j,k) = q(i,j,k) - cp(i,j,k)*q(i,j,k+1)
      end do
    end do
  end do
end subroutine vdiff
