// Inputs at the edges of what a source file may be: CRLF line ends, tabs,
// very long lines and statements, deeply nested expressions, a 100,000-line
// file, bytes that are not UTF-8. Each either lowers as its plain form does
// or is refused with a reason; none may crash the front end (a deep
// expression used to overflow the stack in Flang's parser or in the
// lowering).
#include "ast/IRPrinter.h"
#include "tests/frontend/FrontendTestUtil.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

using test::TempDir;

const char *kPlain = R"(subroutine smooth(n, m, a, b)
  integer :: n, m, i, j
  real(8) :: a(0:n+1, 0:m+1), b(0:n+1, 0:m+1)
  !$f2s stencil name(smooth)
  do j = 1, m
    do i = 1, n
      b(i,j) = 0.25d0*(a(i-1,j) + a(i+1,j)) + EXPR
    end do
  end do
end subroutine
)";

std::string with_expr(const std::string &expr) {
  std::string text = kPlain;
  text.replace(text.find("EXPR"), 4, expr);
  return text;
}

std::string replace_all(std::string text, const std::string &from, const std::string &to) {
  for (size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size())
    text.replace(at, from.size(), to);
  return text;
}

std::string ir_of(const TempDir &dir, const std::string &text, const std::string &name) {
  std::vector<Kernel> ks = test::lower_text(dir, text, name);
  EXPECT_EQ(ks.size(), 1u);
  return ks.empty() ? "" : print_kernel(ks[0]);
}

TEST(RobustInputs, CrlfLineEndsLowerAsLfDoes) {
  TempDir dir;
  std::string plain = with_expr("a(i,j)");
  std::string want = ir_of(dir, plain, "lf.f90");
  EXPECT_EQ(ir_of(dir, replace_all(plain, "\n", "\r\n"), "lf.f90"), want);
}

TEST(RobustInputs, TabsLowerAsBlanksDo) {
  TempDir dir;
  std::string plain = with_expr("a(i,j)");
  std::string want = ir_of(dir, plain, "blanks.f90");
  EXPECT_EQ(ir_of(dir, replace_all(plain, "  ", "\t"), "blanks.f90"), want);
}

// A sum of 5,000 terms on one line (45,000 characters): the parse tree is
// 5,000 levels deep, which the front end's own stack holds.
TEST(RobustInputs, AVeryLongLineLowers) {
  TempDir dir;
  std::string sum = "a(i,j)";
  for (int t = 0; t < 5000; ++t)
    sum += " + a(i,j)";
  std::string ir = ir_of(dir, with_expr(sum), "long.f90");
  EXPECT_NE(ir.find("a(i, j) + a(i, j)"), std::string::npos);
}

TEST(RobustInputs, AStatementOverTheLimitIsRefused) {
  TempDir dir;
  std::string sum = "a(i,j)";
  for (int t = 0; t < 12000; ++t)
    sum += " + a(i,j)";
  Diagnostic d = test::error_of(dir, with_expr(sum));
  EXPECT_EQ(test::line_col(d.loc), "7:1");
  EXPECT_EQ(d.message, "This statement is longer than 100000 characters, the most f2stencil "
                       "reads; split it with temporaries");
}

TEST(RobustInputs, ParenthesesNestedTwoHundredDeepLower) {
  TempDir dir;
  std::string e = std::string(200, '(') + "a(i,j)" + std::string(200, ')');
  std::string ir = ir_of(dir, with_expr(e), "deep.f90");
  EXPECT_NE(ir.find("a(i, j)"), std::string::npos);
}

// 100,000 levels used to overflow the stack in Flang's parser.
TEST(RobustInputs, DeeplyNestedExpressionIsRefusedCleanly) {
  TempDir dir;
  for (int depth : {257, 100000}) {
    SCOPED_TRACE(depth);
    std::string e = std::string(depth, '(') + "a(i,j)" + std::string(depth, ')');
    std::string text = with_expr(e);
    Diagnostic d = test::error_of(dir, text);
    // At the 257th parenthesis.
    EXPECT_EQ(test::line_col(d.loc),
              "7:" + std::to_string(text.find("(((") - text.rfind('\n', text.find("(((")) + 256));
    EXPECT_EQ(d.message, "This expression is nested more than 256 parentheses deep, too deeply "
                         "nested for f2stencil; split it with temporaries");
  }
}

// Parentheses in comments and character literals are not nesting.
TEST(RobustInputs, ParenthesesInCommentsAndStringsDoNotCount) {
  TempDir dir;
  std::string text = "! " + std::string(1000, '(') + "\n" + "subroutine note()\n  print *, '" +
                     std::string(1000, '(') + "'\nend subroutine\n" + with_expr("a(i,j)");
  EXPECT_EQ(test::lower_text(dir, text).size(), 1u);
}

TEST(RobustInputs, AHundredThousandLineFileLowers) {
  TempDir dir;
  std::string text;
  for (int l = 0; l < 100000; ++l)
    text += "! line " + std::to_string(l) + " of a long history of changes\n";
  text += with_expr("a(i,j)");
  std::vector<Kernel> ks = test::lower_text(dir, text);
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(ks[0].loc.line, 100004);
}

// Latin-1 in a comment is a comment; in the code it is Flang's error, with
// its position, not a crash.
TEST(RobustInputs, NonUtf8Bytes) {
  TempDir dir;
  std::string in_comment = with_expr("a(i,j)  ! d\xe9j\xe0 vu \xff\xfe");
  EXPECT_EQ(test::lower_text(dir, in_comment).size(), 1u);
  Diagnostic d = test::error_of(dir, with_expr("a(i,j) + \xe9"));
  EXPECT_EQ(test::line_col(d.loc).substr(0, 2), "7:");
  EXPECT_NE(d.message.find("0xe9"), std::string::npos) << d.message;
}

// Found by the fuzzer (tests/fuzz/run_fuzzer.sh) under AddressSanitizer: a
// negative exponent folds to a new constant, which was read after it was
// freed. The folded value must be exactly the constant written out; only a
// sanitized build (scripts/test_sanitized.sh) sees the freed read itself.
TEST(RobustInputs, ANegativeExponentInANamedConstantFolds) {
  TempDir dir;
  const char *text = R"(subroutine scale(n, m, a, b)
  integer :: n, m, i, j
  real(8), parameter :: c = VALUE
  real(8) :: a(0:n+1, 0:m+1), b(0:n+1, 0:m+1)
  !$f2s stencil name(scale)
  do j = 1, m
    do i = 1, n
      b(i,j) = c*a(i,j)
    end do
  end do
end subroutine
)";
  std::string power = replace_all(text, "VALUE", "0.5d0**(-2)");
  std::string literal = replace_all(text, "VALUE", "4d0");
  EXPECT_EQ(ir_of(dir, power, "power.f90"), ir_of(dir, literal, "power.f90"));
}

} // namespace
} // namespace f2s
