c     Trilinear prolongation from a coarse grid z to a fine
c     grid u (added in), F77 multigrid style: buffers at the coarse index,
c     fine stores at 2*i-1 and 2*i, INTEGER*4 sizes.
      subroutine intrp(z, mm1, mm2, mm3, u, n1, n2, n3)
      implicit none
      integer*4 mm1, mm2, mm3, n1, n2, n3, i1, i2, i3, m
      parameter (m = 535)
      double precision z(mm1,mm2,mm3), u(n1,n2,n3)
      double precision z1(m), z2(m), z3(m)
c$f2s stencil name(intrp_k) tune_size(24, 10, 9)
      do 100 i3 = 1, mm3-1
         do 100 i2 = 1, mm2-1
            do 10 i1 = 1, mm1
               z1(i1) = z(i1,i2+1,i3) + z(i1,i2,i3)
               z2(i1) = z(i1,i2,i3+1) + z(i1,i2,i3)
               z3(i1) = z(i1,i2+1,i3+1) + z(i1,i2,i3+1) + z1(i1)
   10       continue
            do 20 i1 = 1, mm1-1
               u(2*i1-1,2*i2-1,2*i3-1) = u(2*i1-1,2*i2-1,2*i3-1)
     >              + z(i1,i2,i3)
               u(2*i1,2*i2-1,2*i3-1) = u(2*i1,2*i2-1,2*i3-1)
     >              + 0.5d0*(z(i1+1,i2,i3)+z(i1,i2,i3))
   20       continue
            do 30 i1 = 1, mm1-1
               u(2*i1-1,2*i2,2*i3-1) = u(2*i1-1,2*i2,2*i3-1)
     >              + 0.5d0*z1(i1)
               u(2*i1,2*i2,2*i3-1) = u(2*i1,2*i2,2*i3-1)
     >              + 0.25d0*(z1(i1)+z1(i1+1))
   30       continue
            do 40 i1 = 1, mm1-1
               u(2*i1-1,2*i2-1,2*i3) = u(2*i1-1,2*i2-1,2*i3)
     >              + 0.5d0*z2(i1)
               u(2*i1,2*i2-1,2*i3) = u(2*i1,2*i2-1,2*i3)
     >              + 0.25d0*(z2(i1)+z2(i1+1))
   40       continue
            do 50 i1 = 1, mm1-1
               u(2*i1-1,2*i2,2*i3) = u(2*i1-1,2*i2,2*i3)
     >              + 0.25d0*z3(i1)
               u(2*i1,2*i2,2*i3) = u(2*i1,2*i2,2*i3)
     >              + 0.125d0*(z3(i1)+z3(i1+1))
   50       continue
  100 continue
      return
      end
