! For each size on the command line (n1 n2 n3 ...): first-touches the
! arrays with the library, runs the original and the library's sweep (the
! default entry point and the pthreads one) on the same data, and prints the
! tuned size the library dispatched to; stops when one element differs in
! any bit.
program relax_levels_check
  use, intrinsic :: iso_c_binding
  use f2s_relax_levels, only: relax_level, relax_level_pthreads, relax_level_first_touch
  implicit none
  interface
    integer(c_int) function tuned_size(n1, n2, n3, omega, h2, c, f, u, unew) &
        bind(C, name='f2s_relax_levels_relax_level_tuned_size')
      import :: c_int, c_double
      integer(c_int), value :: n1, n2, n3
      real(c_double), value :: omega, h2
      real(c_double) :: c(*), f(*), u(*), unew(*)
    end function tuned_size
  end interface
  integer :: n1, n2, n3, a, i, j, k
  double precision, allocatable :: c(:,:,:), f(:,:,:), u(:,:,:), unew(:,:,:), ref(:,:,:), &
                                   par(:,:,:)
  character(len=16) :: arg

  do a = 1, command_argument_count(), 3
    call get_command_argument(a, arg); read (arg, *) n1
    call get_command_argument(a + 1, arg); read (arg, *) n2
    call get_command_argument(a + 2, arg); read (arg, *) n3
    allocate(c(n1, n2, n3), f(n1, n2, n3), u(0:n1+1, 0:n2+1, 0:n3+1), &
             unew(0:n1+1, 0:n2+1, 0:n3+1), ref(0:n1+1, 0:n2+1, 0:n3+1), &
             par(0:n1+1, 0:n2+1, 0:n3+1))
    call relax_level_first_touch(n1, n2, n3, 0.8d0, 0.25d0, c, f, u, unew)
    if (any(u /= 0) .or. any(unew /= 0) .or. any(c /= 0) .or. any(f /= 0)) then
      print '(a)', 'FAILED: the first touch left elements'
      stop 1
    end if
    do k = 0, n3 + 1
      do j = 0, n2 + 1
        do i = 0, n1 + 1
          u(i, j, k) = sin(0.3d0*i + 0.7d0*j) + cos(0.11d0*k*i)
        end do
      end do
    end do
    call random_number(c)
    call random_number(f)
    unew = -1
    ref = unew
    par = unew
    call relax(n1, n2, n3, 0.8d0, 0.25d0, c, f, u, ref)
    call relax_level(n1, n2, n3, 0.8d0, 0.25d0, c, f, u, unew)
    call relax_level_pthreads(n1, n2, n3, 0.8d0, 0.25d0, c, f, u, par)
    print '(a, 3i5, a, i2)', 'size', n1, n2, n3, ' runs tuned size', &
      tuned_size(n1, n2, n3, 0.8d0, 0.25d0, c, f, u, unew)
    if (any(unew /= ref) .or. any(par /= ref)) then
      print '(a, i0, a, i0, a)', 'FAILED: ', count(unew /= ref), ' and ', count(par /= ref), &
        ' elements differ'
      stop 1
    end if
    deallocate(c, f, u, unew, ref, par)
  end do
  print '(a)', 'PASSED'
end program relax_levels_check
