! Fortran names that are C's: libm functions the generated C calls (fmod,
! fmodf, copysign, copysignf, logf), GNU C keywords (asm, typeof) and macros
! GCC predefines (unix, linux). Region s gives name p the role of position
! (p + s) mod 9, so each name is a loop variable, an array read, the array
! written, a scalar argument, a temporary and a sum in one region or another.
module cnames_mod
  implicit none
contains
  subroutine sweep0(n, m, copysign, copysignf, logf, unix, linux, typeof)
    integer, intent(in) :: n, m
    real(8), intent(in) :: copysign(0:n+1, 0:m+1), unix(0:n+1, 0:m+1), logf
    real(4), intent(in) :: linux(0:n+1, 0:m+1)
    real(8), intent(inout) :: copysignf(0:n+1, 0:m+1), typeof
    real(8) :: asm
    integer :: fmod, fmodf
    !$f2s stencil name(cnames0) tune_size(40, 30)
    do fmodf = 1, m
      do fmod = 1, n
        asm = copysign(fmod-1,fmodf) + logf*copysign(fmod+1,fmodf) &
            - sign(unix(fmod,fmodf), copysign(fmod,fmodf-1) - 1d0)
        copysignf(fmod,fmodf) = mod(asm, 0.75d0) + log(unix(fmod,fmodf)) &
            + (mod(linux(fmod,fmodf), 0.3) + sign(linux(fmod,fmodf), -1.0) + log(linux(fmod,fmodf)))
        typeof = typeof + asm
      end do
    end do
  end subroutine sweep0
  subroutine sweep1(n, m, fmodf, copysign, copysignf, typeof, unix, asm)
    integer, intent(in) :: n, m
    real(8), intent(in) :: fmodf(0:n+1, 0:m+1), typeof(0:n+1, 0:m+1), copysignf
    real(4), intent(in) :: unix(0:n+1, 0:m+1)
    real(8), intent(inout) :: copysign(0:n+1, 0:m+1), asm
    real(8) :: logf
    integer :: linux, fmod
    !$f2s stencil name(cnames1) tune_size(40, 30)
    do fmod = 1, m
      do linux = 1, n
        logf = fmodf(linux-1,fmod) + copysignf*fmodf(linux+1,fmod) &
            - sign(typeof(linux,fmod), fmodf(linux,fmod-1) - 1d0)
        copysign(linux,fmod) = mod(logf, 0.75d0) + log(typeof(linux,fmod)) &
            + (mod(unix(linux,fmod), 0.3) + sign(unix(linux,fmod), -1.0) + log(unix(linux,fmod)))
        asm = asm + logf
      end do
    end do
  end subroutine sweep1
  subroutine sweep2(n, m, fmod, fmodf, copysign, asm, typeof, logf)
    integer, intent(in) :: n, m
    real(8), intent(in) :: fmod(0:n+1, 0:m+1), asm(0:n+1, 0:m+1), copysign
    real(4), intent(in) :: typeof(0:n+1, 0:m+1)
    real(8), intent(inout) :: fmodf(0:n+1, 0:m+1), logf
    real(8) :: copysignf
    integer :: unix, linux
    !$f2s stencil name(cnames2) tune_size(40, 30)
    do linux = 1, m
      do unix = 1, n
        copysignf = fmod(unix-1,linux) + copysign*fmod(unix+1,linux) &
            - sign(asm(unix,linux), fmod(unix,linux-1) - 1d0)
        fmodf(unix,linux) = mod(copysignf, 0.75d0) + log(asm(unix,linux)) &
            + (mod(typeof(unix,linux), 0.3) + sign(typeof(unix,linux), -1.0) + log(typeof(unix,linux)))
        logf = logf + copysignf
      end do
    end do
  end subroutine sweep2
  subroutine sweep3(n, m, linux, fmod, fmodf, logf, asm, copysignf)
    integer, intent(in) :: n, m
    real(8), intent(in) :: linux(0:n+1, 0:m+1), logf(0:n+1, 0:m+1), fmodf
    real(4), intent(in) :: asm(0:n+1, 0:m+1)
    real(8), intent(inout) :: fmod(0:n+1, 0:m+1), copysignf
    real(8) :: copysign
    integer :: typeof, unix
    !$f2s stencil name(cnames3) tune_size(40, 30)
    do unix = 1, m
      do typeof = 1, n
        copysign = linux(typeof-1,unix) + fmodf*linux(typeof+1,unix) &
            - sign(logf(typeof,unix), linux(typeof,unix-1) - 1d0)
        fmod(typeof,unix) = mod(copysign, 0.75d0) + log(logf(typeof,unix)) &
            + (mod(asm(typeof,unix), 0.3) + sign(asm(typeof,unix), -1.0) + log(asm(typeof,unix)))
        copysignf = copysignf + copysign
      end do
    end do
  end subroutine sweep3
  subroutine sweep4(n, m, unix, linux, fmod, copysignf, logf, copysign)
    integer, intent(in) :: n, m
    real(8), intent(in) :: unix(0:n+1, 0:m+1), copysignf(0:n+1, 0:m+1), fmod
    real(4), intent(in) :: logf(0:n+1, 0:m+1)
    real(8), intent(inout) :: linux(0:n+1, 0:m+1), copysign
    real(8) :: fmodf
    integer :: asm, typeof
    !$f2s stencil name(cnames4) tune_size(40, 30)
    do typeof = 1, m
      do asm = 1, n
        fmodf = unix(asm-1,typeof) + fmod*unix(asm+1,typeof) &
            - sign(copysignf(asm,typeof), unix(asm,typeof-1) - 1d0)
        linux(asm,typeof) = mod(fmodf, 0.75d0) + log(copysignf(asm,typeof)) &
            + (mod(logf(asm,typeof), 0.3) + sign(logf(asm,typeof), -1.0) + log(logf(asm,typeof)))
        copysign = copysign + fmodf
      end do
    end do
  end subroutine sweep4
  subroutine sweep5(n, m, typeof, unix, linux, copysign, copysignf, fmodf)
    integer, intent(in) :: n, m
    real(8), intent(in) :: typeof(0:n+1, 0:m+1), copysign(0:n+1, 0:m+1), linux
    real(4), intent(in) :: copysignf(0:n+1, 0:m+1)
    real(8), intent(inout) :: unix(0:n+1, 0:m+1), fmodf
    real(8) :: fmod
    integer :: logf, asm
    !$f2s stencil name(cnames5) tune_size(40, 30)
    do asm = 1, m
      do logf = 1, n
        fmod = typeof(logf-1,asm) + linux*typeof(logf+1,asm) &
            - sign(copysign(logf,asm), typeof(logf,asm-1) - 1d0)
        unix(logf,asm) = mod(fmod, 0.75d0) + log(copysign(logf,asm)) &
            + (mod(copysignf(logf,asm), 0.3) + sign(copysignf(logf,asm), -1.0) + log(copysignf(logf,asm)))
        fmodf = fmodf + fmod
      end do
    end do
  end subroutine sweep5
  subroutine sweep6(n, m, asm, typeof, unix, fmodf, copysign, fmod)
    integer, intent(in) :: n, m
    real(8), intent(in) :: asm(0:n+1, 0:m+1), fmodf(0:n+1, 0:m+1), unix
    real(4), intent(in) :: copysign(0:n+1, 0:m+1)
    real(8), intent(inout) :: typeof(0:n+1, 0:m+1), fmod
    real(8) :: linux
    integer :: copysignf, logf
    !$f2s stencil name(cnames6) tune_size(40, 30)
    do logf = 1, m
      do copysignf = 1, n
        linux = asm(copysignf-1,logf) + unix*asm(copysignf+1,logf) &
            - sign(fmodf(copysignf,logf), asm(copysignf,logf-1) - 1d0)
        typeof(copysignf,logf) = mod(linux, 0.75d0) + log(fmodf(copysignf,logf)) &
            + (mod(copysign(copysignf,logf), 0.3) + sign(copysign(copysignf,logf), -1.0) + log(copysign(copysignf,logf)))
        fmod = fmod + linux
      end do
    end do
  end subroutine sweep6
  subroutine sweep7(n, m, logf, asm, typeof, fmod, fmodf, linux)
    integer, intent(in) :: n, m
    real(8), intent(in) :: logf(0:n+1, 0:m+1), fmod(0:n+1, 0:m+1), typeof
    real(4), intent(in) :: fmodf(0:n+1, 0:m+1)
    real(8), intent(inout) :: asm(0:n+1, 0:m+1), linux
    real(8) :: unix
    integer :: copysign, copysignf
    !$f2s stencil name(cnames7) tune_size(40, 30)
    do copysignf = 1, m
      do copysign = 1, n
        unix = logf(copysign-1,copysignf) + typeof*logf(copysign+1,copysignf) &
            - sign(fmod(copysign,copysignf), logf(copysign,copysignf-1) - 1d0)
        asm(copysign,copysignf) = mod(unix, 0.75d0) + log(fmod(copysign,copysignf)) &
            + (mod(fmodf(copysign,copysignf), 0.3) + sign(fmodf(copysign,copysignf), -1.0) + log(fmodf(copysign,copysignf)))
        linux = linux + unix
      end do
    end do
  end subroutine sweep7
  subroutine sweep8(n, m, copysignf, logf, asm, linux, fmod, unix)
    integer, intent(in) :: n, m
    real(8), intent(in) :: copysignf(0:n+1, 0:m+1), linux(0:n+1, 0:m+1), asm
    real(4), intent(in) :: fmod(0:n+1, 0:m+1)
    real(8), intent(inout) :: logf(0:n+1, 0:m+1), unix
    real(8) :: typeof
    integer :: fmodf, copysign
    !$f2s stencil name(cnames8) tune_size(40, 30)
    do copysign = 1, m
      do fmodf = 1, n
        typeof = copysignf(fmodf-1,copysign) + asm*copysignf(fmodf+1,copysign) &
            - sign(linux(fmodf,copysign), copysignf(fmodf,copysign-1) - 1d0)
        logf(fmodf,copysign) = mod(typeof, 0.75d0) + log(linux(fmodf,copysign)) &
            + (mod(fmod(fmodf,copysign), 0.3) + sign(fmod(fmodf,copysign), -1.0) + log(fmod(fmodf,copysign)))
        unix = unix + typeof
      end do
    end do
  end subroutine sweep8
end module cnames_mod
