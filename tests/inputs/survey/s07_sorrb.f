C     Survey nest 7: successive over-relaxation, red-black, in F77 with
C     IMPLICIT DOUBLE PRECISION, the colour offset computed between the
C     loops from the pass number, a residual norm accumulated in the nest.
      SUBROUTINE SORPAS(A, B, C, D, E, F, U, JMAX, IPASS, OMEGA, ANORM)
      IMPLICIT DOUBLE PRECISION (A-H, O-Z)
      DIMENSION A(JMAX,JMAX), B(JMAX,JMAX), C(JMAX,JMAX), D(JMAX,JMAX)
      DIMENSION E(JMAX,JMAX), F(JMAX,JMAX), U(JMAX,JMAX)
C$F2S STENCIL NAME(SORRB)
      DO 20 J = 2, JMAX-1
         JOFF = MOD(J+IPASS, 2)
         DO 10 L = 2+JOFF, JMAX-1, 2
            RESID = A(L,J)*U(L+1,J) + B(L,J)*U(L-1,J)
     &            + C(L,J)*U(L,J+1) + D(L,J)*U(L,J-1)
     &            + E(L,J)*U(L,J) - F(L,J)
            ANORM = ANORM + ABS(RESID)
            U(L,J) = U(L,J) - OMEGA*RESID/E(L,J)
   10    CONTINUE
   20 CONTINUE
      RETURN
      END
