C     Line buffers in the F77 style: labels, continuation lines, DOUBLE
C     PRECISION, buffers sized by a PARAMETER, a scalar set between the
C     loops, and two loops that read the buffers over one range.
C
C     RESID2: r = f - A u for the 5-point operator; the vertical pair of
C     each row is summed once, into UL, over the row and its two ends.
      SUBROUTINE RESID2(N, M, U, F, R, H2)
      INTEGER N, M, NMAX
      PARAMETER (NMAX = 4100)
      DOUBLE PRECISION U(0:N+1, 0:M+1), F(N, M), R(N, M), H2
      DOUBLE PRECISION UL(0:NMAX)
      INTEGER I, J
C$F2S STENCIL NAME(RES2) TUNE_SIZE(40, 30)
      DO 20 J = 1, M
         DO 10 I = 0, N + 1
            UL(I) = U(I, J-1) + U(I, J+1)
   10    CONTINUE
         DO 15 I = 1, N
            R(I, J) = F(I, J) - (UL(I) + U(I-1, J) + U(I+1, J)
     >              - 4.0D0*U(I, J))/H2
   15    CONTINUE
   20 CONTINUE
      END
C
C     SMOOTH2: a weighted 9-point correction; two buffers (the vertical
C     pair, and the second filled from the first), a weight computed per
C     row, and the update in two loops over one range.
      SUBROUTINE SMOOTH2(N, M, R, V, W0)
      INTEGER N, M, NMAX
      PARAMETER (NMAX = 4100)
      DOUBLE PRECISION R(0:N+1, 0:M+1), V(N, M), W0
      DOUBLE PRECISION P1(0:NMAX), P2(0:NMAX), WJ
      INTEGER I, J
C$F2S STENCIL NAME(SMO2) TUNE_SIZE(40, 30)
      DO 40 J = 1, M
         WJ = W0*0.5D0
         DO 30 I = 0, N + 1
            P1(I) = R(I, J-1) + R(I, J+1)
            P2(I) = P1(I) + 2.0D0*R(I, J)
   30    CONTINUE
         DO 35 I = 1, N
            V(I, J) = V(I, J) + W0*P1(I)
   35    CONTINUE
         DO 36 I = 1, N
            V(I, J) = V(I, J) + WJ*(P2(I-1) + P2(I+1))
   36    CONTINUE
   40 CONTINUE
      END
