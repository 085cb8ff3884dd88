C     Survey nest 8: a Poisson Jacobi step with its grids in COMMON blocks
C     sized by PARAMETERs, coefficient arrays with a component dimension,
C     a residual sum, and the sizes in COMMON too.
      SUBROUTINE JACSTP(OMEGA, GOSA)
      IMPLICIT NONE
      INTEGER MIMAX, MJMAX, MKMAX
      PARAMETER (MIMAX = 33, MJMAX = 17, MKMAX = 17)
      REAL P, A, B, WRK1, WRK2, BND
      COMMON /PRES/ P(MIMAX,MJMAX,MKMAX)
      COMMON /MTRX/ A(MIMAX,MJMAX,MKMAX,4), B(MIMAX,MJMAX,MKMAX,3)
      COMMON /BOUND/ BND(MIMAX,MJMAX,MKMAX)
      COMMON /WORK/ WRK1(MIMAX,MJMAX,MKMAX), WRK2(MIMAX,MJMAX,MKMAX)
      INTEGER IMAX, JMAX, KMAX
      COMMON /INDEX/ IMAX, JMAX, KMAX
      REAL OMEGA, GOSA, S0, SS
      INTEGER I, J, K
C$F2S STENCIL NAME(JACOBI_COMMON)
      DO 10 K = 2, KMAX-1
        DO 10 J = 2, JMAX-1
          DO 10 I = 2, IMAX-1
            S0 = A(I,J,K,1)*P(I+1,J,K) + A(I,J,K,2)*P(I,J+1,K)
     1         + A(I,J,K,3)*P(I,J,K+1)
     2         + B(I,J,K,1)*(P(I+1,J+1,K) - P(I+1,J-1,K)
     3                     - P(I-1,J+1,K) + P(I-1,J-1,K))
     4         + B(I,J,K,2)*(P(I,J+1,K+1) - P(I,J-1,K+1)
     5                     - P(I,J+1,K-1) + P(I,J-1,K-1))
     6         + B(I,J,K,3)*(P(I+1,J,K+1) - P(I-1,J,K+1)
     7                     - P(I+1,J,K-1) + P(I-1,J,K-1))
     8         + WRK1(I,J,K)
            SS = (S0*A(I,J,K,4) - P(I,J,K))*BND(I,J,K)
            GOSA = GOSA + SS*SS
            WRK2(I,J,K) = P(I,J,K) + OMEGA*SS
   10 CONTINUE
      RETURN
      END
