C     Implicit vertical mixing, one tridiagonal system per column, in the
C     form f2stencil's refusal of the column form (survey nest 6, work
C     arrays CP(K), DP(K) of one column) asks for: the work arrays with the
C     column's indices, each sweep over K a region of its own with K
C     outermost, the statements before the first sweep a region over J and
C     I, and the statement after it, T(I,J,NZ) = DP(I,J,NZ), moved into the
C     sweep that computes level NZ under IF (K .EQ. NZ) (and into the region
C     of level 1 for a column of one level).
      SUBROUTINE VMIXC(NX, NY, NZ, DT, AKV, DZ, T, CP, DP)
      INTEGER*4 NX, NY, NZ, I, J, K
      REAL*8 DT, AKV, DZ, T, CP, DP, A, B, C, DEN
      DIMENSION AKV(NX,NY,NZ+1), DZ(NZ), T(NX,NY,NZ)
      DIMENSION CP(NX,NY,NZ), DP(NX,NY,NZ)
C$F2S STENCIL NAME(VMIXC_TOP) TUNE_SIZE(65, 33)
      DO 5 J = 1, NY
      DO 5 I = 1, NX
         B = 1.D0 + DT*AKV(I,J,2)/(DZ(1)*DZ(1))
         C = -DT*AKV(I,J,2)/(DZ(1)*DZ(1))
         CP(I,J,1) = C/B
         DP(I,J,1) = T(I,J,1)/B
         IF (NZ .EQ. 1) T(I,J,1) = DP(I,J,1)
    5 CONTINUE
C$F2S STENCIL NAME(VMIXC_DOWN) TUNE_SIZE(65, 33, 17)
      DO 10 K = 2, NZ
      DO 10 J = 1, NY
      DO 10 I = 1, NX
         A = -DT*AKV(I,J,K)/(DZ(K)*DZ(K))
         C = -DT*AKV(I,J,K+1)/(DZ(K)*DZ(K))
         B = 1.D0 - A - C
         DEN = B - A*CP(I,J,K-1)
         CP(I,J,K) = C/DEN
         DP(I,J,K) = (T(I,J,K) - A*DP(I,J,K-1))/DEN
         IF (K .EQ. NZ) T(I,J,K) = DP(I,J,K)
   10 CONTINUE
C$F2S STENCIL NAME(VMIXC_UP) TUNE_SIZE(65, 33, 17)
      DO 20 K = NZ-1, 1, -1
      DO 20 J = 1, NY
      DO 20 I = 1, NX
         T(I,J,K) = DP(I,J,K) - CP(I,J,K)*T(I,J,K+1)
   20 CONTINUE
      RETURN
      END
