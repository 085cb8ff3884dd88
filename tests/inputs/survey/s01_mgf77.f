c     Survey nest 1: a multigrid level kernel in 1990s benchmark style.
c     Implicit typing (no IMPLICIT NONE), DOUBLE PRECISION, line buffers
c     sized by a PARAMETER, an OpenMP directive between the annotation
c     and the loop, and two inner loops ending on one shared label.
      subroutine resd(u, v, r, n1, n2, n3, a)
      integer n1, n2, n3, nm
      parameter (nm = 1030)
      double precision u(n1,n2,n3), v(n1,n2,n3), r(n1,n2,n3), a(0:3)
      double precision u1(nm), u2(nm)
c$f2s stencil name(resd_k)
!$omp parallel do default(shared) private(i1,i2,i3,u1,u2)
      do 30 i3 = 2, n3-1
         do 20 i2 = 2, n2-1
            do 10 i1 = 1, n1
               u1(i1) = u(i1,i2-1,i3) + u(i1,i2+1,i3)
     >                + u(i1,i2,i3-1) + u(i1,i2,i3+1)
               u2(i1) = u(i1,i2-1,i3-1) + u(i1,i2+1,i3-1)
     >                + u(i1,i2-1,i3+1) + u(i1,i2+1,i3+1)
 10         continue
            do 20 i1 = 2, n1-1
               r(i1,i2,i3) = v(i1,i2,i3)
     >                     - a(0) * u(i1,i2,i3)
     >                     - a(2) * ( u2(i1) + u1(i1-1) + u1(i1+1) )
     >                     - a(3) * ( u2(i1-1) + u2(i1+1) )
 20      continue
 30   continue
      return
      end
