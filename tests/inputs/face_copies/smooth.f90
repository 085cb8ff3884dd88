! A smoother's iteration as multigrid codes write it: a sweep into a work
! array, the interior copied back, then periodic faces as array
! assignments within one array (u(1, :, :) = u(n1-1, :, :)), with the
! sizes arguments. --rewrite with a GPU target runs every statement of the
! loop in the library, so nothing moves to the host inside it;
! tests/e2e/DataRegionsTest.cpp runs it against gfortran's build.
subroutine smooth(n1, n2, n3, nit, u, w)
  implicit none
  integer, intent(in) :: n1, n2, n3, nit
  real(8), intent(inout) :: u(n1, n2, n3), w(n1, n2, n3)
  integer :: i1, i2, i3, it
  do it = 1, nit
    !$f2s stencil name(sweep)
    do i3 = 2, n3 - 1
      do i2 = 2, n2 - 1
        do i1 = 2, n1 - 1
          w(i1, i2, i3) = 0.4d0*u(i1, i2, i3) + 0.1d0*(u(i1 - 1, i2, i3) + u(i1 + 1, i2, i3) &
                          + u(i1, i2 - 1, i3) + u(i1, i2 + 1, i3) + u(i1, i2, i3 - 1) &
                          + u(i1, i2, i3 + 1)) + 0.01d0*it
        end do
      end do
    end do
    u(2:n1-1, 2:n2-1, 2:n3-1) = w(2:n1-1, 2:n2-1, 2:n3-1)
    u(1, :, :) = u(n1 - 1, :, :)
    u(n1, :, :) = u(2, :, :)
    u(:, 1, :) = u(:, n2 - 1, :)
    u(:, n2, :) = u(:, 2, :)
    u(:, :, 1) = u(:, :, n3 - 1)
    u(:, :, n3) = u(:, :, 2)
  end do
end subroutine smooth
