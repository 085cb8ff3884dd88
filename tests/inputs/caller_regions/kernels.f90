! Module arrays, one annotated nest per procedure, and a host routine that
! writes the halo of the array it receives: the shape of bench/apps/swc.
module state
  implicit none
  integer :: n
  real(8), allocatable :: u(:), v(:), f(:)
end module state

module kernels
  use state
  implicit none
contains
  subroutine smooth
    integer :: i
    !$f2s stencil name(smooth)
    do i = 1, n
      v(i) = 0.25d0*u(i-1) + 0.5d0*u(i) + 0.25d0*u(i+1) + f(i)
    end do
  end subroutine smooth

  subroutine back(a)
    real(8), intent(in) :: a
    integer :: i
    !$f2s stencil name(back)
    do i = 1, n
      u(i) = u(i) + a*(v(i) - u(i))
    end do
  end subroutine back

  subroutine halo(g)
    real(8), intent(inout) :: g(0:)
    g(0) = g(n)
    g(n+1) = g(1)
  end subroutine halo
end module kernels
