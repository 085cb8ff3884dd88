C     A chemistry step in FORTRAN 77: species and bins are loops
C     around the grid's, the arrays in (i,k,j) order with both last,
C     their counts arguments. The kernel keeps the grid's three loops;
C     the species and bin loops run inside each point, in order.
      SUBROUTINE CHEMSTEP(NX, NY, NZ, NSP, NBIN, DT, C, CN)
      INTEGER NX, NY, NZ, NSP, NBIN
      DOUBLE PRECISION DT
      DOUBLE PRECISION C(0:NX+1, 0:NZ+1, 0:NY+1, NSP, NBIN)
      DOUBLE PRECISION CN(NX, NZ, NY, NSP, NBIN)
      INTEGER I, J, K, N, L
C$F2S STENCIL NAME(CHEM5D)
      DO 10 L = 1, NBIN
      DO 10 N = 1, NSP
      DO 10 J = 1, NY
      DO 10 K = 1, NZ
      DO 10 I = 1, NX
         CN(I, K, J, N, L) = C(I, K, J, N, L)
     &      + DT*(C(I+1, K, J, N, L) - C(I-1, K, J, N, L)
     &      + C(I, K+1, J, N, L) - C(I, K, J-1, N, L))
   10 CONTINUE
      END
