c     Assumed-size dummies as F77 codes declare them (issue 38): the last
c     extent is '*', and the loop bounds say how far each region reaches.
c     A right-hand side over five components with odd leading dimensions
c     (ldx, ldy larger than the grid), and a 2D smoothing step whose
c     caller passes an element of a larger array as its start.
      subroutine aszrhs(rsd, u, frct, ldx, ldy, nx, ny, nz)
      implicit none
      integer ldx, ldy, nx, ny, nz
      double precision rsd(5, ldx, ldy, *), u(5, ldx, ldy, *)
      double precision frct(5, ldx, ldy, *)
      integer i, j, k, m
c$f2s stencil name(asz_rhs) tune_size(20, 9, 7)
      do 30 k = 2, nz - 1
         do 20 j = 2, ny - 1
            do 10 i = 2, nx - 1
               do 5 m = 1, 5
                  rsd(m, i, j, k) = frct(m, i, j, k) - 0.5d0 * (
     &                 u(m, i+1, j, k) - u(m, i-1, j, k)
     &               + u(m, i, j+1, k) - u(m, i, j-1, k)
     &               + u(m, i, j, k+1) - u(m, i, j, k-1))
    5          continue
   10       continue
   20    continue
   30 continue
      end

      subroutine aszsmo(v, w, ldv, nx, ny)
      implicit none
      integer ldv, nx, ny, i, j
      double precision v(0:ldv, *), w(0:ldv, *)
c$f2s stencil name(asz_smooth) tune_size(40, 30)
      do 10 j = 2, ny
         do 10 i = 1, nx - 1
            w(i, j) = 0.25d0 * (v(i-1, j) + v(i+1, j)
     &              + v(i, j-1) + v(i, j+1))
   10 continue
      end
