! A 2D Jacobi sweep with its convergence check: the largest change of any
! point, err = max(err, |unew - u|), a max reduction over the nest. err's
! value on entry takes part, as in Fortran (pass 0 to start afresh).
subroutine jacobi_maxnorm(nx, ny, u, unew, err)
  implicit none
  integer, intent(in) :: nx, ny
  real(8), intent(in) :: u(0:nx+1, 0:ny+1)
  real(8), intent(inout) :: unew(0:nx+1, 0:ny+1)
  real(8), intent(inout) :: err
  integer :: i, j

  !$f2s stencil name(maxnorm2d)
  do j = 1, ny
    do i = 1, nx
      unew(i,j) = 0.25d0*(u(i-1,j) + u(i+1,j) + u(i,j-1) + u(i,j+1))
      err = max(err, abs(unew(i,j) - u(i,j)))
    end do
  end do
end subroutine jacobi_maxnorm
