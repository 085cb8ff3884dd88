! Survey nest 3's module, in a file of its own as atmosphere models keep
! their constants: named constants and allocatable vertical coordinates.
module wrfish_constants
  implicit none
  real, parameter :: g = 9.81, r_d = 287., cp = 7.*r_d/2.
  integer, parameter :: p_qv = 1
  real, allocatable, dimension(:) :: fnm, fnp
end module wrfish_constants
