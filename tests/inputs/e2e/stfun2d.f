C     Statement functions, as F77 codes wrote small formulas once: an
C     upwind flux of three arguments, a second one referencing the first,
C     and DOUBLE PRECISION dummies typed by IMPLICIT.
      SUBROUTINE UPWIND(N, M, Q, QN, CX, DTDX)
      IMPLICIT DOUBLE PRECISION (A-H, O-Z)
      DIMENSION Q(0:N+1, M), QN(0:N+1, M), CX(0:N+1, M)
      FLX(C, QL, QR) = 0.5D0*(C + ABS(C))*QL + 0.5D0*(C - ABS(C))*QR
      DIV(C, CM, Q0, QP, QM) = FLX(C, Q0, QP) - FLX(CM, QM, Q0)
C$F2S STENCIL NAME(UPWIND_K) TUNE_SIZE(40, 30)
      DO 10 J = 1, M
         DO 10 I = 1, N
            QN(I,J) = Q(I,J) - DTDX*DIV(CX(I,J), CX(I-1,J), Q(I,J),
     &                                  Q(I+1,J), Q(I-1,J))
   10 CONTINUE
      RETURN
      END
