// FORTRAN 77 as legacy codes write it: fixed form, label DO loops, the
// directive spelled c$f2s, IMPLICIT typing, PARAMETER, COMMON, INCLUDE and
// the preprocessor. Each construct is checked through the IR printer.
#include "FrontendTestUtil.h"

#include "ast/IRPrinter.h"

#include <gtest/gtest.h>

namespace f2s::test {
namespace {

/// The only kernel of fixed-form `text`, printed.
std::string printed(const std::string &text, const std::string &name = "input.f",
                    const FrontendOptions &options = {}) {
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, text, name, options);
  EXPECT_EQ(ks.size(), 1u);
  return ks.empty() ? "" : print_kernel(ks[0]);
}

/// "line:column: message" of the error lowering fixed-form `text` gives.
std::string error_at(const std::string &text, const std::string &name = "input.f") {
  TempDir dir;
  Diagnostic d = error_of(dir, text, name);
  return line_col(d.loc) + ": " + d.message;
}

const char *kSharedLabel = R"(C     A comment line, then a labelled nest that shares label 10.
      SUBROUTINE SMOOTH(NX, NY, NZ, ALPHA, BETA, U, UNEW)
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      DIMENSION U(0:NX+1,0:NY+1,0:NZ+1), UNEW(0:NX+1,0:NY+1,0:NZ+1)
C$F2S STENCIL NAME(LAP)
      DO 10 K = 1, NZ
      DO 10 J = 1, NY
      DO 10 I = 1, NX
         UNEW(I,J,K) = ALPHA*U(I,J,K) + BETA*(U(I+1,J,K) + U(I-1,J,K)
     &               + U(I,J,K+1))
   10 CONTINUE
      RETURN
      END
)";

TEST(FixedForm, SharedLabelWithImplicitDoublePrecision) {
  EXPECT_EQ(printed(kSharedLabel),
            "kernel lap(nx: i32, ny: i32, nz: i32, alpha: f64, beta: f64, "
            "u: f64(0:nx + 1, 0:ny + 1, 0:nz + 1), unew: f64(0:nx + 1, 0:ny + 1, 0:nz + 1))\n"
            "  tune_size(256, 256, 256)\n"
            "  for k = 1, nz {\n"
            "    for j = 1, ny {\n"
            "      for i = 1, nx {\n"
            "        unew(i, j, k) = alpha*u(i, j, k) + beta*(u(i + 1, j, k) + u(i - 1, j, k) + "
            "u(i, j, k + 1))\n"
            "      }\n"
            "    }\n"
            "  }\n");
}

// (The grids' PARAMETER bounds hold 50 trips of each loop: the default
// tuning size fits them.)
TEST(FixedForm, ContinuePerLoopCommonAndParameter) {
  EXPECT_EQ(printed(R"(      SUBROUTINE JAC(N1, N2)
      INTEGER*4 N1, N2, MAXN
      PARAMETER (MAXN = 50)
      REAL*8 A, B, W
      PARAMETER (W = 1.0D0/4.0D0)
      COMMON /GRIDS/ A(0:MAXN+1,0:MAXN+1), B(0:MAXN+1,0:MAXN+1)
*$f2s stencil name(jac)
      DO 20 J = 1, N2
         DO 10 I = 1, N1
            B(I,J) = W*(A(I-1,J) + A(I+1,J) + A(I,J-1) + A(I,J+1))
   10    CONTINUE
   20 CONTINUE
      END
)"),
            // The COMMON arrays are arguments, after the dummies.
            "kernel jac(n1: i32, n2: i32, a: f64(0:50 + 1, 0:50 + 1), b: f64(0:50 + 1, 0:50 + 1))\n"
            "  tune_size(50, 50)\n"
            "  for j = 1, n2 {\n"
            "    for i = 1, n1 {\n"
            "      b(i, j) = 0.25d0*(a(i - 1, j) + a(i + 1, j) + a(i, j - 1) + a(i, j + 1))\n"
            "    }\n"
            "  }\n");
}

TEST(FixedForm, SharedLabelOnAnAssignment) {
  EXPECT_EQ(printed(R"(      SUBROUTINE S(N, A, B)
      REAL A(N,N), B(N,N)
C$F2S STENCIL
      DO 10 J = 2, N-1
      DO 10 I = 2, N-1
   10 B(I,J) = A(I-1,J) + A(I+1,J)
      END
)"),
            "kernel s_1(n: i32, a: f32(1:n, 1:n), b: f32(1:n, 1:n))\n"
            "  tune_size(1024, 1024)\n"
            "  for j = 2, n - 1 {\n"
            "    for i = 2, n - 1 {\n"
            "      b(i, j) = a(i - 1, j) + a(i + 1, j)\n"
            "    }\n"
            "  }\n");
}

const char *kSmall = R"(      SUBROUTINE S(N, A)
      DOUBLE PRECISION A(N,N)
%s
      DO 10 J = 1, N
      DO 10 I = 1, N
         A(I,J) = 1.0D0
   10 CONTINUE
      END
)";

std::string small(const std::string &directive) {
  std::string s = kSmall;
  return s.replace(s.find("%s"), 2, directive);
}

TEST(FixedForm, SentinelSpellings) {
  for (const char *d : {"c$f2s stencil", "C$F2S STENCIL", "*$f2s stencil", "!$f2s stencil",
                        "      !$f2s stencil", "c$F2s Stencil name(k)"}) {
    SCOPED_TRACE(d);
    TempDir dir;
    std::vector<Kernel> ks = lower_text(dir, small(d), "input.f");
    ASSERT_EQ(ks.size(), 1u);
    EXPECT_EQ(ks[0].loc.line, 3);
    EXPECT_EQ(ks[0].loc.column, d[0] == ' ' ? 7 : 1);
  }
  // Not comments in column 1, or not the sentinel: no region.
  for (const char *d : {"c $f2s stencil", "c$f2sx stencil"}) {
    SCOPED_TRACE(d);
    TempDir dir;
    Diagnostic e = error_of(dir, small(d), "input.f");
    EXPECT_EQ(e.message.rfind("No '!$f2s stencil' region", 0), 0u) << e.str();
  }
}

TEST(FixedForm, ExtensionsChooseFixedForm) {
  // Column-6 continuation and a 'C' comment only read as fixed form.
  const std::string text = small("C$F2S STENCIL") + "C     trailing comment\n";
  for (const char *name : {"a.f", "a.F", "a.for", "a.FOR", "a.ftn", "a.f77", "a.fpp"}) {
    SCOPED_TRACE(name);
    EXPECT_NE(printed(text, name).find("for i = 1, n"), std::string::npos);
  }
  // In free form, `C$F2S STENCIL` is no comment.
  TempDir dir;
  EXPECT_EQ(error_of(dir, text, "a.f90").loc.line, 3);
}

TEST(FixedForm, ImplicitTypingRules) {
  // Default rules: X is REAL, M INTEGER; REAL*8 spelled as IMPLICIT.
  EXPECT_EQ(printed(R"(      SUBROUTINE S(N, M, X, A)
      DOUBLE PRECISION A(N,N)
C$F2S STENCIL
      DO 10 J = 1, N
      DO 10 I = 1, N
         A(I,J) = X*M
   10 CONTINUE
      END
)")
                .substr(0, 53),
            "kernel s_1(n: i32, m: i32, x: f32, a: f64(1:n, 1:n))\n");
  EXPECT_EQ(printed(R"(      SUBROUTINE S(N, M, X, A)
      IMPLICIT REAL*8 (A-H, O-Z), INTEGER (M)
      DIMENSION A(N,N)
C$F2S STENCIL
      DO 10 J = 1, N
      DO 10 I = 1, N
         T = X*M
         A(I,J) = T
   10 CONTINUE
      END
)")
                .substr(0, 67),
            "kernel s_1(n: i32, m: i32, x: f64, a: f64(1:n, 1:n))\n  temp t: f64\n");
  // IMPLICIT NONE in a module holds in the procedures it contains.
  EXPECT_EQ(error_at(R"(      MODULE M
      IMPLICIT NONE
      CONTAINS
      SUBROUTINE S(N, A)
      INTEGER N, I, J
      REAL A(N,N)
C$F2S STENCIL
      DO 10 J = 1, N
      DO 10 I = 1, N
         A(I,J) = Q
   10 CONTINUE
      END SUBROUTINE
      END MODULE
)"),
            "10:19: 'q' is not declared and IMPLICIT NONE is in force; declare it");
}

TEST(FixedForm, ParameterForms) {
  // F77 PARAMETER, with constant arithmetic rounded as Fortran rounds it.
  std::string p = printed(R"(      SUBROUTINE S(N, A)
      DOUBLE PRECISION A(N,N), H, G
      PARAMETER (K0 = 2, H = 0.5D0/K0)
      PARAMETER (G = -(1.0D0 - 4.0D0))
C$F2S STENCIL
      DO 10 J = 1, N
      DO 10 I = K0, N
         A(I,J) = H*A(I-K0,J) + G
   10 CONTINUE
      END
)");
  EXPECT_NE(p.find("for i = 2, n {"), std::string::npos) << p;
  EXPECT_NE(p.find("a(i, j) = 0.25d0*a(i - 2, j) + 3.0d0"), std::string::npos) << p;
}

TEST(FixedForm, IncludeAndPreprocessor) {
  TempDir dir;
  std::string inc = dir.path() + "/inc";
  std::filesystem::create_directories(inc);
  dir.write("inc/grids.h", "      COMMON /G/ A(64,64), B(64,64)\n");
  dir.write("scale.h", "      PARAMETER (S = SCALE)\n");
  const std::string src = R"(      SUBROUTINE S(N)
      INCLUDE 'grids.h'
#include "scale.h"
#ifdef WITH_F2S
C$F2S STENCIL NAME(ON)
#endif
      DO 10 J = 1, N
      DO 10 I = 1, N
         B(I,J) = S*A(I,J)
   10 CONTINUE
#ifndef WITH_F2S
C$F2S STENCIL NAME(OFF)
#endif
      DO 20 J = 1, N
      DO 20 I = 1, N
         A(I,J) = B(I,J)
   20 CONTINUE
      END
)";
  FrontendOptions on;
  on.include_dirs = {inc};
  on.defines = {"WITH_F2S", "SCALE=0.5"};
  std::vector<Kernel> ks = lower_text(dir, src, "input.F", on);
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(ks[0].name, "on");
  EXPECT_NE(print_kernel(ks[0]).find("b(i, j) = 0.5*a(i, j)"), std::string::npos);
  EXPECT_EQ(ks[0].args.at(1).loc.file, inc + "/grids.h");

  // Without the macro, the other directive is the one kept.
  FrontendOptions off;
  off.include_dirs = {inc};
  off.defines = {"SCALE=0.25"};
  ks = lower_text(dir, src, "input.F", off);
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(ks[0].name, "off");
  EXPECT_EQ(ks[0].loc.line, 12);
}

// Grids dimensioned by PARAMETERs of an INCLUDE file, the loops running to
// an argument: the default tuning size fits the arrays (1024 trips of the
// loop over I would read R(1026) of R(160)), from each loop's lower bound
// and the accesses' offsets; a size the directive gives stays as it is.
TEST(FixedForm, TheDefaultTuningSizeFitsArraysOfConstantBounds) {
  TempDir dir;
  dir.write("size.inc", "      INTEGER IMAX, JMAX\n      PARAMETER (IMAX = 160, JMAX = 96)\n");
  std::string src = R"(      SUBROUTINE FLUX(NI, NJ, R, F)
      INCLUDE 'size.inc'
      REAL*8 R(IMAX,JMAX), F(IMAX,JMAX)
C$F2S STENCIL
      DO 10 J = 2, NJ - 1
      DO 10 I = 2, NI - 2
         F(I,J) = R(I+2,J) - R(I-1,J)
   10 CONTINUE
      END
)";
  std::vector<Kernel> ks = lower_text(dir, src, "input.f");
  ASSERT_EQ(ks.size(), 1u);
  // I: 2 .. 158 reads R(1..160); J: 2 .. 96.
  EXPECT_EQ(ks[0].tune_size, (std::vector<int64_t>{157, 95}));
  std::string sized = src;
  sized.replace(sized.find("C$F2S STENCIL"), 13, "C$F2S STENCIL TUNE_SIZE(100, 50)");
  ks = lower_text(dir, sized, "input.f");
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(ks[0].tune_size, (std::vector<int64_t>{100, 50}));
}

TEST(FixedForm, MalformedDirectiveInADroppedBranchIsIgnored) {
  TempDir dir;
  std::string src = small("#if 0\nC$F2S STENCIL TILE(4)\n#endif\nC$F2S STENCIL");
  EXPECT_EQ(lower_text(dir, src, "input.F").size(), 1u);
}

// ------------------------------------------------------------------ errors

// Two names of one storage through EQUIVALENCE, one written and the other
// read: the library would take them as two arrays. Read only, they are.
TEST(FixedFormErrors, EquivalencedArraysWrittenAndUsedAreRefused) {
  auto nest = [](const std::string &store) {
    return R"(      SUBROUTINE S(N, M, V)
      INTEGER N, M, I, J
      DOUBLE PRECISION A(100, 100), B(100, 100), W(100, 100), V(N, M)
      COMMON /SCR/ A
      EQUIVALENCE (A(1,1), B(1,1)), (W(1,1), A(1,2))
C$F2S STENCIL
      DO 10 J = 2, M-1
      DO 10 I = 2, N-1
         )" +
           store + R"(
   10 CONTINUE
      END
)";
  };
  EXPECT_EQ(error_at(nest("B(I,J) = 0.5D0*(A(I-1,J) + A(I+1,J))")),
            "5:28: 'b' and 'a' share storage through EQUIVALENCE, and the '!$f2s stencil' "
            "region at line 6 writes 'b' and uses 'a', which the library would take as two "
            "arrays; use one of the names for both in the region");
  // W shares storage with A, and through A with B.
  EXPECT_EQ(error_at(nest("W(I,J) = B(I,J)")),
            "5:38: 'w' and 'b' share storage through EQUIVALENCE, and the '!$f2s stencil' "
            "region at line 6 writes 'w' and uses 'b', which the library would take as two "
            "arrays; use one of the names for both in the region");
  TempDir dir;
  EXPECT_EQ(lower_text(dir, nest("V(I,J) = A(I-1,J) + B(I+1,J)"), "input.f").size(), 1u);
}

TEST(FixedFormErrors, Positions) {
  EXPECT_EQ(error_at(R"(      SUBROUTINE S(N, A)
      REAL A(N,N)
C$F2S STENCIL
      DO 10 J = 1, N
      DO 10 I = 1, N
         IF (I .GT. 1) GO TO 20
         A(I,J) = 0.0
   10 CONTINUE
   20 CONTINUE
      END
)"),
            "6:24: GO TO 20 inside a '!$f2s stencil' region must jump forward to a statement of "
            "the same block, such as the CONTINUE that ends the DO loop; put the statements it "
            "skips in an IF construct instead");
  // A directive between the shared-label loops.
  EXPECT_EQ(error_at(R"(      SUBROUTINE S(N, A)
      REAL A(N,N)
C$F2S STENCIL
      DO 10 J = 1, N
C$F2S STENCIL
      DO 10 I = 1, N
         A(I,J) = 0.0
   10 CONTINUE
      END
)"),
            "5:1: A '!$f2s' directive is not allowed inside a '!$f2s stencil' region; remove it, "
            "or add TIMESTEPS to the outer directive if its loop steps through time");
  // Label DO loops that do not end on their label, or not nested.
  const std::string crossed = R"(      SUBROUTINE S(N, A)
      REAL A(N,N)
C$F2S STENCIL
      DO 10 J = 1, N
      DO 20 I = 1, N
         A(I,J) = 0.0
   10 CONTINUE
   20 CONTINUE
      END
)";
  const std::string label_error =
      "4:7: This label DO loop does not end on a properly nested statement with its label, so "
      "it cannot start a '!$f2s stencil' region";
  EXPECT_EQ(error_at(crossed), label_error);
  std::string unended = crossed;
  unended.erase(unended.find("   10 CONTINUE"), 15);
  EXPECT_EQ(error_at(unended), label_error);
  EXPECT_EQ(error_at(small("C$F2S STENCIL TILE(4)")),
            "3:15: Unknown clause 'tile' in a '!$f2s stencil' directive; expected NAME, "
            "TUNE_SIZE or TIMESTEPS");
  // A statement between the loops of a label nest that reads the inner
  // loop's variable after the loop.
  EXPECT_EQ(error_at(R"(      SUBROUTINE S(N, A)
      REAL A(N,N)
C$F2S STENCIL
      DO 20 J = 1, N
      DO 10 I = 1, N
         A(I,J) = 0.0
   10 CONTINUE
      A(N,J) = A(I-1,J)
   20 CONTINUE
      END
)"),
            "8:16: Loop variable 'i' is read after its DO loop, between the DO loops of the "
            "'!$f2s stencil' region, where it has no value of the loop's; write the element with "
            "the bound of the loop instead");
}

} // namespace
} // namespace f2s::test

namespace f2s::test {
namespace {

// `PARAMETER G = 3.0` without parentheses (DEC): Flang reads it as the
// assignment `PARAMETERG = 3.0` unless the extension is on. Its names are
// typed by the IMPLICIT rules, as gfortran types them.
TEST(FixedForm, ParameterWithoutParentheses) {
  EXPECT_EQ(printed(R"(      SUBROUTINE S(N, A, B)
      REAL*8 A(N), B(N)
      PARAMETER G = 3.0
      PARAMETER H = 0.1D0, K2 = 2.7
C$F2S STENCIL NAME(P)
      DO 10 I = 1, N
         B(I) = G*A(I) + H*K2
   10 CONTINUE
      END
)"),
            "kernel p(n: i32, a: f64(1:n), b: f64(1:n))\n"
            "  tune_size(1048576)\n"
            "  for i = 1, n {\n"
            "    b(i) = 3.0*a(i) + 0.2\n"
            "  }\n");
  // In free form too, with a declared type.
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, R"(subroutine s(n, a, b)
  integer :: n, i
  real(8) :: a(n), b(n), w
  parameter w = 0.1d0
  !$f2s stencil name(p)
  do i = 1, n
    b(i) = w*a(i)
  end do
end subroutine
)");
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_NE(print_kernel(ks[0]).find("b(i) = 0.1d0*a(i)\n"), std::string::npos);
}

} // namespace
} // namespace f2s::test
