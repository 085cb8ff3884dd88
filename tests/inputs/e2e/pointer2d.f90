! POINTER and TARGET as statements after the type declarations: the pointers'
! bounds are their targets', which the module's wrapper passes.
subroutine pointers(n, m, a, b)
  implicit none
  integer :: n, m, i, j
  real(8), dimension(:,:) :: a, b
  real(8) :: c
  pointer :: a
  pointer b
  target :: c(0:n+1, 0:m+1)
  c = 0.5d0
  !$f2s stencil name(pointer2d) tune_size(40, 30)
  do j = 1, m
    do i = 1, n
      b(i,j) = a(i-1,j) + a(i,j+1) + c(i,j)*a(i,j)
    end do
  end do
end subroutine pointers
