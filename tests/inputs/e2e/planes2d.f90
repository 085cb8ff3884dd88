! Periodic boundaries of a shallow-water model (issue 38): module sizes m
! and n, arrays with ghost layers (0:m+1, 0:n+1), planes at m, m+1, n and
! n+1 copied from the interior; and a module array written at a row k0
! that the caller gives, which a statement of the same point reads again;
! and a row written at a column offset the caller gives.
module planes_state
  implicit none
  integer :: m, n
  real(8), allocatable :: g(:,:)
end module planes_state

module planes_ops
  use planes_state
  implicit none
contains
  subroutine periodic(f)
    real(8), intent(inout) :: f(0:, 0:)
    integer :: i, j
!$f2s stencil name(pl_bc_x)
    do j = 1, n
      f(0,j) = f(m,j)
      f(m+1,j) = f(1,j)
    end do
!$f2s stencil name(pl_bc_y)
    do i = 0, m + 1
      f(i,0) = f(i,n)
      f(i,n+1) = f(i,1)
    end do
  end subroutine periodic

  subroutine row_mix(k0)
    integer, intent(in) :: k0
    integer :: i
!$f2s stencil name(pl_row)
    do i = 1, m
      g(i,k0) = 0.5d0*(g(i,k0) + g(i,k0+1))
      g(i,0) = g(i,k0) - 0.25d0*g(i,n)
    end do
  end subroutine row_mix

  ! Offsets at run-time positions (issue 38): a row of g written at a column
  ! offset the caller gives (a halo offset, as production codes write into
  ! their haloed arrays), from a difference of v at two offsets of its own.
  subroutine shift_row(ioff, d1, d2, k0, v)
    integer, intent(in) :: ioff, d1, d2, k0
    real(8), intent(in) :: v(0:m+1)
    integer :: i
!$f2s stencil name(pl_shift)
    do i = 1, m
      g(i+ioff, k0) = g(i+ioff, k0) + 0.5d0*(v(i+d1) - v(i+d2))
    end do
  end subroutine shift_row
end module planes_ops
