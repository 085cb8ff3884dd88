c     Two levels in one work array, handed down by sequence association
c     (CALL SWEEP(W(1), W(N+3), N)) through a routine without nests that
c     calls a host routine between the kernels (as a V-cycle calls its
c     halo copies); the coefficients in COMMON; the host routine writes a
c     level's ends.
      program mg
      implicit none
      integer n, it, i
      parameter (n = 30)
      double precision w(2*(n+2)), c(n+2), s
      common /coef/ c
      do 5 i = 1, 2*(n+2)
         w(i) = sin(0.1d0*i)
    5 continue
      do 6 i = 1, n + 2
         c(i) = 0.2d0 + 0.001d0*i
    6 continue
      s = 0
      do 20 it = 1, 12
         call cycle(w, n)
         call bc(w(n+3), n)
         s = s + w(5)
   20 continue
      print '(3es25.16)', s, w(7), w(n+9)
      end program

      subroutine cycle(w, n)
      implicit none
      integer n
      double precision w(*)
      call sweep(w(1), w(n+3), n)
      call bc(w(n+3), n)
      call sweep(w(n+3), w(1), n)
      end

      subroutine sweep(u, r, n)
      implicit none
      integer n, i
      double precision u(n+2), r(n+2), c(32)
      common /coef/ c
c$f2s stencil name(sweep)
      do 10 i = 2, n + 1
         r(i) = c(i)*(u(i-1) + u(i+1))
   10 continue
      end

      subroutine bc(u, n)
      implicit none
      integer n
      double precision u(n+2)
      u(1) = u(n+1)
      u(n+2) = u(2)
      end
