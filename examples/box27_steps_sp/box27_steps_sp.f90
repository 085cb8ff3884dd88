! A 27-point smoother in single precision written out term by term, plane
! below, plane, plane above, as generated or hand-unrolled codes write it:
! each neighbour times the weight of its distance class (centre, faces,
! edges, corners; REAL(KIND=4) arguments), the field smoothed from f into g
! and back on each iteration (a ping-pong); the faces of the box held fixed.
subroutine smooth27s(nx, ny, nz, nit, c0, c1, c2, c3, f, g)
  implicit none
  integer, intent(in) :: nx, ny, nz, nit
  real(kind=4), intent(in) :: c0, c1, c2, c3
  real(kind=4), intent(inout) :: f(0:nx+1, 0:ny+1, 0:nz+1), g(0:nx+1, 0:ny+1, 0:nz+1)
  integer :: i, j, k, it

  !$f2s stencil timesteps name(smooth27s_steps) tune_size(96, 64, 48)
  do it = 1, nit
    do k = 1, nz
      do j = 1, ny
        do i = 1, nx
          g(i,j,k) = c3*f(i-1,j-1,k-1) + c2*f(i,j-1,k-1) + c3*f(i+1,j-1,k-1) &
                   + c2*f(i-1,j,k-1) + c1*f(i,j,k-1) + c2*f(i+1,j,k-1) &
                   + c3*f(i-1,j+1,k-1) + c2*f(i,j+1,k-1) + c3*f(i+1,j+1,k-1) &
                   + c2*f(i-1,j-1,k) + c1*f(i,j-1,k) + c2*f(i+1,j-1,k) &
                   + c1*f(i-1,j,k) + c0*f(i,j,k) + c1*f(i+1,j,k) &
                   + c2*f(i-1,j+1,k) + c1*f(i,j+1,k) + c2*f(i+1,j+1,k) &
                   + c3*f(i-1,j-1,k+1) + c2*f(i,j-1,k+1) + c3*f(i+1,j-1,k+1) &
                   + c2*f(i-1,j,k+1) + c1*f(i,j,k+1) + c2*f(i+1,j,k+1) &
                   + c3*f(i-1,j+1,k+1) + c2*f(i,j+1,k+1) + c3*f(i+1,j+1,k+1)
        end do
      end do
    end do
    do k = 1, nz
      do j = 1, ny
        do i = 1, nx
          f(i,j,k) = c3*g(i-1,j-1,k-1) + c2*g(i,j-1,k-1) + c3*g(i+1,j-1,k-1) &
                   + c2*g(i-1,j,k-1) + c1*g(i,j,k-1) + c2*g(i+1,j,k-1) &
                   + c3*g(i-1,j+1,k-1) + c2*g(i,j+1,k-1) + c3*g(i+1,j+1,k-1) &
                   + c2*g(i-1,j-1,k) + c1*g(i,j-1,k) + c2*g(i+1,j-1,k) &
                   + c1*g(i-1,j,k) + c0*g(i,j,k) + c1*g(i+1,j,k) &
                   + c2*g(i-1,j+1,k) + c1*g(i,j+1,k) + c2*g(i+1,j+1,k) &
                   + c3*g(i-1,j-1,k+1) + c2*g(i,j-1,k+1) + c3*g(i+1,j-1,k+1) &
                   + c2*g(i-1,j,k+1) + c1*g(i,j,k+1) + c2*g(i+1,j,k+1) &
                   + c3*g(i-1,j+1,k+1) + c2*g(i,j+1,k+1) + c3*g(i+1,j+1,k+1)
        end do
      end do
    end do
  end do
end subroutine smooth27s
