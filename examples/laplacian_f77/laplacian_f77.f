C     The Laplacian of Kamil et al. (IPDPS 2010) as a FORTRAN 77 code has
C     it: fixed form, IMPLICIT DOUBLE PRECISION, adjustable arrays in a
C     DIMENSION statement, and three label DO loops that share the label
C     of one CONTINUE. 8 flops per point (6 adds, 2 multiplies).
      SUBROUTINE SMOOTH(NX, NY, NZ, ALPHA, BETA, U, UNEW)
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      DIMENSION U(0:NX+1,0:NY+1,0:NZ+1), UNEW(0:NX+1,0:NY+1,0:NZ+1)
C
C$F2S STENCIL NAME(LAPLACIAN_F77)
      DO 10 K = 1, NZ
      DO 10 J = 1, NY
      DO 10 I = 1, NX
         UNEW(I,J,K) = ALPHA*U(I,J,K) + BETA*(U(I+1,J,K) + U(I-1,J,K)
     &               + U(I,J+1,K) + U(I,J-1,K) + U(I,J,K+1)
     &               + U(I,J,K-1))
   10 CONTINUE
      RETURN
      END
