! Kinds and the model state of a small z-level ocean model, in a file of
! their own as ocean codes keep them.
module ocn_kinds
  implicit none
  integer, parameter :: dp = kind(1.d0)
end module ocn_kinds

module ocn_state
  use ocn_kinds
  implicit none
  integer :: imt, jmt, km
  integer, allocatable :: kmt(:,:)
  real(dp), allocatable :: tcur(:,:,:), tnew(:,:,:), wvel(:,:,:)
  real(dp), allocatable :: dxtr(:,:), dytr(:,:), dzt(:)
end module ocn_state
