C     Survey nest 6: implicit vertical mixing, one tridiagonal system per
C     column solved with column work arrays, in fixed form with REAL*8,
C     DIMENSION statements apart from the types, and INTEGER*4.
      SUBROUTINE VMIX(NX, NY, NZ, DT, AKV, DZ, T)
      INTEGER*4 NX, NY, NZ, I, J, K, NZMAX
      PARAMETER (NZMAX = 200)
      REAL*8 DT, AKV, DZ, T, A, B, C, CP, DP, DEN
      DIMENSION AKV(NX,NY,NZ+1), DZ(NZ), T(NX,NY,NZ)
      DIMENSION CP(NZMAX), DP(NZMAX)
C$F2S STENCIL NAME(VMIX_K)
      DO 40 J = 1, NY
      DO 30 I = 1, NX
         B = 1.D0 + DT*AKV(I,J,2)/(DZ(1)*DZ(1))
         C = -DT*AKV(I,J,2)/(DZ(1)*DZ(1))
         CP(1) = C/B
         DP(1) = T(I,J,1)/B
         DO 10 K = 2, NZ
            A = -DT*AKV(I,J,K)/(DZ(K)*DZ(K))
            C = -DT*AKV(I,J,K+1)/(DZ(K)*DZ(K))
            B = 1.D0 - A - C
            DEN = B - A*CP(K-1)
            CP(K) = C/DEN
            DP(K) = (T(I,J,K) - A*DP(K-1))/DEN
   10    CONTINUE
         T(I,J,NZ) = DP(NZ)
         DO 20 K = NZ-1, 1, -1
            T(I,J,K) = DP(K) - CP(K)*T(I,J,K+1)
   20    CONTINUE
   30 CONTINUE
   40 CONTINUE
      RETURN
      END
