C     F77 with the DEC form of PARAMETER, without parentheses: typed by
C     the IMPLICIT rules, as gfortran types it (H is REAL, so 0.1D0 is
C     rounded to single precision; K2 is INTEGER, so 2.7 becomes 2).
      SUBROUTINE LEGACY(N, M, A, B)
      INTEGER N, M
      REAL*8 A(0:N+1,0:M+1), B(0:N+1,0:M+1)
      PARAMETER G = 3.0
      PARAMETER H = 0.1D0, K2 = 2.7
C$F2S STENCIL NAME(LEGACY2D) TUNE_SIZE(40, 30)
      DO 10 J = 1, M
      DO 10 I = 1, N
         B(I,J) = G*A(I,J) + H*K2*(A(I-1,J) + A(I+1,J))
   10 CONTINUE
      END
