// OpenMP and OpenACC directives around an annotated nest, as codes that
// already run in parallel have them: comments to f2stencil, which reads
// the nest as it would without them.
#include "FrontendTestUtil.h"

#include "ast/IRPrinter.h"

#include <gtest/gtest.h>

#include <regex>

namespace f2s::test {
namespace {

/// The kernels of `text`, printed.
std::string printed(const std::string &text, const std::string &file) {
  TempDir dir;
  std::string all;
  for (const Kernel &k : lower_text(dir, text, file))
    all += print_kernel(k);
  return all;
}

/// `text` with each OpenMP or OpenACC directive line made a plain comment
/// (the line stays, so positions do not move).
std::string without_directives(const std::string &text) {
  return std::regex_replace(text, std::regex("([!cC*])\\$(omp|OMP|acc|ACC)[^\n]*"), "$1");
}

void expect_same_as_without(const std::string &text, const std::string &file = "input.f90") {
  std::string with = printed(text, file);
  ASSERT_NE(with, "") << text;
  EXPECT_EQ(with, printed(without_directives(text), file)) << text;
}

std::string free_form(const std::string &before, const std::string &between,
                      const std::string &after) {
  return R"(subroutine s(n, a, b)
  integer :: n, i, j
  real(8) :: a(0:n+1, 0:n+1), b(0:n+1, 0:n+1)
  !$f2s stencil
)" + before +
         R"(
  do j = 1, n
)" + between +
         R"(
    do i = 1, n
      b(i, j) = 0.25d0*(a(i-1, j) + a(i+1, j) + a(i, j-1) + a(i, j+1))
    end do
  end do
)" + after +
         R"(
end subroutine
)";
}

TEST(ForeignDirectives, OmpParallelDoAroundTheNest) {
  expect_same_as_without(
      free_form("  !$omp parallel do private(i) schedule(static)", "", "  !$omp end parallel do"));
}

TEST(ForeignDirectives, OmpDoInsideAParallelRegion) {
  expect_same_as_without(free_form("  !$omp parallel default(shared) private(i, j)\n  !$omp do", "",
                                   "  !$omp end do\n  !$omp end parallel"));
}

TEST(ForeignDirectives, OmpSimdOnTheInnerLoop) {
  expect_same_as_without(free_form("", "    !$omp simd", ""));
}

TEST(ForeignDirectives, AccParallelLoop) {
  expect_same_as_without(free_form("  !$acc parallel loop collapse(2) present(a, b)", "",
                                   "  !$acc end parallel loop"));
  expect_same_as_without(free_form("  !$acc kernels\n  !$acc loop independent",
                                   "    !$acc loop vector", "  !$acc end kernels"));
}

// Before the `!$f2s` line as well as after it.
TEST(ForeignDirectives, OmpBeforeTheStencilDirective) {
  std::string src = free_form("", "", "  !$omp end parallel do");
  src.insert(src.find("  !$f2s"), "  !$omp parallel do\n");
  expect_same_as_without(src);
}

TEST(ForeignDirectives, FixedFormSpellings) {
  expect_same_as_without(R"(      SUBROUTINE S(N, A, B)
      INTEGER N, I, J
      REAL*8 A(0:N+1, 0:N+1), B(0:N+1, 0:N+1)
C$F2S STENCIL
c$omp parallel do private(i)
      DO 10 J = 1, N
*$OMP SIMD
      DO 10 I = 1, N
         B(I,J) = 0.25D0*(A(I-1,J) + A(I+1,J) + A(I,J-1) + A(I,J+1))
   10 CONTINUE
C$OMP END PARALLEL DO
      END
)",
                         "input.f");
  expect_same_as_without(R"(      SUBROUTINE S(N, A, B)
      INTEGER N, I, J
      REAL*8 A(0:N+1, 0:N+1), B(0:N+1, 0:N+1)
c$acc parallel loop
c$f2s stencil
      DO 10 J = 1, N
      DO 10 I = 1, N
         B(I,J) = 0.25D0*(A(I-1,J) + A(I+1,J) + A(I,J-1) + A(I,J+1))
   10 CONTINUE
      END
)",
                         "input.f");
}

// Vendor compilers' directives between the loops and in the point (Intel's
// and Cray's !DIR$ and !DEC$, CDIR$ in column 1 of fixed form, GCC's
// !GCC$): hints to them, comments to f2stencil, which reads the nest as it
// would without them.
TEST(ForeignDirectives, VendorDirectivesBetweenTheLoopsAndInThePoint) {
  auto expect_same_as_without_vendor = [](const std::string &with, const std::string &file) {
    std::string without =
        std::regex_replace(with, std::regex("([!cC])(DIR|DEC|GCC)\\$[^\n]*"), "$1");
    ASSERT_NE(without, with);
    std::string kernel = printed(with, file);
    ASSERT_NE(kernel, "");
    EXPECT_EQ(kernel, printed(without, file));
  };
  expect_same_as_without_vendor(R"(      SUBROUTINE S(N, A, B)
      INTEGER N, I, J, K
      REAL*8 A(0:N+1,0:N+1,0:N+1), B(0:N+1,0:N+1,0:N+1)
C$F2S STENCIL
      DO 10 K = 1, N
CDIR$ NOUNROLL
      DO 10 J = 1, N
CDIR$ IVDEP
!DEC$ VECTOR ALIGNED
      DO 10 I = 1, N
!DIR$ NOFUSION
         B(I,J,K) = A(I-1,J,K) + A(I+1,J,K) + A(I,J,K-1) + A(I,J,K+1)
   10 CONTINUE
      END
)",
                                "input.f");
  expect_same_as_without_vendor(R"(subroutine s(n, a, b)
  integer :: n, i, j
  real(8) :: a(0:n+1, 0:n+1), b(0:n+1, 0:n+1)
  !$f2s stencil
  do j = 1, n
    !GCC$ ivdep
    !DIR$ SIMD
    do i = 1, n
      b(i,j) = 0.25d0*(a(i-1,j) + a(i+1,j) + a(i,j-1) + a(i,j+1))
    end do
  end do
end subroutine
)",
                                "input.f90");
}

} // namespace
} // namespace f2s::test
