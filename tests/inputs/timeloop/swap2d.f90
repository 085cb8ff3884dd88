! A weighted Jacobi relaxation over module POINTER arrays, as older codes
! write it: both buffers allocated through their pointers with halo bounds
! (the main program gives them different ones, so that a swap hands the
! bounds over too), one sweep from u into v, then the pointers swapped.
module relax_fields
  implicit none
  real(8), pointer :: u(:,:) => null(), v(:,:) => null(), tmp(:,:) => null()
  integer :: nx, ny
end module relax_fields

subroutine relax(nt, w)
  use relax_fields
  implicit none
  integer, intent(in) :: nt
  real(8), intent(in) :: w
  integer :: i, j, it

  !$f2s stencil timesteps name(relax_steps) tune_size(64, 48)
  do it = 1, nt
    do j = 1, ny
      do i = 1, nx
        v(i,j) = (1d0 - w)*u(i,j) + 0.25d0*w*(u(i-1,j) + u(i+1,j) + u(i,j-1) + u(i,j+1))
      end do
    end do
    tmp => u
    u => v
    v => tmp
  end do
end subroutine relax
