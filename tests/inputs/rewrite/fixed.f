C     The fixed-form cases of f2stencil --rewrite: a label DO nest that
C     shares its label with the time loop around it, an OpenMP PARALLEL DO
C     continued on a second line, and a call too long for one line.
      SUBROUTINE SWEEPS(NX, NY, NZ, NSTEPS, OMEGA, ALPHA, BETA, GAMMA,
     &                  UOLD, UNEW, RHS)
      INTEGER NX, NY, NZ, NSTEPS, I, J, K, IT
      DOUBLE PRECISION OMEGA, ALPHA, BETA, GAMMA
      DOUBLE PRECISION UOLD(0:NX+1,0:NY+1,0:NZ+1)
      DOUBLE PRECISION UNEW(0:NX+1,0:NY+1,0:NZ+1)
      DOUBLE PRECISION RHS(0:NX+1,0:NY+1,0:NZ+1)
      DO 20 IT = 1, NSTEPS
C$OMP PARALLEL DO PRIVATE(I, J)
C$OMP+SCHEDULE(STATIC)
C$F2S STENCIL NAME(SWEEP_RELAX)
      DO 20 K = 1, NZ
      DO 20 J = 1, NY
      DO 20 I = 1, NX
         UNEW(I,J,K) = OMEGA*RHS(I,J,K) + ALPHA*UOLD(I,J,K)
     &      + BETA*(UOLD(I-1,J,K) + UOLD(I+1,J,K) + UOLD(I,J-1,K))
     &      + GAMMA*(UOLD(I,J+1,K) + UOLD(I,J,K-1) + UOLD(I,J,K+1))
   20 CONTINUE
      RETURN
      END

      SUBROUTINE SCALEX(N, A, X)
      INTEGER N, I
      DOUBLE PRECISION A, X(N)
C$F2S STENCIL NAME(SCALE_VEC)
      DO 30 I = 1, N
         X(I) = A*X(I)
   30 CONTINUE
      END
