C-----------------------------------------------------------------------
C     RELAX: weighted Jacobi for a variable-coefficient Poisson problem,
C     an F77 code parallelised with C$OMP directives.
C-----------------------------------------------------------------------
      SUBROUTINE RELAX(NX, NY, NZ, OMEGA, AC, AW, AE, AS, AN, AB, AT,
     &                 RHS, P, PN)
      IMPLICIT REAL*8 (A-H,O-Z)
      DIMENSION AC(NX,NY,NZ), AW(NX,NY,NZ), AE(NX,NY,NZ), AS(NX,NY,NZ)
      DIMENSION AN(NX,NY,NZ), AB(NX,NY,NZ), AT(NX,NY,NZ), RHS(NX,NY,NZ)
      DIMENSION P(0:NX+1,0:NY+1,0:NZ+1), PN(0:NX+1,0:NY+1,0:NZ+1)
C
C$OMP PARALLEL DO PRIVATE(I,J,K,SUM,PNEW) SCHEDULE(STATIC)
C$F2S STENCIL NAME(B10_OMP77)
      DO 20 K = 1, NZ
         DO 20 J = 1, NY
            DO 20 I = 1, NX
               SUM = AW(I,J,K)*P(I-1,J,K) + AE(I,J,K)*P(I+1,J,K)
     &             + AS(I,J,K)*P(I,J-1,K) + AN(I,J,K)*P(I,J+1,K)
     &             + AB(I,J,K)*P(I,J,K-1) + AT(I,J,K)*P(I,J,K+1)
               PNEW = (RHS(I,J,K) - SUM)/AC(I,J,K)
               PN(I,J,K) = P(I,J,K) + OMEGA*(PNEW - P(I,J,K))
   20 CONTINUE
C$OMP END PARALLEL DO
      RETURN
      END
