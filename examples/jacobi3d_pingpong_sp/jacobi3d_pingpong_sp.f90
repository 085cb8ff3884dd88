! The 3D 7-point Jacobi in single precision, as a code on default REAL data
! writes it: the six neighbours' sum times a named constant (1/6, folded
! once), the field relaxed from p into q and back on each sweep (a
! ping-pong), each nest under an OpenMP PARALLEL DO of its two outer loops.
! The faces of the box are read, never written.
subroutine relax7(n1, n2, n3, nsweep, p, q)
  implicit none
  integer, intent(in) :: n1, n2, n3, nsweep
  real, intent(inout) :: p(0:n1+1, 0:n2+1, 0:n3+1), q(0:n1+1, 0:n2+1, 0:n3+1)
  real, parameter :: sixth = 1.0/6.0
  integer :: i, j, k, sweep

  !$f2s stencil timesteps name(relax7_steps) tune_size(40, 30, 20)
  do sweep = 1, nsweep
    !$omp parallel do collapse(2) private(i)
    do k = 1, n3
      do j = 1, n2
        do i = 1, n1
          q(i,j,k) = sixth*(p(i-1,j,k) + p(i+1,j,k) + p(i,j-1,k) + p(i,j+1,k) &
                            + p(i,j,k-1) + p(i,j,k+1))
        end do
      end do
    end do
    !$omp end parallel do
    !$omp parallel do collapse(2) private(i)
    do k = 1, n3
      do j = 1, n2
        do i = 1, n1
          p(i,j,k) = sixth*(q(i-1,j,k) + q(i+1,j,k) + q(i,j-1,k) + q(i,j+1,k) &
                            + q(i,j,k-1) + q(i,j,k+1))
        end do
      end do
    end do
    !$omp end parallel do
  end do
end subroutine relax7
