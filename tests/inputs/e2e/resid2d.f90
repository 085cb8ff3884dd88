! A residual sum in modern Fortran: assumed-shape arrays, so the module's
! wrapper passes their bounds, and the reduction's scalar goes through the
! wrapper by reference too.
module resid2d_mod
  implicit none
contains
  subroutine resid(u, v, res)
    real(8), intent(in) :: u(0:, 0:)
    real(8), intent(inout) :: v(0:, 0:)
    real(8), intent(inout) :: res
    integer :: i, j
    !$f2s stencil name(resid2d) tune_size(40, 30)
    do j = 1, size(u, 2) - 2
      do i = 1, size(u, 1) - 2
        v(i,j) = 0.25d0*(u(i-1,j) + u(i+1,j) + u(i,j-1) + u(i,j+1))
        res = res + (v(i,j) - u(i,j))**2
      end do
    end do
  end subroutine resid
end module resid2d_mod
