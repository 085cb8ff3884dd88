! An old code written in default REAL and built with -fdefault-real-8 (or
! -r8): its arrays, its implicitly typed temporary, its named constant and
! its literals are all REAL(8) in the build, and must be in the library.
subroutine relax8(n, m, u, v)
  integer n, m, i, j
  real u(0:n+1, 0:m+1), v(0:n+1, 0:m+1)
  real c
  parameter (c = 0.1)
  !$f2s stencil name(real8_2d) tune_size(40, 30)
  do j = 1, m
    do i = 1, n
      s = 0.1*(u(i-1, j) + u(i+1, j)) + c*u(i, j-1)
      v(i, j) = s + 0.3*u(i, j+1) - 1.0e-2*u(i, j)
    end do
  end do
end
