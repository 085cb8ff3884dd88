C     Ping-pong Jacobi in FORTRAN 77: each step smooths A into B and B back
C     into A, label DO loops sharing their CONTINUE, the time loop ending on
C     its own label.
      SUBROUTINE JACIT(N1, N2, N3, NITER, A, B)
      INTEGER N1, N2, N3, NITER
      DOUBLE PRECISION A(0:N1+1,0:N2+1,0:N3+1), B(0:N1+1,0:N2+1,0:N3+1)
      INTEGER I, J, K, IT
C$F2S STENCIL TIMESTEPS NAME(JACPP) TUNE_SIZE(40, 30, 20)
      DO 100 IT = 1, NITER
        DO 20 K = 1, N3
        DO 20 J = 1, N2
        DO 20 I = 1, N1
          B(I,J,K) = (A(I-1,J,K) + A(I+1,J,K) + A(I,J-1,K) + A(I,J+1,K)
     &              + A(I,J,K-1) + A(I,J,K+1)) / 6.0D0
   20   CONTINUE
        DO 30 K = 1, N3
        DO 30 J = 1, N2
        DO 30 I = 1, N1
          A(I,J,K) = (B(I-1,J,K) + B(I+1,J,K) + B(I,J-1,K) + B(I,J+1,K)
     &              + B(I,J,K-1) + B(I,J,K+1)) / 6.0D0
   30   CONTINUE
  100 CONTINUE
      END
