! A time loop of two annotated nests with host code between them: --rewrite
! with a GPU target keeps u, v and r on the device around the loop and puts
! data updates around the host statements, and runs the array copy after the
! second nest on the device (docs/rewrite.md, "Data regions");
! tests/e2e/DataRegionsTest.cpp runs it.
subroutine relax(n, nt, u, v, r, total)
  implicit none
  integer, intent(in) :: n, nt
  real(8), intent(inout) :: u(0:n+1), v(0:n+1), r(n)
  real(8), intent(out) :: total
  integer :: i, it
  total = 0
  do it = 1, nt
    !$f2s stencil name(smooth)
    do i = 1, n
      v(i) = 0.25d0*u(i-1) + 0.5d0*u(i) + 0.25d0*u(i+1)
    end do
    ! Host code: a read of v, a periodic boundary of u, a call that changes v.
    total = total + v(n/2)
    u(0) = v(n)
    u(n+1) = v(1)
    call perturb(n, v, it)
    if (total > 1d300) exit
    !$f2s stencil name(back)
    do i = 1, n
      u(i) = v(i) + 0.001d0*u(i)
      r(i) = v(i) - u(i)
    end do
    ! A copy between the calls, not annotated: the library runs it too.
    r(2:n) = v(1:n-1)
  end do
  total = total + sum(r) + u(3)
end subroutine relax

subroutine perturb(n, v, it)
  implicit none
  integer, intent(in) :: n, it
  real(8), intent(inout) :: v(0:n+1)
  v(mod(it, n) + 1) = v(mod(it, n) + 1) + 1d0
end subroutine perturb
