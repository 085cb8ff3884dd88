! Calls the fixed-form cases; prints one number per line.
program fixed_cases
  implicit none
  integer, parameter :: nx = 19, ny = 11, nz = 7
  double precision :: uold(0:nx+1, 0:ny+1, 0:nz+1), unew(0:nx+1, 0:ny+1, 0:nz+1)
  double precision :: rhs(0:nx+1, 0:ny+1, 0:nz+1), x(50)
  integer :: i, j, k
  do k = 0, nz + 1
    do j = 0, ny + 1
      do i = 0, nx + 1
        uold(i, j, k) = 0.01d0*mod(3*i + 5*j + 7*k, 13)
        rhs(i, j, k) = 0.001d0*mod(i*j + k, 17)
        unew(i, j, k) = 0d0
      end do
    end do
  end do
  do i = 1, 50
    x(i) = i
  end do
  call sweeps(nx, ny, nz, 3, 0.7d0, 0.1d0, 0.05d0, 0.025d0, uold, unew, rhs)
  call scalex(50, 0.5d0, x)
  print '(es25.17)', sum(unew), unew(2, 3, 4), sum(x)
end program fixed_cases
