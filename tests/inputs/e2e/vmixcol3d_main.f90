! Solves the columns with the column form as written (survey nest 6: work
! arrays cp(k), dp(k) of one column, statements before and after the sweeps)
! and with the library procedures of its rewrite, from the same random data,
! and counts the elements that differ.
!   usage: vmixcol3d_check [nx ny nz]     (default 33 17 5)
program vmixcol3d_check
  use f2s_vmixcol3d, only: vmixc_top, vmixc_down, vmixc_up
  implicit none
  integer :: nx = 33, ny = 17, nz = 5
  real(8), allocatable :: akv(:,:,:), dz(:), ref(:,:,:), t(:,:,:), cp(:,:,:), dp(:,:,:)
  real(8), parameter :: dt = 0.3d0
  character(len=32) :: arg
  if (command_argument_count() == 3) then
    call get_command_argument(1, arg); read (arg, *) nx
    call get_command_argument(2, arg); read (arg, *) ny
    call get_command_argument(3, arg); read (arg, *) nz
  end if
  allocate(akv(nx, ny, nz+1), dz(nz), ref(nx, ny, nz), t(nx, ny, nz))
  allocate(cp(nx, ny, nz), dp(nx, ny, nz))
  call random_number(akv)
  call random_number(dz)
  dz = dz + 0.5d0
  call random_number(ref)
  t = ref
  call vmix_columns(nx, ny, nz, dt, akv, dz, ref)
  call vmixc_top(nx, ny, nz, dt, akv, dz, t, cp, dp)
  call vmixc_down(nx, ny, nz, dt, akv, dz, t, cp, dp)
  call vmixc_up(nx, ny, nz, t, cp, dp)
  print '(a, 3i6, a, i8)', 'vmixcol3d', nx, ny, nz, ': elements that differ ', count(t /= ref)
  if (any(t /= ref)) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'

contains

  ! The column form, as column physics codes write it.
  subroutine vmix_columns(nx, ny, nz, dt, akv, dz, t)
    integer, intent(in) :: nx, ny, nz
    real(8), intent(in) :: dt, akv(nx, ny, nz+1), dz(nz)
    real(8), intent(inout) :: t(nx, ny, nz)
    real(8) :: a, b, c, den, cpk(nz), dpk(nz)
    integer :: i, j, k
    do j = 1, ny
      do i = 1, nx
        b = 1.d0 + dt*akv(i,j,2)/(dz(1)*dz(1))
        c = -dt*akv(i,j,2)/(dz(1)*dz(1))
        cpk(1) = c/b
        dpk(1) = t(i,j,1)/b
        do k = 2, nz
          a = -dt*akv(i,j,k)/(dz(k)*dz(k))
          c = -dt*akv(i,j,k+1)/(dz(k)*dz(k))
          b = 1.d0 - a - c
          den = b - a*cpk(k-1)
          cpk(k) = c/den
          dpk(k) = (t(i,j,k) - a*dpk(k-1))/den
        end do
        t(i,j,nz) = dpk(nz)
        do k = nz - 1, 1, -1
          t(i,j,k) = dpk(k) - cpk(k)*t(i,j,k+1)
        end do
      end do
    end do
  end subroutine vmix_columns
end program vmixcol3d_check
