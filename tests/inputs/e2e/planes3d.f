c     Periodic ghost faces of a multigrid level (issue 38): the three
c     face copies of NPB MG's comm3, F77 fixed form, each a plane of u
c     at a run-time position (n1, n2 or n3) copied from another.
      subroutine comm3(u, n1, n2, n3)
      implicit none
      integer n1, n2, n3
      double precision u(n1, n2, n3)
      integer i1, i2, i3
c$f2s stencil name(pl_comm_x)
      do 10 i3 = 2, n3 - 1
         do 10 i2 = 2, n2 - 1
            u(1, i2, i3) = u(n1-1, i2, i3)
            u(n1, i2, i3) = u(2, i2, i3)
   10 continue
c$f2s stencil name(pl_comm_y)
      do 20 i3 = 2, n3 - 1
         do 20 i1 = 1, n1
            u(i1, 1, i3) = u(i1, n2-1, i3)
            u(i1, n2, i3) = u(i1, 2, i3)
   20 continue
c$f2s stencil name(pl_comm_z)
      do 30 i2 = 1, n2
         do 30 i1 = 1, n1
            u(i1, i2, 1) = u(i1, i2, n3-1)
            u(i1, i2, n3) = u(i1, i2, 2)
   30 continue
      end
