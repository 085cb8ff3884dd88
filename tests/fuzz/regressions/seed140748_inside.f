      subroutine sub2(nx, ny, alpha, s21, s22, s23, s24, d2, signed, f2,
     &       g2)
        implicit none
        integer, intent(in) :: nx, ny
        real(8), intent(in) :: alpha
        real(8), intent(inout) :: s21
        real(8), intent(inout) :: s22
        real(8), intent(inout) :: s23
        real(8), intent(inout) :: s24
        real(8), intent(inout) :: d2(-1:nx + 2, -2:ny + 2)
        real(8), intent(inout) :: signed(-1:nx + 1, 0:ny + 1)
        real(8), intent(inout) :: f2(-1:, 0:)
        logical, intent(in) :: g2(-1:2*nx + 2, -1:2*ny + 2)
        real(8), parameter :: c12 = 1.5d0 * 1.0d-1
        integer :: it
        logical :: lt
        real(8) :: t1
        real(8) :: t2
        real(4) :: t3
        integer :: i, j
!$f2s stencil name(k2) tune_size(9, 7)
        do j = 2, ny - 1, 2
          do i = 2, nx - 1
            d2(i, j) = c12
            signed(i, j) = (d2(i, j) / (0.7 + abs(1.25)))**2 -
     &       merge(d2(i, j)**3, c12, merge(i*3.0D0, signed(i, j), i
     &       .lt. i) < j*0.7 * 0.1)
          end do
        end do
      end subroutine sub2
      
