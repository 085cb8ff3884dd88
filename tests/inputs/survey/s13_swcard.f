C     Survey nest 13: shallow-water fluxes in card-image fixed form with
C     sequence numbers in columns 73-80, INTEGER*4 and REAL*8.
      SUBROUTINE SWFLUX(M, N, U, V, P, CU, CV, Z, H, FSDX, FSDY)        SWF00010
      INTEGER*4 M, N, I, J                                              SWF00020
      REAL*8 U(M+1,N+1), V(M+1,N+1), P(M+1,N+1), CU(M+1,N+1)            SWF00030
      REAL*8 CV(M+1,N+1), Z(M+1,N+1), H(M+1,N+1), FSDX, FSDY            SWF00040
C$F2S STENCIL NAME(SWFLUX_K)
      DO 100 J = 1, N                                                   SWF00050
      DO 100 I = 1, M                                                   SWF00060
      CU(I+1,J) = .5D0*(P(I+1,J)+P(I,J))*U(I+1,J)                       SWF00070
      CV(I,J+1) = .5D0*(P(I,J+1)+P(I,J))*V(I,J+1)                       SWF00080
      Z(I+1,J+1) = (FSDX*(V(I+1,J+1)-V(I,J+1))-FSDY*(U(I+1,J+1)         SWF00090
     1  -U(I+1,J)))/(P(I,J)+P(I+1,J)+P(I+1,J+1)+P(I,J+1))               SWF00100
      H(I,J) = P(I,J)+.25D0*(U(I+1,J)*U(I+1,J)+U(I,J)*U(I,J)            SWF00110
     1  +V(I,J+1)*V(I,J+1)+V(I,J)*V(I,J))                               SWF00120
  100 CONTINUE                                                          SWF00130
      RETURN                                                            SWF00140
      END                                                               SWF00150
