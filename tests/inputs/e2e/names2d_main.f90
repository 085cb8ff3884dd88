program names_check
  use f2s_names2d, only: names2d
  implicit none
  integer :: n = 50, m = 20
  real(8), allocatable :: u(:,:), u_n(:,:), u_ref(:,:), tol(:,:), ref(:,:)
  real(8) :: terms, terms_ref, err
  character(len=32) :: arg
  if (command_argument_count() == 2) then
    call get_command_argument(1, arg); read (arg, *) n
    call get_command_argument(2, arg); read (arg, *) m
  end if
  allocate(u(0:n+1, 0:m+1), u_n(0:n+1, 0:m+1), u_ref(0:n+1, 0:m+1), tol(0:n+1, 0:m+1))
  allocate(ref(0:n+1, 0:m+1))
  call random_number(u_n)
  call random_number(u_ref)
  call random_number(tol)
  call random_number(ref)
  u = ref
  terms_ref = 1d0
  terms = 1d0
  call names(n, m, ref, u_n, u_ref, tol, terms_ref)
  call names2d(n, m, u, u_n, u_ref, tol, terms)
  err = max(maxval(abs(u - ref)) / maxval(abs(ref)), abs(terms - terms_ref) / abs(terms_ref))
  print '(a, es10.3)', 'names2d: largest relative difference ', err
  if (err > 1d-12) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'PASSED'
end program names_check
