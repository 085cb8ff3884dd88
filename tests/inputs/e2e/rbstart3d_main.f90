! Checks the red-black sweeps of rbstart3d.f90 against the library at the
! size given (nx ny nz: points of the slab in i, rows, levels), with the
! slab starting at nxl = 1 and at nxl = 2, so that the first point's parity
! falls both ways, over two iterations of every colour.
program rbstart3d_check
  use f2s_rbstart3d, only: rbs_a, rbs_b, rbs_c, rbs_d, rbs_e
  implicit none
  integer :: nx = 13, ny = 9, nz = 7, nxl, nxr, it, c, bad
  real(8), allocatable :: rhs(:,:,:), p(:,:,:), q(:,:,:)
  real(8), parameter :: omega = 1.3d0
  character(len=32) :: arg
  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
    call get_command_argument(3, arg); read (arg, *) nz
  end if
  bad = 0
  do nxl = 1, 2
    nxr = nxl + nx - 1
    allocate(rhs(nxl-1:nxr+1, 0:ny+1, 0:nz+1), p(nxl-1:nxr+1, 0:ny+1, 0:nz+1), &
             q(nxl-1:nxr+1, 0:ny+1, 0:nz+1))
    call random_number(rhs)
    call random_number(p)
    q = p
    do it = 1, 2
      do c = 0, 1
        call rbs_ifstmt(nxl, nxr, ny, nz, c, omega, rhs, p)
        call rbs_a(nxl, nxr, ny, nz, c, omega, rhs, q)
      end do
      call check('rbs_a')
      do c = 0, 1
        call rbs_ifblock(nxl, nxr, ny, nz, c, omega, rhs, p)
        call rbs_b(nxl, nxr, ny, nz, c, omega, rhs, q)
      end do
      call check('rbs_b')
      do c = 0, 1
        call rbs_direct(nxl, nxr, ny, nz, c, omega, rhs, p)
        call rbs_c(nxl, nxr, ny, nz, c, omega, rhs, q)
      end do
      call check('rbs_c')
      do c = 0, 3
        call rbs_four(nxl, nxr, ny, nz, c, omega, rhs, p)
        call rbs_d(nxl, nxr, ny, nz, c, omega, rhs, q)
      end do
      call check('rbs_d')
      do c = 0, 1
        call rbs_zebra(nxl, nxr, ny, nz, c, omega, rhs, p)
        call rbs_e(nxl, nxr, ny, nz, c, omega, rhs, q)
      end do
      call check('rbs_e')
    end do
    deallocate(rhs, p, q)
  end do
  if (bad > 0) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
contains
  subroutine check(name)
    character(len=*), intent(in) :: name
    integer :: n
    n = count(p /= q)
    if (n > 0) then
      print '(a, a, 4i5, a, i8)', name, ' at', nxl, nx, ny, nz, ': elements that differ ', n
      bad = bad + 1
      q = p
    end if
  end subroutine check
end program rbstart3d_check
