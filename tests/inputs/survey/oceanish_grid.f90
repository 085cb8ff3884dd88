! Survey nest 4's module: horizontal grid metrics and the land mask of an
! ocean model, allocated at start-up, with the block sizes as constants.
module oceanish_grid
  implicit none
  integer, parameter :: r8 = selected_real_kind(13)
  integer, parameter :: nx_block = 40, ny_block = 24, km = 30
  real(r8), dimension(:,:), allocatable :: dxt, dyt, tarea_r
  integer, dimension(:,:), allocatable :: kmt
end module oceanish_grid
