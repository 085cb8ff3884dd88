subroutine sweep(n, p)
  integer :: n, i, k
  real(8) :: p(n, 0:n)
  !$f2s stencil
  do k = 1, n
    do i = 1, n
      p(i, k) = p(i, k - 1) * 0.5d0
    end do
  end do
end subroutine
! A sweep along k: each point reads the one below it, so ranks cannot split k.
