C     Explicit diffusion with a conductivity that varies along x, as an
C     old groundwater code writes it: the conductivity profile in a 1D
C     array over the cell faces, the head over 0:NX+1 by 0:NY+1, the
C     first column refreshed from the interior every step (no flux
C     through it), then the new head copied back column by column.
      SUBROUTINE DIFFK(NX, NY, NSTEP, DT, COND, H, HN)
      INTEGER NX, NY, NSTEP
      REAL DT
      REAL COND(0:NX+1), H(0:NX+1,0:NY+1), HN(0:NX+1,0:NY+1)
      INTEGER I, J, N
C$F2S STENCIL TIMESTEPS NAME(DIFFK_STEPS)
      DO 50 N = 1, NSTEP
        DO 10 J = 1, NY
        DO 10 I = 1, NX
          HN(I,J) = H(I,J) + DT*(COND(I)*(H(I+1,J) - H(I,J))
     &            - COND(I-1)*(H(I,J) - H(I-1,J))
     &            + H(I,J+1) - 2.0*H(I,J) + H(I,J-1))
   10   CONTINUE
        DO 20 J = 1, NY
          HN(0,J) = HN(1,J)
   20   CONTINUE
        DO 30 J = 1, NY
        DO 30 I = 0, NX
          H(I,J) = HN(I,J)
   30   CONTINUE
   50 CONTINUE
      END
