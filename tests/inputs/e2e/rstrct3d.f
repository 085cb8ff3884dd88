c     Full-weighting restriction from a fine grid r to a
c     coarse grid s, F77 style: fine indices in INTEGER temporaries set
c     between the loops, the fine-grid parity in d1..d3, line buffers
c     indexed by the fine index, shared CONTINUE label.
      subroutine rstrct(r, m1k, m2k, m3k, s, m1j, m2j, m3j)
      implicit none
      integer m1k, m2k, m3k, m1j, m2j, m3j, m
      parameter (m = 1037)
      double precision r(m1k,m2k,m3k), s(m1j,m2j,m3j)
      integer j1, j2, j3, i1, i2, i3, d1, d2, d3
      double precision x1(m), y1(m), x2, y2
      if (m1k .eq. 3) then
         d1 = 2
      else
         d1 = 1
      endif
      if (m2k .eq. 3) then
         d2 = 2
      else
         d2 = 1
      endif
      if (m3k .eq. 3) then
         d3 = 2
      else
         d3 = 1
      endif
c$f2s stencil name(rstrct_k) tune_size(24, 10, 9)
      do 100 j3 = 2, m3j-1
         i3 = 2*j3 - d3
         do 100 j2 = 2, m2j-1
            i2 = 2*j2 - d2
            do 50 j1 = 2, m1j
               i1 = 2*j1 - d1
               x1(i1-1) = r(i1-1,i2-1,i3  ) + r(i1-1,i2+1,i3  )
     >                  + r(i1-1,i2,  i3-1) + r(i1-1,i2,  i3+1)
               y1(i1-1) = r(i1-1,i2-1,i3-1) + r(i1-1,i2-1,i3+1)
     >                  + r(i1-1,i2+1,i3-1) + r(i1-1,i2+1,i3+1)
   50       continue
            do 100 j1 = 2, m1j-1
               i1 = 2*j1 - d1
               y2 = r(i1, i2-1,i3-1) + r(i1, i2-1,i3+1)
     >            + r(i1, i2+1,i3-1) + r(i1, i2+1,i3+1)
               x2 = r(i1, i2-1,i3  ) + r(i1, i2+1,i3  )
     >            + r(i1, i2,  i3-1) + r(i1, i2,  i3+1)
               s(j1,j2,j3) =
     >               0.5D0 * r(i1,i2,i3)
     >             + 0.25D0 * ( r(i1-1,i2,i3) + r(i1+1,i2,i3) + x2)
     >             + 0.125D0 * ( x1(i1-1) + x1(i1+1) + y2)
     >             + 0.0625D0 * ( y1(i1-1) + y1(i1+1) )
  100 continue
      return
      end
