! The modules that usemod2d.f90 uses, in a file of their own (which
! f2stencil reads after the file with the region), the second using the first.
module usemod2d_consts
  use, intrinsic :: iso_fortran_env, only: real64
  implicit none
  integer, parameter :: wp = real64
  real(wp) :: alpha = 0.25_wp
end module usemod2d_consts

module usemod2d_fields
  use usemod2d_consts
  implicit none
  real(wp) :: beta
  real(wp), allocatable :: w(:,:)
end module usemod2d_fields
