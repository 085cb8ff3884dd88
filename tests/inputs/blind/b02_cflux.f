C=======================================================================
C     FLUXI: MUSCL reconstruction with a minmod limiter and a
C     Rusanov flux at the I+1/2 faces of a 2D Euler grid.
C=======================================================================
      SUBROUTINE FLUXI(NI, NJ, GAM, R, RU, RV, E, FR, FU, FV, FE)
      IMPLICIT NONE
      INCLUDE 'b02_size.inc'
      INTEGER NI, NJ, I, J
      REAL*8 GAM
      REAL*8 R(IMAX,JMAX), RU(IMAX,JMAX), RV(IMAX,JMAX), E(IMAX,JMAX)
      REAL*8 FR(IMAX,JMAX), FU(IMAX,JMAX), FV(IMAX,JMAX), FE(IMAX,JMAX)
      REAL*8 RL, RR, UL, UR, VL, VR, PL, PR, EL, ER, A, B, SMAX
C
C$F2S STENCIL NAME(B02_CFLUX)
      DO 10 J = 2, NJ - 1
      DO 10 I = 2, NI - 2
         A  = R(I,J) - R(I-1,J)
         B  = R(I+1,J) - R(I,J)
         RL = R(I,J) + 0.5D0*SIGN(1.0D0,A)*MAX(0.0D0,
     &        MIN(ABS(A), SIGN(1.0D0,A)*B))
         A  = R(I+2,J) - R(I+1,J)
         RR = R(I+1,J) - 0.5D0*SIGN(1.0D0,B)*MAX(0.0D0,
     &        MIN(ABS(B), SIGN(1.0D0,B)*A))
         UL = RU(I,J)/R(I,J)
         UR = RU(I+1,J)/R(I+1,J)
         VL = RV(I,J)/R(I,J)
         VR = RV(I+1,J)/R(I+1,J)
         EL = E(I,J)
         ER = E(I+1,J)
         PL = (GAM - 1.0D0)*(EL - 0.5D0*R(I,J)*(UL*UL + VL*VL))
         PR = (GAM - 1.0D0)*(ER - 0.5D0*R(I+1,J)*(UR*UR + VR*VR))
         SMAX = MAX(ABS(UL) + SQRT(GAM*ABS(PL)/R(I,J)),
     &              ABS(UR) + SQRT(GAM*ABS(PR)/R(I+1,J)))
         FR(I,J) = 0.5D0*(RL*UL + RR*UR) - 0.5D0*SMAX*(RR - RL)
         FU(I,J) = 0.5D0*(RL*UL*UL + PL + RR*UR*UR + PR)
     &           - 0.5D0*SMAX*(RU(I+1,J) - RU(I,J))
         FV(I,J) = 0.5D0*(RL*UL*VL + RR*UR*VR)
     &           - 0.5D0*SMAX*(RV(I+1,J) - RV(I,J))
         FE(I,J) = 0.5D0*((EL + PL)*UL + (ER + PR)*UR)
     &           - 0.5D0*SMAX*(ER - EL)
   10 CONTINUE
      RETURN
      END
