module grid_types2
  implicit none
  type :: field2d
    integer :: nx, ny
    real(8), allocatable :: u(:,:), un(:,:)
  end type field2d
end module grid_types2

subroutine jacobi_assoc(g, c)
  use grid_types2
  implicit none
  type(field2d), intent(inout) :: g
  real(8), intent(in) :: c
  integer :: i, j
  associate (u => g%u, un => g%un, nx => g%nx, ny => g%ny)
  !$f2s stencil name(b11_assoc)
  do j = 2, ny - 1
    do i = 2, nx - 1
      un(i,j) = u(i,j) + c*(u(i+1,j) + u(i-1,j) + u(i,j+1) + u(i,j-1) - 4d0*u(i,j))
    end do
  end do
  end associate
end subroutine jacobi_assoc
