C     Survey nest 10: assumed-size dummies, the leading dimension passed
C     with its halo, as linear-algebra-style F77 codes declare them.
      SUBROUTINE LAP2AS(NX, NY, U, UNEW, RHS, H2)
      INTEGER*4 NX, NY, I, J
      REAL*8 U(0:NX+1, *), UNEW(0:NX+1, *), RHS(NX, *), H2
C$F2S STENCIL NAME(LAP2AS_K)
      DO 20 J = 1, NY
         DO 10 I = 1, NX
            UNEW(I,J) = 0.25D0*(U(I-1,J) + U(I+1,J) + U(I,J-1)
     &                + U(I,J+1) - H2*RHS(I,J))
   10    CONTINUE
   20 CONTINUE
      RETURN
      END
