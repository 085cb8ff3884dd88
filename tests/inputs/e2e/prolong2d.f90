! Bilinear prolongation of a coarse correction into a fine grid, with the
! fine indices kept in INTEGER temporaries as older multigrid codes keep
! them: the row's between the loops, the column's in the point.
subroutine prolong(nxc, nyc, c, f)
  implicit none
  integer, intent(in) :: nxc, nyc
  real(8), intent(in) :: c(0:nxc+1, 0:nyc+1)
  real(8), intent(inout) :: f(0:2*nxc+1, 0:2*nyc+1)
  integer :: i, j, ic, jc
  !$f2s stencil name(prolong2d) tune_size(40, 30)
  do j = 1, nyc
    jc = 2*j - 1
    do i = 1, nxc
      ic = 2*i - 1
      f(ic, jc) = f(ic, jc) + c(i, j)
      f(ic + 1, jc) = f(ic + 1, jc) + 0.5d0*(c(i, j) + c(i + 1, j))
      f(ic, jc + 1) = f(ic, jc + 1) + 0.5d0*(c(i, j) + c(i, j + 1))
      f(ic + 1, jc + 1) = f(ic + 1, jc + 1) &
                        + 0.25d0*(c(i, j) + c(i + 1, j) + c(i, j + 1) + c(i + 1, j + 1))
    end do
  end do
end subroutine prolong
