! The residual and the smoother of a 3D multigrid V-cycle, written the way
! multigrid codes of the F77 era write them: each (j,k) row first fills line
! buffers with the sums of the four edge neighbours and of the four corner
! neighbours in the (j,k) plane, over the whole row, and the row's update then
! reads the buffers at i-1, i and i+1, so that each sum is formed once per
! row rather than three times. f2stencil substitutes the sums into the update
! (the same operations in the same order, so the same bits) and the library
! keeps no buffer. Arrays are 1-based, n1 x n2 x n3, with one boundary layer
! on each side; the operator's coefficients come as a(0:3) and c(0:3).

! r = v - A u, with A the 27-point operator of weights a(0) (centre), a(1)
! (faces), a(2) (edges), a(3) (corners). The buffers are automatic arrays.
subroutine mg_resid(n1, n2, n3, u, v, r, a)
  implicit none
  integer n1, n2, n3
  double precision u(n1, n2, n3), v(n1, n2, n3), r(n1, n2, n3), a(0:3)
  double precision edge(n1), corner(n1)
  integer i1, i2, i3

!$f2s stencil name(resid)
  do i3 = 2, n3 - 1
    do i2 = 2, n2 - 1
      do i1 = 1, n1
        edge(i1) = u(i1, i2-1, i3) + u(i1, i2+1, i3) + u(i1, i2, i3-1) + u(i1, i2, i3+1)
        corner(i1) = u(i1, i2-1, i3-1) + u(i1, i2+1, i3-1) &
                   + u(i1, i2-1, i3+1) + u(i1, i2+1, i3+1)
      end do
      do i1 = 2, n1 - 1
        r(i1, i2, i3) = v(i1, i2, i3) - a(0)*u(i1, i2, i3) &
                      - a(1)*(u(i1-1, i2, i3) + u(i1+1, i2, i3) + edge(i1)) &
                      - a(2)*(corner(i1) + edge(i1-1) + edge(i1+1)) &
                      - a(3)*(corner(i1-1) + corner(i1+1))
      end do
    end do
  end do
end subroutine mg_resid

! u = u + C r, the smoother's correction with weights c(0:2) over the centre,
! the faces and the edges of r. The buffers have a fixed length, as codes
! that size their work arrays with a PARAMETER do; the rows are read in two
! loops over one range (the centre line, then the rest), which f2stencil
! runs as one.
subroutine mg_smooth(n1, n2, n3, r, u, c)
  implicit none
  integer, parameter :: nmax = 1040
  integer n1, n2, n3
  double precision r(n1, n2, n3), u(n1, n2, n3), c(0:3)
  double precision r1(nmax), r2(nmax)
  integer i1, i2, i3

!$f2s stencil name(smooth)
  do i3 = 2, n3 - 1
    do i2 = 2, n2 - 1
      do i1 = 1, n1
        r1(i1) = r(i1, i2-1, i3) + r(i1, i2+1, i3) + r(i1, i2, i3-1) + r(i1, i2, i3+1)
        r2(i1) = r(i1, i2-1, i3-1) + r(i1, i2+1, i3-1) + r(i1, i2-1, i3+1) + r(i1, i2+1, i3+1)
      end do
      do i1 = 2, n1 - 1
        u(i1, i2, i3) = u(i1, i2, i3) + c(0)*r(i1, i2, i3)
      end do
      do i1 = 2, n1 - 1
        u(i1, i2, i3) = u(i1, i2, i3) + c(1)*(r(i1-1, i2, i3) + r(i1+1, i2, i3) + r1(i1)) &
                      + c(2)*(r2(i1) + r1(i1-1) + r1(i1+1))
      end do
    end do
  end do
end subroutine mg_smooth
