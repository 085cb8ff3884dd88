! One Jacobi sweep of a 19-point pressure Poisson solver in single
! precision, written as such codes write it: 4D coefficient arrays
! (a(:,:,:,1:4), b(:,:,:,1:3), c(:,:,:,1:3)), the work arrays and the
! boundary mask 3D, odd extents (the leading dimension of a 513-point grid).
! bench/cpu/gap/run.sh calls the library tuned from it from gap.c, with the
! arrays allocated and first touched in the ways a harness and a program do.
subroutine jacobi19(mx, my, mz, omega, p, a, b, c, wrk1, bnd, wrk2)
  implicit none
  integer, intent(in) :: mx, my, mz
  real(4), intent(in) :: omega
  real(4), intent(in) :: p(mx, my, mz), a(mx, my, mz, 4), b(mx, my, mz, 3), c(mx, my, mz, 3)
  real(4), intent(in) :: wrk1(mx, my, mz), bnd(mx, my, mz)
  real(4), intent(inout) :: wrk2(mx, my, mz)
  real(4) :: s0, ss
  integer :: i, j, k
  !$f2s stencil name(jacobi19) tune_size(257, 257, 513)
  do k = 2, mz - 1
    do j = 2, my - 1
      do i = 2, mx - 1
        s0 = a(i,j,k,1)*p(i+1,j,k) + a(i,j,k,2)*p(i,j+1,k) + a(i,j,k,3)*p(i,j,k+1) &
           + b(i,j,k,1)*(p(i+1,j+1,k) - p(i+1,j-1,k) - p(i-1,j+1,k) + p(i-1,j-1,k)) &
           + b(i,j,k,2)*(p(i,j+1,k+1) - p(i,j-1,k+1) - p(i,j+1,k-1) + p(i,j-1,k-1)) &
           + b(i,j,k,3)*(p(i+1,j,k+1) - p(i-1,j,k+1) - p(i+1,j,k-1) + p(i-1,j,k-1)) &
           + c(i,j,k,1)*p(i-1,j,k) + c(i,j,k,2)*p(i,j-1,k) + c(i,j,k,3)*p(i,j,k-1) &
           + wrk1(i,j,k)
        ss = (s0*a(i,j,k,4) - p(i,j,k))*bnd(i,j,k)
        wrk2(i,j,k) = p(i,j,k) + omega*ss
      end do
    end do
  end do
end subroutine jacobi19
