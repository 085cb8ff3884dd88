! The original single-precision blur and the library's, at trip counts 0,
! 1, 2 and 5: the image, its scratch array and the pass counter must agree
! bitwise.
!   usage: jacobi2d9_steps_sp_check [width height]
program jacobi2d9_steps_sp_check
  use f2s_jacobi2d9_steps_sp, only: blur9_steps
  implicit none
  integer :: width = 41, height = 29, m, pass, npass
  integer, parameter :: trips(4) = [0, 1, 2, 5]
  real(4), allocatable :: img(:,:), tmp(:,:), img2(:,:), tmp2(:,:)
  character(len=16) :: arg
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) width
    call get_command_argument(2, arg); read (arg, *) height
  end if
  do m = 1, size(trips)
    npass = trips(m)
    allocate(img(0:width+1, 0:height+1), tmp(0:width+1, 0:height+1))
    call random_number(img); call random_number(tmp)
    img2 = img; tmp2 = tmp
    call blur9(width, height, npass, img, tmp)
    pass = 100
    call blur9_steps(width, height, npass, img2, tmp2, pass)
    if (any(img /= img2) .or. any(tmp /= tmp2) .or. pass /= npass + 1) then
      print '(a, i3, a)', 'FAILED after ', npass, ' passes'
      stop 1
    end if
    print '(a, i2, a, 2es16.7)', 'after ', npass, ' passes: sums ', sum(img2), sum(tmp2)
    deallocate(img, tmp, img2, tmp2)
  end do
  print '(a)', 'PASSED'
end program jacobi2d9_steps_sp_check
