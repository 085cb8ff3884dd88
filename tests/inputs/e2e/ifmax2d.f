c A residual norm the FORTRAN 77 way: the maximum and the minimum kept by
c logical IFs (both orders of the comparison), beside a sum of squares.
      subroutine norms(n, m, u, ssq, rnmu, umin)
      implicit none
      integer n, m, i, j
      double precision u(0:n+1, 0:m+1), ssq, rnmu, umin, a
c$f2s stencil name(ifmax2d) tune_size(40, 30)
      do 10 j = 1, m
         do 10 i = 1, n
            a = dabs(u(i,j) - u(i-1,j))
            ssq = ssq + a*a
            if (a .gt. rnmu) rnmu = a
            if (umin .ge. u(i,j)) then
               umin = u(i,j)
            endif
 10   continue
      return
      end
