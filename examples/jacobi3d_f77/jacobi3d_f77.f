*     A 3D Jacobi sweep as a FORTRAN 77 code has it: the grids live in a
*     COMMON block with PARAMETER sizes, the weight is a PARAMETER, types
*     are REAL*8 and INTEGER*4, the loop variables are typed implicitly,
*     and each label DO loop ends on its own CONTINUE. 7 flops per point
*     (6 adds, 1 multiply).
      SUBROUTINE JACOBI(N1, N2, N3)
      INTEGER*4 N1, N2, N3
      INTEGER*4 MAXN
      PARAMETER (MAXN = 100)
      REAL*8 A, B, W
      PARAMETER (W = 1.0D0/6.0D0)
      COMMON /GRIDS/ A(0:MAXN+1,0:MAXN+1,0:MAXN+1),
     &               B(0:MAXN+1,0:MAXN+1,0:MAXN+1)
C
*$f2s stencil name(jacobi3d_f77) tune_size(64, 64, 64)
      DO 30 K = 1, N3
         DO 20 J = 1, N2
            DO 10 I = 1, N1
               B(I,J,K) = W*(A(I-1,J,K) + A(I+1,J,K) + A(I,J-1,K)
     &                  + A(I,J+1,K) + A(I,J,K-1) + A(I,J,K+1))
   10       CONTINUE
   20    CONTINUE
   30 CONTINUE
      RETURN
      END
