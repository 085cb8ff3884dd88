C     Implicit vertical mixing of an ocean model with land and a sea floor
C     that varies: KMT(I,J) is the number of wet levels of column (I,J), 0
C     on land. Land columns are skipped (GO TO the shared CONTINUE); a wet
C     column is solved over every level, with the mixing coefficients zero
C     through the floor and below it, so that the dry levels keep their
C     values. The work arrays are sized by a PARAMETER, as in F77 codes.
      SUBROUTINE VMIXM(IMT, JMT, KM, DTT, KMT, VDC, DZT, TR)
      INTEGER IMT, JMT, KM, I, J, K, KMAX
      PARAMETER (KMAX = 120)
      INTEGER KMT(IMT, JMT)
      DOUBLE PRECISION DTT, VDC(IMT,JMT,0:KM), DZT(KM), TR(IMT,JMT,KM)
      DOUBLE PRECISION AU(KMAX), BU(KMAX), A, B, C, DEN
C$F2S STENCIL NAME(VMIX_KMT)
      DO 100 J = 1, JMT
      DO 100 I = 1, IMT
         IF (KMT(I,J) .EQ. 0) GO TO 100
         C = -DTT*VDC(I,J,1)/(DZT(1)*DZT(1))
         IF (KMT(I,J) .LT. 2) C = 0.D0
         B = 1.D0 - C
         AU(1) = C/B
         BU(1) = TR(I,J,1)/B
         DO 10 K = 2, KM
            A = -DTT*VDC(I,J,K-1)/(DZT(K)*DZT(K))
            C = -DTT*VDC(I,J,K)/(DZT(K)*DZT(K))
            IF (K .GE. KMT(I,J)) C = 0.D0
            IF (K .GT. KMT(I,J)) A = 0.D0
            B = 1.D0 - A - C
            DEN = B - A*AU(K-1)
            AU(K) = C/DEN
            BU(K) = (TR(I,J,K) - A*BU(K-1))/DEN
   10    CONTINUE
         TR(I,J,KM) = BU(KM)
         DO 20 K = KM-1, 1, -1
            TR(I,J,K) = BU(K) - AU(K)*TR(I,J,K+1)
   20    CONTINUE
  100 CONTINUE
      RETURN
      END
