! A grid kept in a derived type, as object-style codes do.
module grid_types
  implicit none
  type :: field2d
    integer :: nx, ny
    real(8), allocatable :: u(:,:), un(:,:)
  end type field2d
end module grid_types

subroutine jacobi_dt(g, c)
  use grid_types
  implicit none
  type(field2d), intent(inout) :: g
  real(8), intent(in) :: c
  integer :: i, j
  !$f2s stencil name(b09_dtype)
  do j = 2, g%ny - 1
    do i = 2, g%nx - 1
      g%un(i,j) = g%u(i,j) + c*(g%u(i+1,j) + g%u(i-1,j) + g%u(i,j+1) + g%u(i,j-1) - 4d0*g%u(i,j))
    end do
  end do
end subroutine jacobi_dt
