! A 2D FDTD (TE mode) loop in single precision, as a Yee solver with its
! material coefficients folded into two scalars writes it: the magnetic
! field updated from the electric fields first, then both electric fields
! from it, and a hard source written over the first column of Ey after the
! update, from a pulse tabulated per step.
subroutine yee2d(nx, ny, nstep, ce, ch, ex, ey, hz, pulse)
  implicit none
  integer, intent(in) :: nx, ny, nstep
  real(4), intent(in) :: ce, ch
  real(4), intent(inout) :: ex(nx, ny), ey(nx, ny), hz(nx, ny)
  real(4), intent(in) :: pulse(nstep)
  integer :: i, j, n

  !$f2s stencil timesteps name(yee2d_steps) tune_size(200, 150)
  do n = 1, nstep
    do j = 1, ny - 1
      do i = 1, nx - 1
        hz(i, j) = hz(i, j) - ch*(ex(i, j+1) - ex(i, j) + ey(i+1, j) - ey(i, j))
      end do
    end do
    do j = 2, ny
      do i = 1, nx
        ex(i, j) = ex(i, j) - ce*(hz(i, j) - hz(i, j-1))
      end do
    end do
    do j = 1, ny
      do i = 2, nx
        ey(i, j) = ey(i, j) - ce*(hz(i, j) - hz(i-1, j))
      end do
    end do
    do j = 1, ny
      ey(1, j) = pulse(n)
    end do
  end do
end subroutine yee2d
