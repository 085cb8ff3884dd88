! The original advance and the library's from the same start, for trip
! counts 0 to 6 and an EXIT at steps 1 to 4 (or never): the four buffers
! bitwise equal and the four pointers on the same buffers.
!   usage: swap1d_pairs_main [n]
program swap1d_pairs_main
  use pair_fields
  use f2s_swap1d_pairs, only: pair_steps
  implicit none
  real(4), pointer :: a(:), b(:), c(:), d(:)
  real(4), allocatable :: ra(:), rb(:), rc(:), rd(:)
  logical :: on(4)
  integer :: n = 23, nt, stop_at, run, i, it
  character(len=16) :: arg

  if (command_argument_count() == 1) then
    call get_command_argument(1, arg); read (arg, *) n
  end if
  do nt = 0, 6
    do stop_at = 1, 5
      do run = 1, 2
        allocate(p(0:n+1), q(-2:n+1), r(n), s(-1:n))
        p = [(real(mod(7*i, 5)), i = 0, n + 1)]
        q = -1; r = 0.25; s = 3
        a => p; b => q; c => r; d => s
        if (run == 1) then
          call advance(n, nt, stop_at)
          ra = a; rb = b; rc = c; rd = d
          on = [associated(p, a), associated(q, a), associated(r, c), associated(s, c)]
        else
          call pair_steps(n, nt, stop_at, p, q, r, s, it)
          if (any(ra /= a) .or. any(rb /= b) .or. any(rc /= c) .or. any(rd /= d) .or. &
              any(on .neqv. [associated(p, a), associated(q, a), associated(r, c), &
                             associated(s, c)])) then
            print '(a, 2i3)', 'FAILED', nt, stop_at
            stop 1
          end if
        end if
        deallocate(a, b, c, d)
      end do
    end do
  end do
  print '(a)', 'PASSED'
end program swap1d_pairs_main
