C     Survey nest 9b: two views of one storage through EQUIVALENCE, the nest
C     writing one and reading the other (an in-place update in disguise).
      SUBROUTINE SMOOEQ(N, M)
      INTEGER N, M, I, J
      DOUBLE PRECISION A(100, 100), B(100, 100)
      COMMON /SCR/ A
      EQUIVALENCE (A(1,1), B(1,1))
C$F2S STENCIL NAME(EQ_K)
      DO 10 J = 2, M-1
      DO 10 I = 2, N-1
         B(I,J) = 0.5D0*(A(I-1,J) + A(I+1,J))
   10 CONTINUE
      END
