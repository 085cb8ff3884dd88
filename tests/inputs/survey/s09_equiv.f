C     Survey nest 9: a work array shared through EQUIVALENCE with a 2D
C     view, as memory-starved F77 codes did.
      SUBROUTINE SMOOEQ(N, M, U, V)
      INTEGER N, M, I, J, NW
      PARAMETER (NW = 10000)
      DOUBLE PRECISION U(N, M), V(N, M), WORK(NW), W2(100, 100)
      EQUIVALENCE (WORK(1), W2(1, 1))
C$F2S STENCIL NAME(SMOOEQ_K)
      DO 10 J = 2, M-1
      DO 10 I = 2, N-1
         V(I,J) = 0.25D0*(U(I-1,J) + U(I+1,J) + U(I,J-1) + U(I,J+1))
     &          + W2(I,J)
   10 CONTINUE
      END
