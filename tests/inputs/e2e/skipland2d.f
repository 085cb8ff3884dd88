C     Land points skipped by jumps, as F77 ocean codes wrote masks: a GO TO
C     the shared CONTINUE of both loops, a second jump to a label before
C     the end (the statement after it runs at every point), and in the
C     second nest a CYCLE of the DO construct that ends its body.
      SUBROUTINE CLINIC(IMT, JMT, K, KMT, U, UOLD, W, FCOR, DT)
      INTEGER IMT, JMT, K, KMT(IMT, JMT), I, J
      REAL U(IMT, JMT), UOLD(IMT, JMT), W(IMT, JMT), FCOR(JMT), DT
      REAL DU
C$F2S STENCIL NAME(CLINIC_K) TUNE_SIZE(40, 30)
      DO 100 J = 2, JMT-1
        DO 100 I = 2, IMT-1
          IF (KMT(I,J) .LT. K) GO TO 100
          DU = DT*FCOR(J)*(UOLD(I+1,J) - UOLD(I-1,J))
          IF (KMT(I+1,J) .LT. K .OR. KMT(I-1,J) .LT. K) GO TO 50
          DU = DU + 0.5*DT*(UOLD(I,J+1) - UOLD(I,J-1))
   50     U(I,J) = UOLD(I,J) + DU
          W(I,J) = W(I,J) + ABS(DU)
  100 CONTINUE
      RETURN
      END
C
      SUBROUTINE CLIMSK(IMT, JMT, K, KMT, U, UOLD)
      INTEGER IMT, JMT, K, KMT(IMT, JMT), I, J
      REAL U(IMT, JMT), UOLD(IMT, JMT)
C$F2S STENCIL NAME(CLIMSK_K) TUNE_SIZE(40, 30)
      DO J = 2, JMT-1
        DO I = 2, IMT-1
          IF (KMT(I,J) .LT. K) CYCLE
          U(I,J) = 0.25*(UOLD(I+1,J) + UOLD(I-1,J)
     &           + UOLD(I,J+1) + UOLD(I,J-1))
        END DO
      END DO
      RETURN
      END
