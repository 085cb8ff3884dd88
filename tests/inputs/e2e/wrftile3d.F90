! Horizontal diffusion of a scalar in an atmosphere model that dimensions its
! fields by memory bounds (ims:ime, kms:kme, jms:jme), loops over the tile a
! thread owns (its:ite, ...) clipped to the domain (ids:ide, ...) a point in
! from its edges, and stores fields level-second, (i,k,j).
subroutine horiz_diff(field, tend, xkh, msfx, rdz, rdx2,           &
                      ids, ide, jds, jde, kds, kde,                 &
                      ims, ime, jms, jme, kms, kme,                 &
                      its, ite, jts, jte, kts, kte)
  implicit none
  integer, intent(in) :: ids, ide, jds, jde, kds, kde
  integer, intent(in) :: ims, ime, jms, jme, kms, kme
  integer, intent(in) :: its, ite, jts, jte, kts, kte
  real, dimension(ims:ime, kms:kme, jms:jme), intent(in) :: field, xkh
  real, dimension(ims:ime, kms:kme, jms:jme), intent(inout) :: tend
  real, dimension(ims:ime, jms:jme), intent(in) :: msfx
  real, dimension(kms:kme), intent(in) :: rdz
  real, intent(in) :: rdx2
  integer :: i, j, k, i_start, i_end, j_start, j_end, k_end
  real :: m2

  i_start = max(its, ids + 1)
  i_end = min(ite, ide - 2)
  j_start = max(jts, jds + 1)
  j_end = min(jte, jde - 2)
  k_end = min(kte, kde - 1)

  !$f2s stencil name(hdiff) tune_size(60, 10, 40)
  do j = j_start, j_end
    do k = kts, k_end
      do i = i_start, i_end
        m2 = msfx(i, j)*msfx(i, j)*rdx2
        tend(i, k, j) = tend(i, k, j) + m2*rdz(k)*(                          &
            xkh(i, k, j)*(field(i + 1, k, j) - field(i, k, j))                &
          - xkh(i - 1, k, j)*(field(i, k, j) - field(i - 1, k, j))            &
          + xkh(i, k, j)*(field(i, k, j + 1) - field(i, k, j))                &
          - xkh(i, k, j - 1)*(field(i, k, j) - field(i, k, j - 1)))
      end do
    end do
  end do
end subroutine horiz_diff
