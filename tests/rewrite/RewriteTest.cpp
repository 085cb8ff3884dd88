// --rewrite's text editing: each file is lowered by the front end (which
// records where each nest lies), then rewritten; the whole rewritten text
// is compared.
#include "frontend/FrontendTestUtil.h"

#include "rewrite/Rewrite.h"

#include <gtest/gtest.h>

namespace f2s::test {
namespace {

RewrittenSource rewritten(const TempDir &dir, const std::string &file, const std::string &text,
                          const FrontendOptions &options = {}) {
  std::string path = dir.write(file, text);
  std::vector<RegionCall> calls;
  for (const Kernel &k : lower_file(path, options))
    calls.push_back(region_call(k));
  return rewrite_source(text, path, calls, "f2s_lib");
}

/// The message of the UserError that rewriting `text` throws.
std::string refusal(const TempDir &dir, const std::string &file, const std::string &text) {
  std::string result;
  try {
    result = rewritten(dir, file, text).text;
  } catch (const UserError &e) {
    return e.what();
  }
  ADD_FAILURE() << "no error for\n" << text << "\nrewritten:\n" << result;
  return "";
}

TEST(Rewrite, UseGoesAfterTheUsesAndTheOmpPairGoesWithTheNest) {
  TempDir dir;
  RewrittenSource r = rewritten(dir, "smooth.f90", R"(subroutine smooth(n, a, b)
  use iso_fortran_env, only: real64
  implicit none
  integer, intent(in) :: n
  real(real64), intent(in) :: a(0:n+1, 0:n+1)
  real(real64), intent(inout) :: b(0:n+1, 0:n+1)
  integer :: i, j
  ! Four neighbours.
  !$omp parallel do private(i)
  !$f2s stencil name(four)
  do j = 1, n
    do i = 1, n
      b(i, j) = 0.25d0*(a(i-1, j) + a(i+1, j) + a(i, j-1) + a(i, j+1))
    end do
  end do
  !$omp end parallel do
end subroutine smooth
)");
  EXPECT_EQ(r.text, R"(subroutine smooth(n, a, b)
  use iso_fortran_env, only: real64
  use f2s_lib, only: four
  implicit none
  integer, intent(in) :: n
  real(real64), intent(in) :: a(0:n+1, 0:n+1)
  real(real64), intent(inout) :: b(0:n+1, 0:n+1)
  integer :: i, j
  ! Four neighbours.
  !f2s rewritten: stencil name(four)
  ! f2stencil --rewrite removed '!$omp parallel do' (line 9) around the nest: the library runs it in parallel
  call four(n, a, b)
end subroutine smooth
)");
  EXPECT_TRUE(r.warnings.empty());
  EXPECT_EQ(rewritten_directive_lines(r.text), std::vector<int>{10});
}

TEST(Rewrite, UseGoesAfterAContinuedHeaderAndTheLabelsAndNamesGo) {
  TempDir dir;
  RewrittenSource r = rewritten(dir, "sweep.f90", R"(subroutine sweep(n, &
                 a, b)
  integer n, i
  real a(0:n+1), b(0:n+1)
  !$f2s stencil
  outer: do i = 1, n
    b(i) = a(i-1) + a(i+1)
  end do outer ! done
end
)");
  EXPECT_EQ(r.text, R"(subroutine sweep(n, &
                 a, b)
  use f2s_lib, only: sweep_1
  integer n, i
  real a(0:n+1), b(0:n+1)
  !f2s rewritten: stencil
  call sweep_1(n, a, b)
end
)");
}

TEST(Rewrite, SeveralRegionsOfAMainProgramWithoutHeaderShareOneUse) {
  TempDir dir;
  RewrittenSource r = rewritten(dir, "main.f90", R"(integer, parameter :: n = 8
real(8) :: a(n), b(n)
integer :: i
a = 1d0
!$f2s stencil name(twice)
do i = 1, n
  b(i) = 2d0*a(i)
end do
!$f2s stencil name(thrice)
do i = 1, n
  a(i) = 3d0*b(i)
end do
print *, a
end
)");
  EXPECT_EQ(r.text, R"(use f2s_lib, only: twice, thrice
integer, parameter :: n = 8
real(8) :: a(n), b(n)
integer :: i
a = 1d0
!f2s rewritten: stencil name(twice)
call twice(a, b)
!f2s rewritten: stencil name(thrice)
call thrice(a, b)
print *, a
end
)");
}

TEST(Rewrite, FunctionsAndInternalProceduresHaveTheirOwnUse) {
  TempDir dir;
  RewrittenSource r = rewritten(dir, "m.f90", R"(module m
contains
  function total(n, a) result(s)
    integer, intent(in) :: n
    real(8), intent(in) :: a(n)
    real(8) :: s
    integer :: i
    s = 0d0
    !$f2s stencil name(sum_a)
    do i = 1, n
      s = s + a(i)
    end do
  end function total
  subroutine outer(n, a)
    integer, intent(in) :: n
    real(8), intent(inout) :: a(n)
    call inner()
  contains
    subroutine inner()
      integer :: i
      !$f2s stencil name(halve)
      do i = 1, n
        a(i) = 0.5d0*a(i)
      end do
    end subroutine inner
  end subroutine outer
end module m
)");
  EXPECT_EQ(r.text, R"(module m
contains
  function total(n, a) result(s)
    use f2s_lib, only: sum_a
    integer, intent(in) :: n
    real(8), intent(in) :: a(n)
    real(8) :: s
    integer :: i
    s = 0d0
    !f2s rewritten: stencil name(sum_a)
    call sum_a(n, a, s)
  end function total
  subroutine outer(n, a)
    integer, intent(in) :: n
    real(8), intent(inout) :: a(n)
    call inner()
  contains
    subroutine inner()
      use f2s_lib, only: halve
      integer :: i
      !f2s rewritten: stencil name(halve)
      call halve(n, a)
    end subroutine inner
  end subroutine outer
end module m
)");
}

// A kernel named as its procedure is used under another name.
TEST(Rewrite, AKernelNamedAsItsProcedureIsRenamed) {
  TempDir dir;
  RewrittenSource r = rewritten(dir, "jac.f90", R"(subroutine jac(n, a, b)
  integer n, i
  real a(0:n+1), b(0:n+1)
  !$f2s stencil name(jac)
  do i = 1, n
    b(i) = a(i-1) + a(i+1)
  end do
end
)");
  EXPECT_EQ(r.text, R"(subroutine jac(n, a, b)
  use f2s_lib, only: jac_f2s => jac
  integer n, i
  real a(0:n+1), b(0:n+1)
  !f2s rewritten: stencil name(jac)
  call jac_f2s(n, a, b)
end
)");
}

// Fixed form: the call is continued in column 6 to end by column 72; the
// label the time loop shares stays on a CONTINUE; the OpenMP directive and
// its continuation line go.
TEST(Rewrite, FixedFormContinuesAtColumn72AndKeepsASharedLabel) {
  TempDir dir;
  RewrittenSource r = rewritten(
      dir, "sweeps.f", R"(      SUBROUTINE SWEEPS(NX, NY, NZ, NSTEPS, OMEGA, ALPHA, BETA, GAMMA,
     &                  UOLD, UNEW, RHS)
      INTEGER NX, NY, NZ, NSTEPS, I, J, K, IT
      DOUBLE PRECISION OMEGA, ALPHA, BETA, GAMMA
      DOUBLE PRECISION UOLD(0:NX+1,0:NY+1,0:NZ+1)
      DOUBLE PRECISION UNEW(0:NX+1,0:NY+1,0:NZ+1)
      DOUBLE PRECISION RHS(0:NX+1,0:NY+1,0:NZ+1)
      DO 20 IT = 1, NSTEPS
C$OMP PARALLEL DO PRIVATE(I, J)
C$OMP+SCHEDULE(STATIC)
C$F2S STENCIL NAME(SWEEP_RELAX)
      DO 20 K = 1, NZ
      DO 20 J = 1, NY
      DO 20 I = 1, NX
         UNEW(I,J,K) = OMEGA*RHS(I,J,K) + ALPHA*UOLD(I,J,K)
     &      + BETA*(UOLD(I-1,J,K) + UOLD(I+1,J,K) + UOLD(I,J-1,K))
     &      + GAMMA*(UOLD(I,J+1,K) + UOLD(I,J,K-1) + UOLD(I,J,K+1))
   20 CONTINUE
      RETURN
      END
)");
  EXPECT_EQ(r.text, R"(      SUBROUTINE SWEEPS(NX, NY, NZ, NSTEPS, OMEGA, ALPHA, BETA, GAMMA,
     &                  UOLD, UNEW, RHS)
      use f2s_lib, only: sweep_relax
      INTEGER NX, NY, NZ, NSTEPS, I, J, K, IT
      DOUBLE PRECISION OMEGA, ALPHA, BETA, GAMMA
      DOUBLE PRECISION UOLD(0:NX+1,0:NY+1,0:NZ+1)
      DOUBLE PRECISION UNEW(0:NX+1,0:NY+1,0:NZ+1)
      DOUBLE PRECISION RHS(0:NX+1,0:NY+1,0:NZ+1)
      DO 20 IT = 1, NSTEPS
!f2s rewritten: STENCIL NAME(SWEEP_RELAX)
      ! f2stencil --rewrite removed 'C$OMP parallel do' (lines 9-10) around the nest: the library runs it in parallel
      call sweep_relax(nx, ny, nz, omega, alpha, beta, gamma, uold,
     &    unew, rhs)
   20 continue
      RETURN
      END
)");
}

// The DO statement's label (a GOTO's target) goes to the call.
TEST(Rewrite, FixedFormKeepsTheDoStatementsLabelOnTheCall) {
  TempDir dir;
  RewrittenSource r = rewritten(dir, "again.f", R"(      SUBROUTINE AGAIN(N, A, B, NIT)
      INTEGER N, I, IT, NIT
      REAL A(0:N+1), B(0:N+1)
      IT = 0
C$F2S STENCIL
   10 DO 20 I = 1, N
         B(I) = A(I-1) + A(I+1)
   20 CONTINUE
      IT = IT + 1
      IF (IT .LT. NIT) GOTO 10
      END
)");
  EXPECT_EQ(r.text, R"(      SUBROUTINE AGAIN(N, A, B, NIT)
      use f2s_lib, only: again_1
      INTEGER N, I, IT, NIT
      REAL A(0:N+1), B(0:N+1)
      IT = 0
!f2s rewritten: STENCIL
   10 call again_1(n, a, b)
      IT = IT + 1
      IF (IT .LT. NIT) GOTO 10
      END
)");
}

// `!$omp do` in a parallel region that does more: one thread calls; the
// region is left and reported. A parallel region around the nest alone goes.
TEST(Rewrite, OmpDoInABusyParallelRegionBecomesSingle) {
  TempDir dir;
  RewrittenSource r = rewritten(dir, "busy.f90", R"(subroutine busy(n, a, b, t)
  integer n, i
  real a(0:n+1), b(0:n+1), t
  !$omp parallel
  !$omp single
  t = 0
  !$omp end single
  !$omp do
  !$f2s stencil name(avg)
  do i = 1, n
    b(i) = a(i-1) + a(i+1)
  end do
  !$omp end do nowait
  !$omp end parallel
  !$omp parallel private(i)
  !$omp do schedule(static)
  !$f2s stencil name(copy)
  do i = 1, n
    !$omp simd
    a(i) = b(i)
  end do
  !$omp end do
  !$omp end parallel
end
)");
  EXPECT_EQ(r.text, R"(subroutine busy(n, a, b, t)
  use f2s_lib, only: avg, copy
  integer n, i
  real a(0:n+1), b(0:n+1), t
  !$omp parallel
  !$omp single
  t = 0
  !$omp end single
  !$omp single
  !f2s rewritten: stencil name(avg)
  ! f2stencil --rewrite made '!$omp do' (line 8) '!$omp single': the library runs the nest in parallel, called by one thread
  call avg(n, a, b)
  !$omp end single nowait
  !$omp end parallel
  !f2s rewritten: stencil name(copy)
  ! f2stencil --rewrite removed '!$omp parallel' (line 15) and its '!$omp do' around the nest: the library runs it in parallel
  call copy(n, a, b)
end
)");
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("busy.f90:8:3: warning: '!$omp do' is in a parallel region that "
                               "does more than the nest of the region at line 9"),
            std::string::npos)
      << r.warnings[0];
}

TEST(Rewrite, AParallelRegionThatDoesMoreIsLeftAndReported) {
  TempDir dir;
  RewrittenSource r = rewritten(dir, "acc.f90", R"(subroutine acc(n, a, b)
  integer n, i
  real a(0:n+1), b(0:n+1)
  !$acc kernels
  !$acc loop independent
  !$f2s stencil name(acc_avg)
  do i = 1, n
    b(i) = a(i-1) + a(i+1)
  end do
  a(0) = 0
  !$acc end kernels
  !$acc parallel loop
  !$f2s stencil name(acc_copy)
  do i = 1, n
    a(i) = b(i)
  end do
  !$acc end parallel loop
end
)");
  EXPECT_EQ(r.text, R"(subroutine acc(n, a, b)
  use f2s_lib, only: acc_avg, acc_copy
  integer n, i
  real a(0:n+1), b(0:n+1)
  !$acc kernels
  !f2s rewritten: stencil name(acc_avg)
  ! f2stencil --rewrite removed '!$acc loop' (line 5) around the nest: the library runs it in parallel
  call acc_avg(n, a, b)
  a(0) = 0
  !$acc end kernels
  !f2s rewritten: stencil name(acc_copy)
  ! f2stencil --rewrite removed '!$acc parallel loop' (line 12) around the nest: the library runs it in parallel
  call acc_copy(n, a, b)
end
)");
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("acc.f90:4:3: warning: '!$acc kernels' also covers statements "
                               "other than the nest of the region at line 6"),
            std::string::npos)
      << r.warnings[0];
}

// A USE under `#ifdef`: the library's goes after the `#endif`, and the cpp
// lines stay as they are.
TEST(Rewrite, UseGoesAfterTheCppConditionalOfTheLastUse) {
  TempDir dir;
  const std::string text = R"(subroutine s(n, a, b)
#ifdef KINDS
  use iso_fortran_env, only: real64
#endif
  implicit none
  integer n, i
  real(8) a(0:n+1), b(0:n+1)
  !$f2s stencil name(cpp_avg)
  do i = 1, n
#ifdef HALF
    b(i) = 0.5d0*(a(i-1) + a(i+1))
#else
    b(i) = a(i-1) + a(i+1)
#endif
  end do
end
)";
  const std::string after = R"(#endif
  use f2s_lib, only: cpp_avg
  implicit none
  integer n, i
  real(8) a(0:n+1), b(0:n+1)
  !f2s rewritten: stencil name(cpp_avg)
  call cpp_avg(n, a, b)
end
)";
  FrontendOptions kinds;
  kinds.defines = {"KINDS"};
  EXPECT_EQ(rewritten(dir, "s.F90", text, kinds).text, R"(subroutine s(n, a, b)
#ifdef KINDS
  use iso_fortran_env, only: real64
)" + after);
  EXPECT_EQ(rewritten(dir, "s.F90", text).text, R"(subroutine s(n, a, b)
  use f2s_lib, only: cpp_avg
#ifdef KINDS
  use iso_fortran_env, only: real64
#endif
  implicit none
  integer n, i
  real(8) a(0:n+1), b(0:n+1)
  !f2s rewritten: stencil name(cpp_avg)
  call cpp_avg(n, a, b)
end
)");
}

TEST(Rewrite, WindowsLineEndsStay) {
  TempDir dir;
  RewrittenSource r = rewritten(dir, "crlf.f90",
                                "subroutine s(n, a)\r\n  integer n, i\r\n  real a(n)\r\n"
                                "  !$f2s stencil name(crlf)\r\n  do i = 1, n\r\n"
                                "    a(i) = 2*a(i)\r\n  end do\r\nend\r\n");
  EXPECT_EQ(r.text, "subroutine s(n, a)\r\n  use f2s_lib, only: crlf\r\n  integer n, i\r\n"
                    "  real a(n)\r\n  !f2s rewritten: stencil name(crlf)\r\n  call crlf(n, a)\r\n"
                    "end\r\n");
}

// A DO statement from a macro is no region at all (the front end says so);
// an END DO from one cannot be replaced.
TEST(Rewrite, ANestThatEndsInAMacroIsRefused) {
  TempDir dir;
  std::string message = refusal(dir, "m.F90", R"(#define END_LOOP end do
subroutine s(n, a, b)
  integer n, i
  real a(0:n+1), b(0:n+1)
  !$f2s stencil
  do i = 1, n
    b(i) = a(i-1) + a(i+1)
  END_LOOP
end
)");
  EXPECT_NE(message.find("m.F90:5:3: error: The nest of this '!$f2s stencil' region does not "
                         "end in"),
            std::string::npos)
      << message;
}

TEST(Rewrite, AStatementOnTheNestsLastLineIsRefused) {
  TempDir dir;
  EXPECT_NE(refusal(dir, "s.f90", R"(subroutine s(n, a, b, x)
  integer n, i
  real a(0:n+1), b(0:n+1), x
  !$f2s stencil
  do i = 1, n
    b(i) = a(i-1) + a(i+1)
  end do; x = 1
end
)")
                .find("line 7 holds another statement after the end of the nest"),
            std::string::npos);
}

TEST(Rewrite, ANestThatEndsInAnIncludeFileIsRefused) {
  TempDir dir;
  dir.write("tail.inc", "    b(i) = a(i-1) + a(i+1)\n  end do\n");
  EXPECT_NE(refusal(dir, "s.f90", R"(subroutine s(n, a, b)
  integer n, i
  real a(0:n+1), b(0:n+1)
  !$f2s stencil
  do i = 1, n
  include 'tail.inc'
end
)")
                .find("s.f90:4:3: error: The nest of this '!$f2s stencil' region does not end "
                      "in"),
            std::string::npos);
}

} // namespace
} // namespace f2s::test
