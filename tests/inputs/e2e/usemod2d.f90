! A region whose kind, coefficients and one grid come from modules of another
! file (usemod2d_modules.f90), one brought by a rename.
subroutine usemod_step(n, m, u, unew)
  use usemod2d_consts, only: wp, coef => alpha
  use usemod2d_fields
  implicit none
  integer :: n, m, i, j
  real(wp) :: u(0:n+1, 0:m+1), unew(0:n+1, 0:m+1)
  !$f2s stencil name(usemod2d) tune_size(40, 30)
  do j = 1, m
    do i = 1, n
      unew(i,j) = u(i,j) + coef*(u(i+1,j) + u(i-1,j) - 2*u(i,j)) + beta*w(i,j-1)
    end do
  end do
end subroutine usemod_step
