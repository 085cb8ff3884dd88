! The original relaxation and the library's from the same start, at trip
! counts 0, 1, even and odd: both buffers bitwise equal, u and v associated
! with the same buffers (and so the same bounds) after the loop, and the
! time variable left as DO leaves it.
!   usage: swap2d_main [nx ny]
program swap2d_main
  use relax_fields
  use f2s_swap2d, only: relax_steps
  implicit none
  integer, parameter :: trips(4) = [0, 1, 2, 7]
  real(8), parameter :: w = 0.8d0
  real(8), pointer :: a(:,:), b(:,:), a2(:,:), b2(:,:)
  logical :: u_on_a, v_on_b
  integer :: k, it, lo(2)
  character(len=16) :: arg

  nx = 37; ny = 22
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
  end if
  do k = 1, size(trips)
    call start(a, b)
    call relax(trips(k), w)
    u_on_a = associated(u, a); v_on_b = associated(v, b); lo = lbound(u)
    call start(a2, b2)
    it = -3
    call relax_steps(trips(k), w, u, v, nx, ny, it)
    if (any(a /= a2) .or. any(b /= b2) .or. (associated(u, a2) .neqv. u_on_a) .or. &
        (associated(v, b2) .neqv. v_on_b) .or. .not. (associated(u) .and. associated(v)) .or. &
        any(lbound(u) /= lo) .or. it /= max(trips(k), 0) + 1) then
      print '(a, i3, 2l2, 3i4, 2es12.3)', 'FAILED', trips(k), u_on_a, associated(u, a2), lo, it, &
          maxval(abs(a - a2)), maxval(abs(b - b2))
      stop 1
    end if
    deallocate(a, b, a2, b2)
  end do
  print '(a)', 'PASSED'

contains

  ! u and v allocated through their pointers, v with a wider halo in i, and
  ! both halos filled differently: a swap that lost the bounds or the
  ! targets reads other values. p and q keep the buffers.
  subroutine start(p, q)
    real(8), pointer :: p(:,:), q(:,:)
    integer :: i, j
    allocate(u(0:nx+1, 0:ny+1), v(-1:nx+2, 0:ny+1))
    do j = 0, ny + 1
      do i = 0, nx + 1
        u(i, j) = mod(i*7 + j*13, 17)/17d0
      end do
    end do
    v = -1d0
    do j = 0, ny + 1
      v(0, j) = 0.5d0 + j/(ny + 1d0)
      v(nx + 1, j) = 2d0 - j/(ny + 1d0)
    end do
    v(:, 0) = 0.25d0
    p => u
    q => v
  end subroutine start
end program swap2d_main
