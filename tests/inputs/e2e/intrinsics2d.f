C     The intrinsics of FORTRAN 77 codes under their specific names, the
C     conversions (DBLE, FLOAT, REAL with a kind, INT, NINT, FLOOR, ...)
C     and a REAL exponent, in fixed form with continuation lines.
      SUBROUTINE COEFS(N, M, DX, U, V, W, S, K)
      IMPLICIT NONE
      INTEGER N, M, I, J
      INTEGER DP
      PARAMETER (DP = KIND(1.0D0))
      DOUBLE PRECISION DX, X, Y
      DOUBLE PRECISION U(0:N+1, 0:M+1), V(0:N+1, 0:M+1)
      DOUBLE PRECISION W(0:N+1, 0:M+1)
      REAL S(0:N+1, 0:M+1)
      INTEGER K(0:N+1, 0:M+1)
C$F2S STENCIL NAME(INTRIN) TUNE_SIZE(40, 30)
      DO 20 J = 1, M
         DO 10 I = 1, N
            X = DBLE(I - 1)*DX + DFLOAT(J)*1.0D-3
            Y = 1.0D0 + U(I,J)
            V(I,J) = DSQRT(DABS(U(I-1,J) - U(I+1,J))) + DEXP(-U(I,J))
     &             + DLOG(Y) + DLOG10(Y) + DSIN(X) + DCOS(U(I,J-1))
     &             + DTAN(0.5D0*U(I,J+1)) + DASIN(0.5D0*U(I,J))
     &             + DACOS(0.25D0*U(I,J)) + DATAN(U(I,J))
     &             + DATAN2(U(I,J),Y)
     &             + ATAN(U(I,J), Y) + DSINH(U(I,J)) + DCOSH(U(I,J))
     &             + DTANH(X) + Y**1.5D0 + Y**U(I,J) + 2.0D0**U(I,J)
     &             + DMAX1(U(I,J), U(I-1,J), 0.5D0)
     &             + DMIN1(U(I,J), 0.5D0)
     &             + DSIGN(U(I,J), X - 1.0D0)
     &             + DMOD(U(I,J)*7.0D0, 0.3D0)
            W(I,J) = FLOAT(I) + REAL(J, DP) + REAL(J, KIND=DP)*0.5D0
     &             + DINT(7.5D0*U(I,J)) + DNINT(7.5D0*U(I,J))
     &             + AINT(-3.5D0*U(I,J)) + ANINT(-3.5D0*U(I,J))
     &             + SNGL(U(I,J)) + REAL(U(I,J))*2.0
            S(I,J) = AMAX1(REAL(U(I,J)), 0.5) + AMIN1(SNGL(Y), 1.5)
     &             + ALOG(REAL(Y)) + ALOG10(REAL(Y))
     &             + AMOD(REAL(X), 0.7)
     &             + REAL(U(I,J))**1.5 + ABS(REAL(-U(I,J)))
            K(I,J) = INT(7.3D0*U(I,J)) + NINT(10.0D0*U(I,J) - 5.0D0)
     &             + IDINT(-9.9D0*U(I,J)) + IDNINT(4.5D0*U(I,J))
     &             + FLOOR(3.0D0*U(I,J) - 1.5D0)
     &             + CEILING(-2.5D0*U(I,J))
     &             + MAX0(I, J) + MIN0(I, J, 3) + IABS(I - J)
     &             + ISIGN(I, J - 5)
     &             + IFIX(REAL(U(I,J))*6.0) + INT(I, 4)
     &             + NINT(U(I,J), 4)
   10    CONTINUE
   20 CONTINUE
      END
