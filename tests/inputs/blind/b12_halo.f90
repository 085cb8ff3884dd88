! Domain decomposition indices of a regional ocean model live in a module
! (set at run time, not PARAMETERs): the tile is is:ie x js:je with a halo
! of width nhalo.
module domain_idx
  implicit none
  integer :: is, ie, js, je, nhalo
end module domain_idx

subroutine coriolis_u(dt, fcor, v, u)
  use domain_idx
  implicit none
  real(8), intent(in) :: dt
  real(8), intent(in) :: fcor(js-nhalo:je+nhalo)
  real(8), intent(in) :: v(is-nhalo:ie+nhalo, js-nhalo:je+nhalo)
  real(8), intent(inout) :: u(is-nhalo:ie+nhalo, js-nhalo:je+nhalo)
  integer :: i, j
  !$f2s stencil name(b12_halo)
  do j = js, je
    do i = is, ie
      u(i,j) = u(i,j) + dt*fcor(j)*0.25d0*(v(i,j) + v(i+1,j) + v(i,j-1) + v(i+1,j-1))
    end do
  end do
end subroutine coriolis_u
