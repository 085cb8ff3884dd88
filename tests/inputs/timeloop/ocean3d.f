C     A 3D tracer time loop as ocean models write it: fields stored
C     (i,k,j), a vertical coefficient DZ(K) and a 2D map factor FM(I,J)
C     read only, OpenMP directives around the sweeps, shared labels,
C     continuation lines, a no-flux surface sweep over (i,j), and the
C     copy back over the levels the sweeps own.
      SUBROUTINE OCEAN(NX, NZ, NY, NT, DT, DZ, FM, T, TN)
      IMPLICIT NONE
      INTEGER NX, NZ, NY, NT
      DOUBLE PRECISION DT, DZ(NZ), FM(0:NX+1, 0:NY+1)
      DOUBLE PRECISION T(0:NX+1, 0:NZ+1, 0:NY+1)
      DOUBLE PRECISION TN(0:NX+1, 0:NZ+1, 0:NY+1)
      INTEGER I, J, K, N
C$F2S STENCIL TIMESTEPS NAME(OCEAN_STEPS) TUNE_SIZE(24, 10, 9)
      DO 100 N = 1, NT
C$OMP PARALLEL DO PRIVATE(I, K)
         DO 20 J = 1, NY
            DO 20 K = 1, NZ
               DO 20 I = 1, NX
                  TN(I,K,J) = T(I,K,J) + DT*FM(I,J)*(T(I-1,K,J)
     &                 + T(I+1,K,J) + T(I,K,J-1) + T(I,K,J+1)
     &                 - 4.0D0*T(I,K,J))
     &                 + DT*DZ(K)*(T(I,K-1,J) - 2.0D0*T(I,K,J)
     &                 + T(I,K+1,J))
   20    CONTINUE
C$OMP END PARALLEL DO
C        The surface: no flux through it.
         DO 30 J = 1, NY
            DO 30 I = 1, NX
               TN(I,0,J) = TN(I,1,J)
   30    CONTINUE
C$OMP PARALLEL DO PRIVATE(I, K)
         DO 40 J = 1, NY
            DO 40 K = 0, NZ
               DO 40 I = 1, NX
                  T(I,K,J) = TN(I,K,J)
   40    CONTINUE
C$OMP END PARALLEL DO
  100 CONTINUE
      END
