C     A multigrid residual in the FORTRAN 77 style: the grid sized by
C     PARAMETERs, two line buffers filled over the whole row, then read at
C     i1-1, i1, i1+1 by the loop beside them.
      subroutine resid3(u, v, r, a)
      implicit none
      integer nx, ny, nz
      parameter (nx = 34, ny = 34, nz = 34)
      double precision u(nx,ny,nz), v(nx,ny,nz), r(nx,ny,nz), a(0:3)
      double precision u1(nx), u2(nx)
      integer i1, i2, i3
C$f2s stencil name(resid3)
      do 30 i3 = 2, nz-1
         do 20 i2 = 2, ny-1
            do 10 i1 = 1, nx
               u1(i1) = u(i1,i2-1,i3) + u(i1,i2+1,i3)
     &                + u(i1,i2,i3-1) + u(i1,i2,i3+1)
               u2(i1) = u(i1,i2-1,i3-1) + u(i1,i2+1,i3-1)
     &                + u(i1,i2-1,i3+1) + u(i1,i2+1,i3+1)
 10         continue
            do 15 i1 = 2, nx-1
               r(i1,i2,i3) = v(i1,i2,i3)
     &                     - a(0) * u(i1,i2,i3)
     &                     - a(2) * ( u2(i1) + u1(i1-1) + u1(i1+1) )
     &                     - a(3) * ( u2(i1-1) + u2(i1+1) )
 15         continue
 20      continue
 30   continue
      return
      end
