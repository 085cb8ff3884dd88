// Reductions over the nest (issue 5): which scalar updates the front end
// takes as sums, maxima and minima, what the IR records and prints, and the
// refusal, with its position, of a scalar that is carried between points but
// is not a reduction.
#include "ast/Dependence.h"
#include "ast/IRPrinter.h"
#include "ast/Reductions.h"
#include "tests/common/TestUtil.h"
#include "tests/frontend/FrontendTestUtil.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

/// A 3D subroutine around `body`: dummies n, h, u, f; locals t, r (REAL(8))
/// and m (INTEGER).
std::string nest3(const std::string &body) {
  return test::around_nest3(R"(subroutine s(n, h, u, f)
  integer :: n, i, j, k, m
  real(8) :: h, t, r
  real(8) :: u(0:n+1, 0:n+1, 0:n+1), f(0:n+1, 0:n+1, 0:n+1)
)",
                            body);
}

Kernel lower_one(const std::string &text) {
  test::TempDir dir;
  std::vector<Kernel> ks = test::lower_text(dir, text);
  EXPECT_EQ(ks.size(), 1u);
  Kernel k = ks.at(0);
  if (auto d = find_dependence(k))
    ADD_FAILURE() << d->str();
  return k;
}

void expect_refusal(const std::string &text, const std::string &message, const std::string &at,
                    int nth = 1) {
  Diagnostic d = test::refusal(text);
  EXPECT_EQ(d.message, message);
  EXPECT_EQ(test::line_col(d.loc), test::loc_of(text, at, nth)) << d.str();
}

/// "reduce <op> <var>: <type>" lines of the kernel's printed IR.
std::string reductions_of(const Kernel &k) {
  std::string out;
  for (const Reduction &r : k.reductions)
    out += std::string(reduce_op_name(r.op)) + " " + r.var + ": " + type_name(r.type) + "\n";
  return out;
}

TEST(Reduction, ASumBecomesAnArgumentAndIsPrinted) {
  std::string src = nest3("        r = r + u(i,j,k)*h");
  Kernel k = lower_one(src);
  // A local of the procedure: an argument after the dummies, no temporary.
  std::string ir = print_kernel(k);
  EXPECT_EQ(ir.substr(0, ir.find("\n  for")), "kernel s_1(n: i32, h: f64, u: f64(0:n + 1, 0:n + 1, "
                                              "0:n + 1), r: f64)\n  reduce sum r: f64\n  "
                                              "tune_size(256, 256, 256)");
  EXPECT_NE(ir.find("r = r + u(i, j, k)*h\n"), std::string::npos) << ir;
  EXPECT_TRUE(k.temps.empty());
  ASSERT_EQ(k.reductions.size(), 1u);
  EXPECT_EQ(test::line_col(k.reductions[0].loc), test::loc_of(src, "r = r +"));
}

// A residual norm accumulated into the result of the function it computes,
// its type given by the FUNCTION statement's prefix (the kind from a USE of
// the body, or a RESULT name): the result is the reduction's argument.
TEST(Reduction, IntoAFunctionResultTypedByItsPrefix) {
  Kernel k = lower_one(R"(real(8) function resnorm(n, u, f)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: u(0:n+1, 0:n+1), f(n, n)
  integer :: i, j
  resnorm = 0d0
  !$f2s stencil
  do j = 1, n
    do i = 1, n
      resnorm = resnorm + (f(i,j) - 4d0*u(i,j) + u(i-1,j) + u(i+1,j))**2
    end do
  end do
  resnorm = sqrt(resnorm)
end function resnorm
)");
  EXPECT_EQ(reductions_of(k), "sum resnorm: f64\n");
  Kernel m = lower_one(R"(module kinds
  integer, parameter :: wp = selected_real_kind(12)
end module kinds
real(wp) function jump(n, u) result(s)
  use kinds
  implicit none
  integer, intent(in) :: n
  real(wp), intent(in) :: u(0:n+1)
  integer :: i
  s = 0
  !$f2s stencil
  do i = 1, n
    s = max(s, abs(u(i+1) - u(i-1)))
  end do
end function jump
)");
  EXPECT_EQ(reductions_of(m), "max s: f64\n");
}

TEST(Reduction, EverySpellingOfSumMaxAndMin) {
  EXPECT_EQ(reductions_of(lower_one(nest3("        r = u(i,j,k) + r"))), "sum r: f64\n");
  EXPECT_EQ(reductions_of(lower_one(nest3("        r = r - f(i,j,k)"))), "sum r: f64\n");
  // s + a - b is (s + a) - b: still one path of + and - down to s.
  EXPECT_EQ(reductions_of(lower_one(nest3("        r = r + u(i,j,k) - f(i,j,k)"))), "sum r: f64\n");
  EXPECT_EQ(reductions_of(lower_one(nest3("        r = max(r, abs(u(i,j,k) - f(i,j,k)))"))),
            "max r: f64\n");
  EXPECT_EQ(reductions_of(lower_one(nest3("        r = min(f(i,j,k), r, u(i,j,k))"))),
            "min r: f64\n");
  EXPECT_EQ(reductions_of(lower_one(nest3("        m = m + 1"))), "sum m: i32\n");
  // A dummy argument keeps its place; a reduction under an IF; two at once,
  // in argument order.
  Kernel k = lower_one(nest3(R"(
        t = u(i,j,k) - f(i,j,k)
        if (t > 0) r = max(r, t)
        h = h + t*t
        f(i,j,k) = t)"));
  EXPECT_EQ(reductions_of(k), "sum h: f64\nmax r: f64\n");
  EXPECT_EQ(k.args[1].name, "h");
  EXPECT_EQ(k.args.back().name, "r");
  ASSERT_EQ(k.temps.size(), 1u);
  EXPECT_EQ(k.temps[0].name, "t");
}

TEST(Reduction, AScalarAssignedFirstIsATemporaryNotAReduction) {
  Kernel k = lower_one(nest3(R"(
        t = 2*u(i,j,k)
        t = t + f(i,j,k)
        u(i,j,k) = t)"));
  EXPECT_TRUE(k.reductions.empty());
  ASSERT_EQ(k.temps.size(), 1u);
}

TEST(Reduction, RefusesAReductionVariableReadElsewhere) {
  std::string src = nest3(R"(
        r = r + u(i,j,k)
        f(i,j,k) = r)");
  expect_refusal(src,
                 "'r' is accumulated with + at 10:9 of the '!$f2s stencil' region and also read "
                 "here, so the partial result it would see depends on the loop order; a reduction "
                 "variable may appear only in its updates",
                 "r\n      end do");
  // Read inside another update of itself counts too.
  src = nest3(R"(
        r = max(r, u(i,j,k))
        t = r*2
        f(i,j,k) = t)");
  expect_refusal(src,
                 "'r' is accumulated with MAX at 10:9 of the '!$f2s stencil' region and also read "
                 "here, so the partial result it would see depends on the loop order; a reduction "
                 "variable may appear only in its updates",
                 "r*2");
}

TEST(Reduction, RefusesAReductionVariableAssignedOtherwise) {
  std::string src = nest3(R"(
        r = r + u(i,j,k)
        r = 0d0)");
  expect_refusal(src,
                 "'r' is accumulated with + at 10:9 of the '!$f2s stencil' region and also "
                 "assigned here, so it is not a reduction and its value is carried between "
                 "iterations",
                 "r = 0d0");
}

TEST(Reduction, RefusesTwoOperatorsOnOneVariable) {
  std::string src = nest3(R"(
        r = r + u(i,j,k)
        r = max(r, f(i,j,k)))");
  expect_refusal(src,
                 "'r' is accumulated with + at 10:9 of the '!$f2s stencil' region and with MAX "
                 "here; a reduction variable needs one operator",
                 "r = max");
}

TEST(Reduction, RefusesACarriedScalarThatIsNoReduction) {
  // A product, and a sum that reads its variable twice, are not recognised:
  // the dependence analysis refuses them as any carried scalar.
  const std::pair<const char *, const char *> cases[] = {{"        r = r*u(i,j,k)", "r*u"},
                                                         {"        r = r + r*u(i,j,k)", "r + r"}};
  for (const auto &[body, at] : cases)
    expect_refusal(nest3(body),
                   "'r' is read before it is assigned in the '!$f2s stencil' region, so its value "
                   "is carried between iterations",
                   at);
}

TEST(Reduction, UpdatesAreRecognisedOnTheirOwn) {
  auto s = Var::make("s", Type::Float64);
  auto x = Var::make("x", Type::Float64);
  auto update = [](Expr v) { return Assign("s", std::move(v), {}); };
  EXPECT_EQ(reduction_update(update(Binary::make(BinaryOp::Add, s, x))), ReduceOp::Sum);
  EXPECT_EQ(reduction_update(update(Binary::make(BinaryOp::Sub, s, x))), ReduceOp::Sum);
  // x - s is not a sum into s.
  EXPECT_FALSE(reduction_update(update(Binary::make(BinaryOp::Sub, x, s))));
  EXPECT_FALSE(reduction_update(update(Binary::make(BinaryOp::Mul, s, x))));
  EXPECT_EQ(reduction_update(update(Call::make(Intrinsic::Max, {x, s}))), ReduceOp::Max);
  // MAX over a sum mixes operators.
  EXPECT_FALSE(
      reduction_update(update(Call::make(Intrinsic::Max, {Binary::make(BinaryOp::Add, s, x), x}))));
  EXPECT_FALSE(reduction_update(update(s)));
}

} // namespace
} // namespace f2s
