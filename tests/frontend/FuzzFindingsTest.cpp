// Inputs the front end's fuzzer (tests/fuzz) found to crash it, minimised.
// Each must end in a UserError at a position, never in an abort: the front
// end refuses, before Flang sees them, the shapes that Flang itself cannot
// survive.
#include "frontend/SourceLimits.h"
#include "tests/frontend/FrontendTestUtil.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

using test::error_of;
using test::line_col;
using test::loc_of;
using test::lower_text;
using test::TempDir;

constexpr int kMaxUnclosedForTest = fe::kMaxUnclosedConstructs;

// A stencil whose annotation is chosen by the preprocessor, as codes built
// with and without a feature macro have it; IF_LINE is the #if line.
const char *kSmooth = R"(subroutine smooth(n, a, b)
  integer :: n, i
  real(8) :: a(0:n+1), b(0:n+1)
IF_LINE
  !$f2s stencil name(with_foo)
#else
  !$f2s stencil name(without_foo)
#endif
  do i = 1, n
    b(i) = 0.5d0*(a(i-1) + a(i+1))
  end do
end subroutine
)";

std::string with_if(const std::string &if_line) {
  std::string text = kSmooth;
  text.replace(text.find("IF_LINE"), 7, if_line);
  return text;
}

// crash-36196acf...: `#if&FOO == 1` made Flang 19's preprocessor abort with
// "no case at preprocessor.cpp(1048)": an expression that starts with a
// binary operator followed by an operand reaches a switch over the unary
// operators without a case for it.
TEST(FuzzFindings, IfExpressionStartingWithABinaryOperatorIsRefusedNotAborted) {
  TempDir dir;
  std::string text = with_if("#if&FOO == 1");
  Diagnostic d = error_of(dir, text);
  EXPECT_EQ(line_col(d.loc), loc_of(text, "&FOO"));
  EXPECT_NE(d.message.find("operator '&' where an operand belongs"), std::string::npos)
      << d.message;
}

// The fuzzer's input itself was fixed form; the minimised one free form.
TEST(FuzzFindings, MinimisedInputInBothForms) {
  TempDir dir;
  EXPECT_EQ(line_col(error_of(dir, "\n#if&E", "free.f90").loc), "2:4");
  std::string fixed = "      PROGRAM P\n#if&FOO == 1\n      X = 1\n#endif\n      END\n";
  EXPECT_EQ(line_col(error_of(dir, fixed, "fixed.f").loc), "2:4");
}

// The same abort, after a binary operator, after '(' or in an #elif.
TEST(FuzzFindings, OperatorWhereAnOperandBelongsAnywhereInTheExpression) {
  TempDir dir;
  for (const char *line : {"#if (* 2)", "#if 1 == * 2", "#if defined(FOO) && || 1",
                           "#if 0\n#elif / 3", "#  if -(% 1)", "#IF FOO ==, 1"}) {
    std::string text = with_if(line);
    Diagnostic d = error_of(dir, text);
    EXPECT_NE(d.message.find("where an operand belongs"), std::string::npos) << line;
  }
}

// A macro defined empty leaves `== 1` to Flang's evaluation: the same abort,
// from the commonest way to reach it (`#define FOO` meant as a flag).
TEST(FuzzFindings, MacroDefinedEmptyBeforeAnOperatorIsRefusedAtTheMacro) {
  TempDir dir;
  std::string text = "#define FOO\n" + with_if("#if FOO == 1");
  Diagnostic d = error_of(dir, text);
  EXPECT_EQ(line_col(d.loc), loc_of(text, "FOO == 1"));
  EXPECT_NE(d.message.find("'==' (at the expansion of macro 'FOO')"), std::string::npos)
      << d.message;

  FrontendOptions empty_foo;
  empty_foo.defines = {"FOO="};
  try {
    lower_text(dir, with_if("#if FOO == 1"), "input.f90", empty_foo);
    ADD_FAILURE() << "-D FOO= then #if FOO == 1 was accepted";
  } catch (const UserError &e) {
    EXPECT_NE(std::string(e.what()).find("(at the expansion of macro 'FOO')"), std::string::npos)
        << e.what();
  }
}

// Well-formed expressions, macros included, still reach Flang and select
// their branch.
TEST(FuzzFindings, WellFormedExpressionsAreRead) {
  TempDir dir;
  for (const char *line :
       {"#if !defined(FOO) || FOO == 1", "#if !defined FOO", "#if -1 < 0", "#if (2 * 3) % 4 == 2",
        "#if 1 .AND. .NOT. 0", "#define FOO 1\n#if FOO == 1", "#define N (3)\n#if N * 2 == 6",
        "#define FOO\n#undef FOO\n#if FOO == 0", "#if 1 ? 1 : 0"}) {
    std::vector<Kernel> ks = lower_text(dir, with_if(line));
    ASSERT_EQ(ks.size(), 1u) << line;
    EXPECT_EQ(ks[0].name, "with_foo") << line;
  }
}

// timeout-6c1d7c5d... and the five slow-unit-* inputs: a subroutine whose
// DO constructs (inside an ASSOCIATE) mostly lack their END DO. Flang's
// parser retries each unclosed construct, twice the time per level: 12
// levels took 22 s, 20 would take minutes. Refused at the outermost one.
std::string unclosed(int depth, const std::string &opener) {
  std::string text = "subroutine deep(n, a)\n  integer :: n, i\n  real(8) :: a(n)\n";
  for (int k = 0; k < depth; ++k)
    text += "  " + opener + "\n";
  return text + "  a(1) = 0\nend subroutine\n";
}

TEST(FuzzFindings, ManyUnclosedConstructsAreRefusedBeforeFlangsBacktracking) {
  TempDir dir;
  for (const char *opener :
       {"do i = 1, n", "if (n > 0) then", "select case (n)", "outer: do while (n > 0)"}) {
    std::string text = unclosed(kMaxUnclosedForTest + 1, opener);
    Diagnostic d = error_of(dir, text);
    EXPECT_EQ(line_col(d.loc), loc_of(text, opener)) << opener;
    EXPECT_NE(d.message.find("have no END statement"), std::string::npos) << d.message;
  }
  std::string fixed = "      SUBROUTINE DEEP(N)\n";
  for (int k = 0; k < kMaxUnclosedForTest + 1; ++k)
    fixed += "      DO I = 1, N\n";
  fixed += "      END\n";
  EXPECT_EQ(line_col(error_of(dir, fixed, "deep.f").loc), "2:7");
}

// As many unclosed constructs as are allowed still reach Flang, which
// reports the missing END DO itself; closed ones of any depth, and labelled
// DO loops, which end on their label, are not counted.
TEST(FuzzFindings, FewUnclosedOrDeepClosedConstructsReachFlang) {
  TempDir dir;
  Diagnostic d = error_of(dir, unclosed(kMaxUnclosedForTest, "do i = 1, n"));
  EXPECT_EQ(d.message.find("have no END statement"), std::string::npos) << d.message;

  std::string deep = "subroutine deep(n, a)\n  integer :: n, i\n  real(8) :: a(0:n+1)\n";
  for (int k = 0; k < 12; ++k)
    deep += "  if (n > " + std::to_string(k) + ") then\n";
  deep += "  !$f2s stencil name(deep)\n  do i = 1, n\n    a(i) = a(i) + 1\n  end do\n";
  for (int k = 0; k < 12; ++k)
    deep += "  end if\n";
  deep += "end subroutine\n";
  EXPECT_EQ(lower_text(dir, deep).size(), 1u);

  std::string labelled = "      SUBROUTINE L(N, A)\n      REAL*8 A(0:N+1)\n";
  for (int k = 0; k < 12; ++k)
    labelled += "      DO 10 K" + std::to_string(k) + " = 1, 1\n";
  labelled += "C$F2S STENCIL NAME(L)\n      DO 10 I = 1, N\n      A(I) = A(I) + 1\n"
              "   10 CONTINUE\n      END\n";
  EXPECT_EQ(lower_text(dir, labelled, "l.f").size(), 1u);
}

} // namespace
} // namespace f2s
