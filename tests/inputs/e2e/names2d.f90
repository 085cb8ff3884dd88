! Argument names that extend one another (u, u_n, u_ref) or that the
! generated harnesses use for their own locals (tolerance, terms): each
! argument's buffers in a harness must keep their own names.
subroutine names(n, m, u, u_n, u_ref, tolerance, terms)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(inout) :: u(0:n+1, 0:m+1)
  real(8), intent(in) :: u_n(0:n+1, 0:m+1), u_ref(0:n+1, 0:m+1), tolerance(0:n+1, 0:m+1)
  real(8), intent(inout) :: terms
  integer :: i, j
  !$f2s stencil name(names2d) tune_size(40, 30)
  do j = 1, m
    do i = 1, n
      u(i,j) = 0.25d0*(u_n(i-1,j) + u_n(i+1,j) + u_n(i,j-1) + u_n(i,j+1)) + u_ref(i,j)*tolerance(i,j)
      terms = terms + u_n(i,j)
    end do
  end do
end subroutine names
