! Implicit vertical diffusion of a tracer, one tridiagonal system per column,
! as an atmosphere model's physics writes it: a tile its:ite, jts:jte with
! halos in memory, (i,k,j) storage, the work arrays automatic arrays of the
! column's length, OpenMP over the rows with the work arrays private to each
! thread.
subroutine vdiff_tracer(its, ite, jts, jte, nz, dt, rdz, kh, q)
  implicit none
  integer, intent(in) :: its, ite, jts, jte, nz
  real(8), intent(in) :: dt
  real(8), intent(in) :: rdz(nz + 1), kh(its - 1:ite + 1, nz + 1, jts - 2:jte + 2)
  real(8), intent(inout) :: q(its - 1:ite + 1, nz + 1, jts - 2:jte + 2)
  real(8) :: cp(nz), dp(nz)
  real(8) :: am, ap, bb, den
  integer :: i, j, k

  !$f2s stencil name(vdiff_q)
  !$omp parallel do private(i, k, cp, dp, am, ap, bb, den)
  do j = jts, jte
    do i = its, ite
      ! top level: no flux through the model top
      ap = -dt*kh(i, 2, j)*rdz(1)*rdz(1)
      if (nz == 1) ap = 0.0d0
      bb = 1.0d0 - ap
      cp(1) = ap/bb
      dp(1) = q(i, 1, j)/bb
      ! forward elimination
      do k = 2, nz
        am = -dt*kh(i, k, j)*rdz(k)*rdz(k)
        if (k < nz) then
          ap = -dt*kh(i, k + 1, j)*rdz(k)*rdz(k)
        else
          ap = 0.0d0
        end if
        bb = 1.0d0 - am - ap
        den = bb - am*cp(k - 1)
        cp(k) = ap/den
        dp(k) = (q(i, k, j) - am*dp(k - 1))/den
      end do
      ! back substitution
      q(i, nz, j) = dp(nz)
      do k = nz - 1, 1, -1
        q(i, k, j) = dp(k) - cp(k)*q(i, k + 1, j)
      end do
    end do
  end do
  !$omp end parallel do
end subroutine vdiff_tracer
