! A 3x3 binomial blur applied many times to a single-precision image, as
! image-processing codes write it: the kernel's weights (1 2 1 / 2 4 2 /
! 1 2 1, over 16) named constants of a kind from SELECTED_REAL_KIND, the
! image blurred into a scratch array and back on each pass (a ping-pong),
! the frame of pixels around it held fixed.
subroutine blur9(width, height, npass, img, tmp)
  implicit none
  integer, parameter :: sp = selected_real_kind(6)
  real(sp), parameter :: centre = 0.25_sp, edge = 0.125_sp, corner = 0.0625_sp
  integer, intent(in) :: width, height, npass
  real(sp), intent(inout) :: img(0:width+1, 0:height+1), tmp(0:width+1, 0:height+1)
  integer :: x, y, pass

  !$f2s stencil timesteps name(blur9_steps) tune_size(120, 90)
  do pass = 1, npass
    do y = 1, height
      do x = 1, width
        tmp(x, y) = corner*img(x-1, y-1) + edge*img(x, y-1) + corner*img(x+1, y-1) &
                  + edge*img(x-1, y) + centre*img(x, y) + edge*img(x+1, y) &
                  + corner*img(x-1, y+1) + edge*img(x, y+1) + corner*img(x+1, y+1)
      end do
    end do
    do y = 1, height
      do x = 1, width
        img(x, y) = corner*tmp(x-1, y-1) + edge*tmp(x, y-1) + corner*tmp(x+1, y-1) &
                  + edge*tmp(x-1, y) + centre*tmp(x, y) + edge*tmp(x+1, y) &
                  + corner*tmp(x-1, y+1) + edge*tmp(x, y+1) + corner*tmp(x+1, y+1)
      end do
    end do
  end do
end subroutine blur9
