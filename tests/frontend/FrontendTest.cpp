// Lowering of `!$f2s stencil` regions: what each supported construct becomes
// in the IR, and the user error for each construct that is rejected.
#include "FrontendTestUtil.h"

#include "ast/Evaluate.h"
#include "ast/IRPrinter.h"

#include <gtest/gtest.h>

#include <cmath>

namespace f2s::test {
namespace {

const char *kLaplacian = R"(subroutine smooth(nx, ny, nz, alpha, beta, u, unew)
  integer, intent(in) :: nx, ny, nz
  real(8), intent(in) :: alpha, beta, u(0:nx+1, 0:ny+1, 0:nz+1)
  real(8), intent(inout) :: unew(0:nx+1, 0:ny+1, 0:nz+1)
  integer :: i, j, k
  !$f2s stencil name(laplacian)
  do k = 1, nz
    do j = 1, ny
      do i = 1, nx
        unew(i,j,k) = alpha*u(i,j,k) + beta*(u(i+1,j,k) + u(i-1,j,k) + u(i,j+1,k) &
                    + u(i,j-1,k) + u(i,j,k+1) + u(i,j,k-1))
      end do
    end do
  end do
end subroutine
)";

// ------------------------------------------------------------- the operators

TEST(FrontendOperators, LaplacianPrints) {
  TempDir dir;
  auto kernels = lower_text(dir, kLaplacian);
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(print_kernel(kernels[0]),
            "kernel laplacian(nx: i32, ny: i32, nz: i32, alpha: f64, beta: f64, "
            "u: f64(0:nx + 1, 0:ny + 1, 0:nz + 1), unew: f64(0:nx + 1, 0:ny + 1, 0:nz + 1))\n"
            "  tune_size(256, 256, 256)\n"
            "  for k = 1, nz {\n"
            "    for j = 1, ny {\n"
            "      for i = 1, nx {\n"
            "        unew(i, j, k) = alpha*u(i, j, k) + beta*(u(i + 1, j, k) + u(i - 1, j, k) + "
            "u(i, j + 1, k) + u(i, j - 1, k) + u(i, j, k + 1) + u(i, j, k - 1))\n"
            "      }\n"
            "    }\n"
            "  }\n");
}

TEST(FrontendOperators, Jacobi2DInModulePrints) {
  TempDir dir;
  auto kernels = lower_text(dir, R"(module ops
  implicit none
contains
  subroutine jacobi2d(n, m, a, b)
    integer :: n, m
    real, dimension(n, m) :: a
    real :: b(n, m)
    integer :: i, j
    !$f2s stencil name(jacobi) tune_size(512, 128)
    do j = 2, m - 1
      do i = 2, n - 1
        b(i, j) = 0.25*(a(i-1,j) + a(i+1,j) + a(i,j-1) + a(i,j+1))
      end do
    end do
  end subroutine
end module
)");
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(kernels[0].procedure, "jacobi2d");
  EXPECT_EQ(print_kernel(kernels[0]),
            "kernel jacobi(n: i32, m: i32, a: f32(1:n, 1:m), b: f32(1:n, 1:m))\n"
            "  tune_size(512, 128)\n"
            "  for j = 2, m - 1 {\n"
            "    for i = 2, n - 1 {\n"
            "      b(i, j) = 0.25*(a(i - 1, j) + a(i + 1, j) + a(i, j - 1) + a(i, j + 1))\n"
            "    }\n"
            "  }\n");
}

TEST(FrontendOperators, WaveWithTemporariesPrints) {
  TempDir dir;
  auto kernels = lower_text(dir, R"(subroutine wave(nx, ny, nz, dt, c, p, pold, pnew)
  implicit none
  integer, intent(in) :: nx, ny, nz
  real(kind=8), intent(in) :: dt
  double precision, intent(in) :: c(nx, ny, nz), p(0:nx+1, 0:ny+1, 0:nz+1)
  real*8, intent(in) :: pold(nx, ny, nz)
  real(8), intent(out) :: pnew(nx, ny, nz)
  real(8) :: lap, cfl
  integer :: i, j, k
  !$f2s stencil
  do k = 1, nz
    do j = 1, ny
      do i = 1, nx
        lap = p(i+1,j,k) + p(i-1,j,k) + p(i,j+1,k) + p(i,j-1,k) + p(i,j,k+1) + p(i,j,k-1) &
            - 6.0d0*p(i,j,k)
        cfl = (c(i,j,k)*dt)**2
        pnew(i,j,k) = 2.0d0*p(i,j,k) - pold(i,j,k) + cfl*lap
      end do
    end do
  end do
end subroutine
)");
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(print_kernel(kernels[0]),
            "kernel wave_1(nx: i32, ny: i32, nz: i32, dt: f64, c: f64(1:nx, 1:ny, 1:nz), "
            "p: f64(0:nx + 1, 0:ny + 1, 0:nz + 1), pold: f64(1:nx, 1:ny, 1:nz), "
            "pnew: f64(1:nx, 1:ny, 1:nz))\n"
            "  temp lap: f64\n"
            "  temp cfl: f64\n"
            "  tune_size(256, 256, 256)\n"
            "  for k = 1, nz {\n"
            "    for j = 1, ny {\n"
            "      for i = 1, nx {\n"
            "        lap = p(i + 1, j, k) + p(i - 1, j, k) + p(i, j + 1, k) + p(i, j - 1, k) + "
            "p(i, j, k + 1) + p(i, j, k - 1) - 6.0d0*p(i, j, k)\n"
            "        cfl = (c(i, j, k)*dt)**2\n"
            "        pnew(i, j, k) = 2.0d0*p(i, j, k) - pold(i, j, k) + cfl*lap\n"
            "      }\n"
            "    }\n"
            "  }\n");
}

// ------------------------------------------------------ the IR, structurally

TEST(FrontendLowering, LaplacianStructure) {
  TempDir dir;
  auto kernels = lower_text(dir, kLaplacian);
  ASSERT_EQ(kernels.size(), 1u);
  const Kernel &k = kernels[0];
  std::string path = dir.path() + "/input.f90";
  EXPECT_EQ(k.name, "laplacian");
  EXPECT_EQ(k.procedure, "smooth");
  EXPECT_EQ(k.loc.file, path);
  EXPECT_EQ(line_col(k.loc), loc_of(kLaplacian, "!$f2s"));
  EXPECT_EQ(k.tune_size, (std::vector<int64_t>{256, 256, 256}));
  EXPECT_TRUE(k.temps.empty());

  std::vector<std::string> names;
  for (const Variable &v : k.args)
    names.push_back(v.name);
  EXPECT_EQ(names, (std::vector<std::string>{"nx", "ny", "nz", "alpha", "beta", "u", "unew"}));
  EXPECT_EQ(k.args[0].type, Type::Int32);
  EXPECT_FALSE(k.args[0].is_grid());
  EXPECT_EQ(line_col(k.args[0].loc), loc_of(kLaplacian, "nx, ny, nz\n"));
  EXPECT_EQ(k.args[3].type, Type::Float64);
  const Variable &u = k.args[5];
  ASSERT_EQ(u.rank(), 3);
  EXPECT_EQ(line_col(u.loc), loc_of(kLaplacian, "u(0:"));
  const auto *lo = as<IntImm>(u.dims[0].lo);
  ASSERT_TRUE(lo);
  EXPECT_EQ(lo->value, 0);
  const auto *hi = as<Binary>(u.dims[1].hi);
  ASSERT_TRUE(hi);
  EXPECT_EQ(hi->op, BinaryOp::Add);
  ASSERT_TRUE(as<Var>(hi->a));
  EXPECT_EQ(as<Var>(hi->a)->name, "ny");
  EXPECT_EQ(as<Var>(hi->a)->type, Type::Int32);
  ASSERT_TRUE(as<IntImm>(hi->b));
  EXPECT_EQ(as<IntImm>(hi->b)->value, 1);

  // for k { for j { for i { block } } }, serial, unit steps.
  const char *vars[] = {"k", "j", "i"};
  const char *uppers[] = {"nz", "ny", "nx"};
  Stmt s = k.body;
  for (int level = 0; level < 3; ++level) {
    const For *f = as<For>(s);
    ASSERT_TRUE(f) << "level " << level;
    EXPECT_EQ(f->var, vars[level]);
    EXPECT_EQ(f->exec, LoopExec::Serial);
    ASSERT_TRUE(as<IntImm>(f->lo));
    EXPECT_EQ(as<IntImm>(f->lo)->value, 1);
    ASSERT_TRUE(as<Var>(f->hi));
    EXPECT_EQ(as<Var>(f->hi)->name, uppers[level]);
    ASSERT_TRUE(as<IntImm>(f->step));
    EXPECT_EQ(as<IntImm>(f->step)->value, 1);
    EXPECT_EQ(line_col(f->loc), loc_of(kLaplacian, std::string("do ") + vars[level]));
    s = f->body;
  }
  EXPECT_EQ(k.loop_depth(), 3);
  const Block *block = as<Block>(s);
  ASSERT_TRUE(block);
  ASSERT_EQ(block->stmts.size(), 1u);
  const Store *store = as<Store>(block->stmts[0]);
  ASSERT_TRUE(store);
  EXPECT_EQ(store->grid, "unew");
  EXPECT_EQ(store->index, (std::vector<Index>{{"i", 1, 0}, {"j", 1, 0}, {"k", 1, 0}}));
  EXPECT_EQ(line_col(store->loc), loc_of(kLaplacian, "unew(i,j,k) ="));

  // alpha*u(i,j,k) + beta*(...)
  const Binary *sum = as<Binary>(store->value);
  ASSERT_TRUE(sum);
  EXPECT_EQ(sum->op, BinaryOp::Add);
  EXPECT_EQ(sum->type, Type::Float64);
  const Binary *left = as<Binary>(sum->a);
  ASSERT_TRUE(left);
  EXPECT_EQ(left->op, BinaryOp::Mul);
  EXPECT_EQ(line_col(left->loc), loc_of(kLaplacian, "alpha*u"));
  const GridRef *center = as<GridRef>(left->b);
  ASSERT_TRUE(center);
  EXPECT_EQ(center->grid, "u");
  EXPECT_EQ(center->type, Type::Float64);
  EXPECT_EQ(line_col(center->loc), loc_of(kLaplacian, "u(i,j,k)"));
  // The last neighbour, u(i,j,k-1), sits on the continuation line.
  const Binary *right = as<Binary>(sum->b);
  ASSERT_TRUE(right);
  const Binary *inner = as<Binary>(right->b);
  ASSERT_TRUE(inner);
  const GridRef *last = as<GridRef>(inner->b);
  ASSERT_TRUE(last);
  EXPECT_EQ(last->index, (std::vector<Index>{{"i", 1, 0}, {"j", 1, 0}, {"k", 1, -1}}));
  EXPECT_EQ(line_col(last->loc), loc_of(kLaplacian, "u(i,j,k-1)"));
}

/// The value stored by the only statement of a 2D kernel's body.
Expr stored_value(const Kernel &k, size_t n = 0) {
  const For *outer = as<For>(k.body);
  const For *inner = outer ? as<For>(outer->body) : nullptr;
  const Block *b = inner ? as<Block>(inner->body) : nullptr;
  if (!b || b->stmts.size() <= n)
    return nullptr;
  if (const Store *s = as<Store>(b->stmts[n]))
    return s->value;
  if (const Assign *a = as<Assign>(b->stmts[n]))
    return a->value;
  return nullptr;
}

/// A 2D kernel over `a` and `b` whose body is `b(i,j) = <rhs>`.
std::string kernel_2d(const std::string &rhs, const std::string &decls = "") {
  return "subroutine s(n, a, b)\n"
         "  integer :: n, i, j\n"
         "  real(8) :: a(n, n), b(n, n)\n" +
         decls +
         "  !$f2s stencil\n"
         "  do j = 1, n\n"
         "    do i = 1, n\n"
         "      b(i, j) = " +
         rhs +
         "\n"
         "    end do\n"
         "  end do\n"
         "end subroutine\n";
}

TEST(FrontendLowering, RealLiteralKinds) {
  struct Case {
    const char *text;
    Type type;
    double value;
  };
  const Case cases[] = {
      {"1.5d0", Type::Float64, 1.5},
      {"1.d-3", Type::Float64, 1.0e-3},
      {"2.0_8", Type::Float64, 2.0},
      {"0.1d0", Type::Float64, 0.1},
      {"0.1_8", Type::Float64, 0.1},
      {"0.5", Type::Float32, 0.5},
      {"1e3", Type::Float32, 1000.0},
      {"2.0_4", Type::Float32, 2.0},
      // Default REAL is REAL(4): 0.1 is rounded to single precision.
      {"0.1", Type::Float32, static_cast<double>(0.1f)},
      {"1.1E-1", Type::Float32, static_cast<double>(0.11f)},
  };
  for (const Case &c : cases) {
    TempDir dir;
    auto kernels = lower_text(dir, kernel_2d(c.text));
    Expr v = stored_value(kernels.at(0));
    const FloatImm *f = as<FloatImm>(v);
    ASSERT_TRUE(f) << c.text;
    EXPECT_EQ(f->type, c.type) << c.text;
    EXPECT_EQ(f->value, c.value) << c.text;
  }
  // 0.1 as REAL(4) is not the double nearest to 0.1.
  EXPECT_NE(static_cast<double>(0.1f), 0.1);
}

TEST(FrontendLowering, IntegerLiteralAndNamedConstants) {
  TempDir dir;
  auto kernels = lower_text(dir, kernel_2d("a(i,j)*3 + c + h*a(i+off,j)",
                                           "  integer, parameter :: off = 2\n"
                                           "  real(8), parameter :: c = 0.5d0, h = -1.25d0\n"));
  EXPECT_EQ(print_expr(stored_value(kernels.at(0))), "a(i, j)*3 + 0.5d0 + -1.25d0*a(i + 2, j)");
  // Named constants are folded: they are not arguments.
  EXPECT_EQ(kernels[0].args.size(), 3u);
}

TEST(FrontendLowering, TypeSpellings) {
  TempDir dir;
  auto kernels = lower_text(dir, R"(subroutine t(n, a, b, c, d, e, f, g, h, m)
  integer :: n, i, j, m
  real(8) :: a(n, n)
  double precision :: b(n, n)
  real(kind=8) :: c(n, n)
  real*8 :: d(n, n)
  real(4) :: e(n, n)
  real :: f(n, n)
  real(kind=4) :: g(n, n)
  real*4 :: h(n, n)
  !$f2s stencil
  do j = 1, n
    do i = 1, n
      a(i, j) = b(i, j) + c(i, j) + d(i, j) + e(i, j) + f(i, j) + g(i, j) + h(i, j) + m
    end do
  end do
end subroutine
)");
  const Kernel &k = kernels.at(0);
  ASSERT_EQ(k.args.size(), 10u);
  const Type expected[] = {Type::Int32,   Type::Float64, Type::Float64, Type::Float64,
                           Type::Float64, Type::Float32, Type::Float32, Type::Float32,
                           Type::Float32, Type::Int32};
  const char *names[] = {"n", "a", "b", "c", "d", "e", "f", "g", "h", "m"};
  for (size_t n = 0; n < 10; ++n) {
    EXPECT_EQ(k.args[n].name, names[n]);
    EXPECT_EQ(k.args[n].type, expected[n]) << names[n];
  }
  // REAL(8) + ... + INTEGER promotes to REAL(8).
  EXPECT_EQ(stored_value(k)->type, Type::Float64);
}

TEST(FrontendLowering, NamedKinds) {
  TempDir dir;
  auto kernels = lower_text(dir, R"(module kinds
  integer, parameter :: dp = kind(1.d0), sp = selected_real_kind(6), wp = dp
end module
subroutine t(n, a, b, c)
  use kinds
  integer :: n, i, j
  real(kind=dp) :: a(n, n)
  real(sp) :: b(n, n)
  real(wp) :: c(n, n)
  !$f2s stencil
  do j = 1, n
    do i = 1, n
      a(i, j) = b(i, j) + c(i, j) + 0.1_dp
    end do
  end do
end subroutine
)");
  const Kernel &k = kernels.at(0);
  EXPECT_EQ(k.args.at(1).type, Type::Float64);
  EXPECT_EQ(k.args.at(2).type, Type::Float32);
  EXPECT_EQ(k.args.at(3).type, Type::Float64);
  const Binary *sum = as<Binary>(stored_value(k));
  ASSERT_TRUE(sum);
  const FloatImm *f = as<FloatImm>(sum->b);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->type, Type::Float64);
  EXPECT_EQ(f->value, 0.1);
}

TEST(FrontendLowering, BoundsAndDimensionAttribute) {
  TempDir dir;
  auto kernels = lower_text(dir, R"(subroutine t(nx, ny, u, v)
  integer :: nx, ny, i, j
  real(8), dimension(-1:nx+2, 0:ny) :: u
  real(8) :: v
  dimension v(2*nx, ny-1)
  !$f2s stencil
  do j = 1, ny - 1
    do i = 1, nx
      v(i, j) = u(i-1, j) + u(i+2, j)
    end do
  end do
end subroutine
)");
  EXPECT_EQ(print_kernel(kernels.at(0)),
            "kernel t_1(nx: i32, ny: i32, u: f64(-1:nx + 2, 0:ny), v: f64(1:2*nx, 1:ny - 1))\n"
            "  tune_size(1024, 1024)\n"
            "  for j = 1, ny - 1 {\n"
            "    for i = 1, nx {\n"
            "      v(i, j) = u(i - 1, j) + u(i + 2, j)\n"
            "    }\n"
            "  }\n");
}

TEST(FrontendLowering, Intrinsics) {
  TempDir dir;
  auto kernels =
      lower_text(dir, kernel_2d("sqrt(a(i,j)) + abs(a(i,j)) + min(a(i,j), 1.0d0, a(i+1,j)) + "
                                "max(a(i,j), 0.0d0) + exp(a(i,j)) + sin(a(i,j)) + cos(a(i,j))"));
  Expr v = stored_value(kernels.at(0));
  EXPECT_EQ(print_expr(v), "sqrt(a(i, j)) + abs(a(i, j)) + min(a(i, j), 1.0d0, a(i + 1, j)) + "
                           "max(a(i, j), 0.0d0) + exp(a(i, j)) + sin(a(i, j)) + cos(a(i, j))");
  // Walk down the left spine to sqrt(...).
  const ExprNode *e = v.get();
  std::vector<Intrinsic> fns;
  while (e->kind == ExprKind::Binary) {
    const auto *b = static_cast<const Binary *>(e);
    const Call *c = as<Call>(b->b);
    ASSERT_TRUE(c);
    fns.insert(fns.begin(), c->fn);
    e = b->a.get();
  }
  ASSERT_EQ(e->kind, ExprKind::Call);
  fns.insert(fns.begin(), static_cast<const Call *>(e)->fn);
  EXPECT_EQ(fns,
            (std::vector<Intrinsic>{Intrinsic::Sqrt, Intrinsic::Abs, Intrinsic::Min, Intrinsic::Max,
                                    Intrinsic::Exp, Intrinsic::Sin, Intrinsic::Cos}));
}

TEST(FrontendLowering, PowerUnaryMinusPlusAndParentheses) {
  TempDir dir;
  auto kernels = lower_text(dir, kernel_2d("-a(i,j)**2 + (+a(i,j)) * (a(i,j) - (a(i+1,j) - 1))"));
  Expr v = stored_value(kernels.at(0));
  EXPECT_EQ(print_expr(v), "-a(i, j)**2 + a(i, j)*(a(i, j) - (a(i + 1, j) - 1))");
  const Binary *sum = as<Binary>(v);
  ASSERT_TRUE(sum);
  const Unary *neg = as<Unary>(sum->a);
  ASSERT_TRUE(neg);
  EXPECT_EQ(neg->op, UnaryOp::Neg);
  const Binary *pow = as<Binary>(neg->a);
  ASSERT_TRUE(pow);
  EXPECT_EQ(pow->op, BinaryOp::Pow);
  EXPECT_EQ(pow->type, Type::Float64);
  ASSERT_TRUE(as<IntImm>(pow->b));
  // The unary plus is dropped.
  const Binary *product = as<Binary>(sum->b);
  ASSERT_TRUE(product);
  EXPECT_TRUE(as<GridRef>(product->a));
}

TEST(FrontendLowering, IntegerVariableExponent) {
  TempDir dir;
  auto kernels = lower_text(dir, kernel_2d("a(i,j)**n"));
  const Binary *pow = as<Binary>(stored_value(kernels.at(0)));
  ASSERT_TRUE(pow);
  EXPECT_EQ(pow->op, BinaryOp::Pow);
  ASSERT_TRUE(as<Var>(pow->b));
  EXPECT_EQ(as<Var>(pow->b)->type, Type::Int32);
}

TEST(FrontendLowering, SubscriptForms) {
  TempDir dir;
  auto kernels =
      lower_text(dir, kernel_2d("a(1+i, j) + a(i, j-2) + a(i, 1) + a(-1+i, (j)) + a(i+1-1, j)"));
  EXPECT_EQ(print_expr(stored_value(kernels.at(0))),
            "a(i + 1, j) + a(i, j - 2) + a(i, 1) + a(i - 1, j) + a(i, j)");
  const GridRef *constant = nullptr;
  // ((((a(1+i,j) + a(i,j-2)) + a(i,1)) + ...) + ...): a(i,1) is the third term.
  const Binary *b = as<Binary>(stored_value(kernels[0]));
  b = as<Binary>(b->a);
  b = as<Binary>(b->a);
  constant = as<GridRef>(b->b);
  ASSERT_TRUE(constant);
  EXPECT_EQ(constant->index[1].var, "");
  EXPECT_EQ(constant->index[1].offset, 1);
}

TEST(FrontendLowering, ScalarTemporaries) {
  TempDir dir;
  const std::string src = R"(subroutine s(n, a, b)
  integer :: n, i, j
  real(8) :: a(n, n), b(n, n)
  real(8) :: t
  real :: w
  !$f2s stencil
  do j = 1, n
    do i = 1, n
      t = a(i, j) * 2
      w = t
      t = t + w
      b(i, j) = t
    end do
  end do
end subroutine
)";
  auto kernels = lower_text(dir, src);
  const Kernel &k = kernels.at(0);
  ASSERT_EQ(k.temps.size(), 2u);
  EXPECT_EQ(k.temps[0].name, "t");
  EXPECT_EQ(k.temps[0].type, Type::Float64);
  EXPECT_EQ(line_col(k.temps[0].loc), loc_of(src, "t\n"));
  EXPECT_EQ(k.temps[1].name, "w");
  EXPECT_EQ(k.temps[1].type, Type::Float32);
  EXPECT_EQ(k.args.size(), 3u); // n, a, b: the temporaries are not arguments
  EXPECT_FALSE(k.find_arg("t"));
  const For *outer = as<For>(k.body);
  const Block *block = as<Block>(as<For>(outer->body)->body);
  ASSERT_EQ(block->stmts.size(), 4u);
  const Assign *first = as<Assign>(block->stmts[0]);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->var, "t");
  EXPECT_EQ(line_col(first->loc), loc_of(src, "t = a"));
  const Var *read = as<Var>(as<Assign>(block->stmts[1])->value);
  ASSERT_TRUE(read);
  EXPECT_EQ(read->name, "t");
  EXPECT_EQ(read->type, Type::Float64);
  EXPECT_TRUE(as<Store>(block->stmts[3]));
}

TEST(FrontendLowering, ArgumentOrderLocalsAndBoundScalars) {
  TempDir dir;
  // The dummies come first in the order of the dummy list (not of their
  // declarations), then the locals in declaration order; `m` is an
  // argument only because it bounds `w`.
  auto kernels = lower_text(dir, R"(subroutine s(v, n, scale)
  real(8) :: scale
  integer :: m
  integer :: n, i, j
  real(8) :: w(m, n)
  real(8) :: v(n, n)
  real(8) :: unused
  real(8) :: coef
  !$f2s stencil
  do j = 1, n
    do i = 1, n
      v(i, j) = scale * w(i, j) + coef
    end do
  end do
end subroutine
)");
  std::vector<std::string> names;
  for (const Variable &v : kernels.at(0).args)
    names.push_back(v.name);
  EXPECT_EQ(names, (std::vector<std::string>{"v", "n", "scale", "m", "w", "coef"}));
}

TEST(FrontendLowering, LoopBoundsWithExpressionsAndUnitStep) {
  TempDir dir;
  auto kernels = lower_text(dir, R"(subroutine s(n, lo, a)
  integer :: n, lo, i, j, k
  real :: a(n, n, n)
  !$f2s stencil
  do k = lo + 1, n - lo, 1
    do j = 2*lo, n/2
      do i = -lo, (n - 1)
        a(i, j, k) = 0.0
      end do
    end do
  end do
end subroutine
)");
  EXPECT_EQ(print_stmt(kernels.at(0).body), "for k = lo + 1, n - lo {\n"
                                            "  for j = 2*lo, n/2 {\n"
                                            "    for i = -lo, n - 1 {\n"
                                            "      a(i, j, k) = 0.0\n"
                                            "    }\n"
                                            "  }\n"
                                            "}\n");
}

// A step s > 1 becomes a counter t from 0 with Fortran's trip count
// (hi - lo + s)/s, and the loop variable reads as s*t + lo everywhere: in
// subscripts (scaled and shifted) and in expressions.
TEST(FrontendLowering, StridedLoopsBecomeUnitStepCounters) {
  TempDir dir;
  auto kernels = lower_text(dir, R"(subroutine s(n, a, b)
  integer, parameter :: two = 2
  integer :: n, i, j
  real(8) :: a(0:2*n+1, 0:n+1), b(0:2*n+1, 0:n+1)
  !$f2s stencil
  do j = -1, n, 3
    do i = 2, n - 1, two
      b(i, j+1) = a(2*i - 1, j) + i*j
    end do
  end do
end subroutine
)");
  EXPECT_EQ(print_stmt(kernels.at(0).body),
            "for j = 0, (n + 4)/3 - 1 {\n"
            "  for i = 0, (n - 1)/2 - 1 {\n"
            "    b(2*i + 2, 3*j) = a(4*i + 3, 3*j - 1) + (2*i + 2)*(3*j - 1)\n"
            "  }\n"
            "}\n");
  std::string ir = print_kernel(kernels.at(0));
  EXPECT_NE(ir.find("  source j = 3*j - 1\n  source i = 2*i + 2\n"), std::string::npos) << ir;
}

// The counter's last value is -1 or below whenever hi < lo, also when
// hi - lo + s is negative (the division truncates toward zero): the lowered
// loop runs as often as Fortran's for every start, end and step.
TEST(FrontendLowering, StridedLoopTripCounts) {
  TempDir dir;
  for (int step : {2, 3, 5})
    for (int lo = -4; lo <= 4; ++lo) {
      auto kernels = lower_text(dir, "subroutine s(n, a)\n"
                                     "  integer :: n, i\n"
                                     "  real(8) :: a(-9:99)\n"
                                     "  !$f2s stencil\n"
                                     "  do i = " +
                                         std::to_string(lo) + ", n, " + std::to_string(step) +
                                         "\n"
                                         "    a(i) = 1d0\n"
                                         "  end do\n"
                                         "end subroutine\n");
      const For *f = as<For>(kernels.at(0).body);
      ASSERT_TRUE(f);
      for (int64_t hi = -12; hi <= 12; ++hi) {
        int64_t fortran = 0;
        for (int64_t i = lo; i <= hi; i += step)
          ++fortran;
        auto first = eval_int(f->lo, {{"n", hi}}), last = eval_int(f->hi, {{"n", hi}});
        ASSERT_TRUE(first && last);
        EXPECT_EQ(std::max<int64_t>(*last - *first + 1, 0), fortran)
            << "do i = " << lo << ", " << hi << ", " << step;
      }
    }
}

// Multigrid transfers: a coarse point reads and writes fine elements at
// 2*i + o; several stores of one grid are allowed.
TEST(FrontendLowering, ScaledSubscriptsInReadsAndStores) {
  TempDir dir;
  auto kernels = lower_text(dir, R"(subroutine s(n, e, u)
  integer :: n, i
  real(8) :: e(0:n+1), u(0:2*n+1)
  !$f2s stencil
  do i = 0, n
    u(2*i) = u(2*i) + e(i)
    u(2*i+1) = u(i+i+1) + 0.5d0*(e(i) + e(i+1))
  end do
end subroutine
)");
  EXPECT_EQ(print_stmt(kernels.at(0).body), "for i = 0, n {\n"
                                            "  u(2*i) = u(2*i) + e(i)\n"
                                            "  u(2*i + 1) = u(2*i + 1) + 0.5d0*(e(i) + e(i + 1))\n"
                                            "}\n");
  EXPECT_FALSE(find_dependence(kernels.at(0)));
}

TEST(FrontendLowering, SeveralRegionsInSeveralProcedures) {
  TempDir dir;
  auto kernels = lower_text(dir, R"(module m
  implicit none
  integer :: shared_n
contains
  subroutine first(n, a)
    integer :: n, i, j
    real :: a(n, n)
    !$f2s stencil
    do j = 1, n
      do i = 1, n
        a(i, j) = 1.0
      end do
    end do
    !$f2s stencil name(Second_One)
    do j = 1, n
      do i = 1, n
        a(i, j) = 2.0
      end do
    end do
    !$f2s stencil
    do j = 1, n
      do i = 1, n
        a(i, j) = 3.0
      end do
    end do
  end subroutine
  real function f(a)
    real :: a(shared_n, shared_n)
    integer :: i, j
    !$f2s stencil
    do j = 1, shared_n
      do i = 1, shared_n
        a(i, j) = 4.0
      end do
    end do
    f = 0.0
  end function
end module

subroutine outside(n, a)
  integer :: n, i, j
  real :: a(n, n)
  !$f2s stencil
  do j = 1, n
    do i = 1, n
      a(i, j) = 5.0
    end do
  end do
end subroutine

program main_prog
  integer, parameter :: n = 8
  real :: a(n, n)
  integer :: i, j
  !$f2s stencil
  do j = 1, n
    do i = 1, n
      a(i, j) = 6.0
    end do
  end do
  print *, a(1, 1)
end program
)");
  ASSERT_EQ(kernels.size(), 6u);
  const char *names[] = {"first_1", "second_one", "first_3", "f_1", "outside_1", "main_prog_1"};
  const char *procs[] = {"first", "first", "first", "f", "outside", "main_prog"};
  for (size_t n = 0; n < 6; ++n) {
    EXPECT_EQ(kernels[n].name, names[n]);
    EXPECT_EQ(kernels[n].procedure, procs[n]);
    EXPECT_EQ(print_expr(stored_value(kernels[n])), std::to_string(n + 1) + ".0");
  }
  // A module variable is an argument; the main program's constant is folded.
  EXPECT_EQ(print_kernel(kernels[3]).substr(0, 50),
            "kernel f_1(a: f32(1:shared_n, 1:shared_n), shared_");
  EXPECT_EQ(kernels[5].args.size(), 1u);
  EXPECT_EQ(print_expr(kernels[5].args[0].dims[0].hi), "8");
}

TEST(FrontendLowering, DirectiveSpellingAndTuneSizeOrder) {
  TempDir dir;
  auto kernels = lower_text(dir, R"(subroutine s(n, a)
  integer :: n, i, j, k
  real :: a(n, n, n)
      !$F2S Stencil TUNE_SIZE( 64 ,32, 16 ),Name(Blob)   ! trailing comment
  DO K = 1, N
    DO J = 1, N
      DO I = 1, N
        A(I, J, K) = 1.0
      END DO
    END DO
  END DO
end subroutine
)");
  EXPECT_EQ(kernels.at(0).name, "blob");
  EXPECT_EQ(kernels[0].loc.line, 4);
  EXPECT_EQ(kernels[0].loc.column, 7);
  // n1 is the extent of the innermost loop (the first array dimension).
  EXPECT_EQ(kernels[0].tune_size, (std::vector<int64_t>{64, 32, 16}));
}

TEST(FrontendLowering, SeveralTuneSizes) {
  TempDir dir;
  auto kernels = lower_text(dir, R"(subroutine s(n, a)
  integer :: n, i, j
  real :: a(n, n)
  !$f2s stencil name(lev) tune_size(64, 64; 1024, 1024; 256, 256)
  do j = 1, n
    do i = 1, n
      a(i, j) = 1.0
    end do
  end do
end subroutine
)");
  // The first size is tune_size; the order written is kept (the driver
  // orders them by working set).
  EXPECT_EQ(kernels.at(0).tune_size, (std::vector<int64_t>{64, 64}));
  EXPECT_EQ(kernels[0].tune_sizes,
            (std::vector<std::vector<int64_t>>{{64, 64}, {1024, 1024}, {256, 256}}));
  EXPECT_NE(print_kernel(kernels[0]).find("\n  tune_size(64, 64; 1024, 1024; 256, 256)\n"),
            std::string::npos)
      << print_kernel(kernels[0]);
}

TEST(FrontendLowering, PreprocessedFileAndIncludeDirectories) {
  TempDir dir;
  std::string inc = dir.path() + "/inc";
  std::filesystem::create_directories(inc);
  dir.write("inc/decls.h", "  real(8) :: a(n, n), b(n, n)\n");
  FrontendOptions options;
  options.include_dirs = {inc};
  const std::string src = R"(#define SCALE 0.5d0
subroutine s(n, a, b)
  integer :: n, i, j
  include 'decls.h'
#ifdef NOT_DEFINED
  this is not Fortran
#endif
  !$f2s stencil
  do j = 1, n
    do i = 1, n
      b(i, j) = SCALE*a(i, j)
    end do
  end do
end subroutine
)";
  auto kernels = lower_text(dir, src, "input.F90", options);
  EXPECT_EQ(print_expr(stored_value(kernels.at(0))), "0.5d0*a(i, j)");
  // The positions still point into the original file.
  const For *outer = as<For>(kernels[0].body);
  EXPECT_EQ(line_col(outer->loc), loc_of(src, "do j"));
  // `a` is declared in the included file.
  EXPECT_EQ(kernels[0].args[1].loc.file, inc + "/decls.h");
}

// ------------------------------------------------------------------- errors

/// Expects lowering `src` to fail with `message` at the first occurrence of
/// `where` in `src` (its `nth` occurrence when given).
void expect_error(const std::string &src, const std::string &message, const std::string &where,
                  int nth = 1) {
  TempDir dir;
  Diagnostic d = error_of(dir, src);
  EXPECT_EQ(d.message, message);
  EXPECT_EQ(line_col(d.loc), loc_of(src, where, nth)) << d.str();
}

TEST(FrontendErrors, CallStatement) {
  expect_error(kernel_2d("0\n      call foo(a)"),
               "A CALL statement is not allowed inside a '!$f2s stencil' region; write the "
               "subroutine's computation inline",
               "call foo");
}

TEST(FrontendErrors, IfStatementAroundACall) {
  expect_error(kernel_2d("0\n      if (i > 1) call foo(a)"),
               "Only an assignment may follow IF (...) inside a '!$f2s stencil' region",
               "call foo");
}

TEST(FrontendErrors, IfConstructWithANumberAsCondition) {
  expect_error(kernel_2d("0\n      if (a(i,j) + 1) then\n        b(i,j) = 1\n      end if"),
               "The condition 'a(i,j) + 1' must be LOGICAL", "a(i,j) + 1)");
}

TEST(FrontendErrors, OtherStatement) {
  expect_error(kernel_2d("0\n      print *, i"),
               "A PRINT statement is not allowed inside a '!$f2s stencil' region", "print");
}

TEST(FrontendErrors, ProductOfLoopVariablesSubscript) {
  expect_error(
      kernel_2d("a(i*j, j)"),
      "Subscript 'i*j' of 'a' is not an integer multiple of a loop variable plus a constant",
      "i*j");
}

TEST(FrontendErrors, LargeFactorSubscript) {
  expect_error(kernel_2d("a(i, 9*j - 1)"),
               "Subscript '9*j - 1' of 'a' multiplies loop variable 'j' by 9; the factor must be "
               "from -8 to 8",
               "9*j");
}

TEST(FrontendErrors, IndirectSubscript) {
  expect_error(
      kernel_2d("a(idx(i), j)", "  integer :: idx(n)\n"),
      "Subscript 'idx(i)' of 'a' is not an integer multiple of a loop variable plus a constant",
      "idx(i),");
}

// A loop variable offset by a variable in one access and not in another
// (`a(i, j+n)` beside `a(i, j)`) is lowered as written, the offset a
// parameter of the dependence analysis (a only read: nothing to decide); a
// plane `a(i, n)` without a loop variable is accepted too (PlanesTest.cpp).
TEST(FrontendErrors, VariableSubscript) {
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, kernel_2d("a(i, j+n) + a(i, j)"));
  ASSERT_EQ(ks.size(), 1u);
  std::string ir = print_kernel(ks[0]);
  EXPECT_NE(ir.find("b(i, j) = a(i, j + n) + a(i, j)"), std::string::npos) << ir;
  EXPECT_EQ(lower_text(dir, kernel_2d("a(i, n) + a(i, j)")).size(), 1u);
}

TEST(FrontendErrors, UndeclaredVariableUnderImplicitNone) {
  std::string src = kernel_2d("a(i, j) + q");
  src.insert(src.find('\n') + 1, "  implicit none\n");
  expect_error(src, "'q' is not declared and IMPLICIT NONE is in force; declare it", "q");
}

TEST(FrontendErrors, UnknownFunction) {
  expect_error(kernel_2d("a(i, j) + erf(a(i, j))"),
               "'erf' is an unknown function, so what it reads and writes cannot be known; "
               "inside a '!$f2s stencil' region only the elementary intrinsics (SQRT, EXP, "
               "LOG, LOG10, SIN, COS, TAN, ASIN, ACOS, ATAN, ATAN2, SINH, COSH, TANH), ABS, "
               "SIGN, MIN, MAX, MOD, MERGE, the conversions (REAL, DBLE, FLOAT, INT, NINT, "
               "FLOOR, CEILING, AINT, ANINT) and their specific names (DSQRT, AMAX1, ...) are "
               "allowed; declare 'erf' if it is an array, or write the function's computation "
               "inline",
               "erf");
}

// A statement between the loops runs once per outer iteration
// (canonicalize/SinkScalars), where the inner loop's variable has no value.
TEST(FrontendErrors, StatementBeforeTheInnerLoopReadsItsVariable) {
  const std::string src = R"(subroutine s(n, a)
  integer :: n, i, j
  real :: a(n, n), t
  !$f2s stencil
  do j = 1, n
    a(i, j) = t
    do i = 1, n
      a(i, j) = t
    end do
  end do
end subroutine
)";
  expect_error(src,
               "Loop variable 'i' is read before its DO loop, between the DO loops of the '!$f2s "
               "stencil' region, where it has no value of the loop's; write the element with the "
               "bound of the loop instead",
               "a(i, j) = t");
}

// After the inner loop, a statement that rewrites an element of the row
// (carried by i) and reads the previous row's last (carried by j): refused
// for its dependence, by ast/LoopDependences.
TEST(FrontendErrors, StatementAfterTheInnerLoopCarriedByBothLoops) {
  const std::string src = R"(subroutine s(n, a)
  integer :: n, i, j
  real :: a(n, n)
  !$f2s stencil
  do j = 2, n
    do i = 1, n
      a(i, j) = 0.0
    end do
    a(1, j) = a(n, j-1)
  end do
end subroutine
)";
  Diagnostic d = refusal(src);
  EXPECT_EQ(d.message, "'a' is written at (i,j) by one point and at (1,j) by another, so the "
                       "result depends on the loop order; every loop of the nest carries a "
                       "dependence ('j', 'i'), so none can run in parallel");
  EXPECT_EQ(line_col(d.loc), loc_of(src, "a(1, j)"));
}

TEST(FrontendErrors, StepThatIsNotAPositiveConstant) {
  const std::string src = R"(subroutine s(n, m, a)
  integer :: n, m, i, j
  real :: a(n, n)
  !$f2s stencil
  do j = 1, n
    do i = 1, n, m
      a(i, j) = 0.0
    end do
  end do
end subroutine
)";
  expect_error(src,
               "The step of the DO loop over 'i' must be a positive INTEGER constant or -1 in a "
               "'!$f2s stencil' region; make 'm' a named constant (PARAMETER)",
               "m\n");
  std::string down = src;
  down.replace(down.find("1, n, m"), 7, "n, 1, -2");
  expect_error(down,
               "The step of the DO loop over 'i' must be a positive INTEGER constant or -1 in a "
               "'!$f2s stencil' region; swap its bounds and make the step positive if the "
               "points may run in any order",
               "-2\n");
}

TEST(Frontend, AStepOfMinusOneRunsTheSamePointsFromTheTop) {
  const std::string src = R"(subroutine s(n, a, b)
  integer :: n, i, k
  real(8) :: a(n, n), b(n, n)
  !$f2s stencil name(back)
  do k = n - 1, 1, -1
    do i = 1, n
      a(i, k) = b(i, k) - 0.5d0*a(i, k+1)
    end do
  end do
end subroutine
)";
  test::TempDir dir;
  std::vector<Kernel> ks = test::lower_text(dir, src);
  ASSERT_EQ(ks.size(), 1u);
  std::string ir = print_stmt(ks[0].body);
  EXPECT_NE(ir.find("reverse for k = 1, n - 1 {"), std::string::npos) << ir;
}

TEST(FrontendErrors, BoundDependsOnLoopVariable) {
  const std::string src = R"(subroutine s(n, a)
  integer :: n, i, j
  real :: a(n, n)
  !$f2s stencil
  do j = 1, i
    do i = 1, n
      a(i, j) = 0.0
    end do
  end do
end subroutine
)";
  // An outer loop's bounds cannot use an inner loop's variable.
  expect_error(src, "The bounds of the DO loop over 'j' depend on loop variable 'i'", "i\n");
  // An inner loop's may, if they change monotonically with it.
  std::string wavy = src;
  wavy.replace(wavy.find("1, i"), 4, "1, n");
  wavy.replace(wavy.find("i = 1, n"), 8, "i = mod(j, 3) + 1, n");
  expect_error(wavy,
               "The bounds of the DO loop over 'i' must change monotonically with loop variable "
               "'j' (sums, constant multiples, MIN and MAX of it); run it over a range that holds "
               "every point and skip the others with an IF around its body",
               "do i");
}

// A triangle and a wedge whose start depends on two outer loops: the loops
// run over the bounding box, and a guard keeps the source's points.
TEST(Frontend, BoundsOfOuterLoopVariablesBecomeABoxAndAGuard) {
  const std::string src = R"(subroutine s(n, m, a, b)
  integer :: n, m, i, j, k
  real(8) :: a(n, n, m), b(n, n, m)
  !$f2s stencil name(wedge)
  do k = 1, m
    do j = k, n
      do i = j + k - 1, min(n, j + 2)
        a(i, j, k) = b(i, j, k) + 1d0
      end do
    end do
  end do
end subroutine
)";
  test::TempDir dir;
  std::vector<Kernel> ks = test::lower_text(dir, src);
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(print_stmt(ks[0].body),
            "for k = 1, m {\n"
            "  for j = 1, n {\n"
            "    for i = 1, n {\n"
            "      if j >= k .and. i >= j + k - 1 .and. i <= min(n, j + 2) {\n"
            "        a(i, j, k) = b(i, j, k) + 1.0d0\n"
            "      }\n"
            "    }\n"
            "  }\n"
            "}\n");
}

TEST(FrontendErrors, ArrayElementInBound) {
  const std::string src = R"(subroutine s(n, a, m)
  integer :: n, i, j, m(2)
  real :: a(n, n)
  !$f2s stencil
  do j = 1, n
    do i = 1, m(2)
      a(i, j) = 0.0
    end do
  end do
end subroutine
)";
  expect_error(src,
               "Array element of 'm' cannot be used in the bounds of the DO loop over 'i' of a "
               "'!$f2s stencil' region; assign it to a scalar before the region and use the "
               "scalar",
               "m(2)", 2);
}

TEST(FrontendErrors, StoreAtAFixedElement) {
  expect_error(kernel_2d("0\n      b(1, j) = a(i, j)"),
               "Assignment to 'b(1, j)' has no subscript in loop variable 'i', so every point of "
               "the DO loop over 'i' writes the same element; subscript 'b' with 'i' too",
               "b(1");
}

TEST(FrontendErrors, StoreWithRepeatedLoopVariable) {
  expect_error(kernel_2d("0\n      b(i, i) = a(i, j)"),
               "Assignment to 'b(i, i)' uses loop variable 'i' in two subscripts, so points of "
               "the nest could write one element; subscript each dimension by its own loop "
               "variable or a constant",
               "b(i, i)");
  expect_error(kernel_2d("0\n      b(i, 0*j + 1) = a(i, j)"),
               "Assignment to 'b(i, 0*j + 1)' has no subscript in loop variable 'j', so every "
               "point of the DO loop over 'j' writes the same element; subscript 'b' with 'j' too",
               "b(i, 0");
}

// A scalar read before it is assigned: DependenceTest.cpp.

TEST(FrontendLowering, SpecificNamesAreTheirGenericIntrinsics) {
  TempDir dir;
  auto kernels = lower_text(
      dir, kernel_2d("dsqrt(dabs(a(i,j))) + dmax1(a(i,j), 0.5d0, a(i-1,j)) + amod(x, 0.3) + "
                     "dtanh(a(i,j)) + atan(a(i,j), a(i,j-1)) + datan2(a(i,j), 2d0) + "
                     "alog10(x) + dsign(a(i,j), -1d0)",
                     "  real :: x\n  x = 1.5\n"));
  EXPECT_EQ(print_expr(stored_value(kernels.at(0))),
            "sqrt(abs(a(i, j))) + max(a(i, j), 0.5d0, a(i - 1, j)) + mod(x, 0.3) + "
            "tanh(a(i, j)) + atan2(a(i, j), a(i, j - 1)) + atan2(a(i, j), 2.0d0) + log10(x) + "
            "sign(a(i, j), -1.0d0)");
}

TEST(FrontendLowering, ConversionsSayTheirKindAndRealExponentsArePowers) {
  TempDir dir;
  auto kernels =
      lower_text(dir, kernel_2d("dble(i)*float(j) + real(i, dp) + real(j, kind=dp) + real(a(i,j)) "
                                "+ sngl(a(i,j)) + dble(a(i,j)) + int(a(i,j)) + nint(a(i,j), 4) + "
                                "floor(a(i,j)) + ceiling(a(i,j)) + idnint(a(i,j)) + int(i) + "
                                "dint(a(i,j)) + anint(a(i,j)) + a(i,j)**1.5d0 + 2**a(i,j)",
                                "  integer, parameter :: dp = kind(1d0)\n"));
  EXPECT_EQ(print_expr(stored_value(kernels.at(0))),
            "real(i, 8)*real(j, 4) + real(i, 8) + real(j, 8) + real(a(i, j), 4) + "
            "real(a(i, j), 4) + a(i, j) + int(a(i, j)) + nint(a(i, j)) + floor(a(i, j)) + "
            "ceiling(a(i, j)) + nint(a(i, j)) + i + aint(a(i, j)) + anint(a(i, j)) + "
            "a(i, j)**1.5d0 + 2**a(i, j)");
}

TEST(FrontendErrors, ConversionsToKindsNotSupported) {
  expect_error(kernel_2d("real(a(i, j), 16)"),
               "REAL(16) is not supported inside a '!$f2s stencil' region; only kinds 4 and 8 are",
               "16)");
  expect_error(kernel_2d("int(a(i, j), 8)"),
               "INTEGER(8) is not supported inside a '!$f2s stencil' region; only kind 4 is",
               "8)\n");
  expect_error(kernel_2d("nint(i)"), "Intrinsic 'nint' needs a REAL argument", "nint");
  expect_error(kernel_2d("sqrt(a(i, j), kind=8)"), "Intrinsic 'sqrt' takes no KIND argument",
               "sqrt");
  expect_error(kernel_2d("real(a(i, j), n)"), "The kind 'n' of 'real' must be an INTEGER constant",
               "n)\n    end do");
}

TEST(FrontendErrors, WholeArray) {
  expect_error(kernel_2d("a(i, j) + a"),
               "Whole array 'a' cannot be used inside a '!$f2s stencil' region", "a\n");
}

TEST(FrontendErrors, UnknownClause) {
  const std::string src = kernel_2d("1.0");
  std::string bad = src;
  bad.replace(bad.find("stencil"), 7, "stencil name(x), unroll(4)");
  expect_error(bad,
               "Unknown clause 'unroll' in a '!$f2s stencil' directive; expected NAME, "
               "TUNE_SIZE or TIMESTEPS",
               "unroll");
}

TEST(FrontendErrors, NotStencil) {
  std::string bad = kernel_2d("1.0");
  bad.replace(bad.find("stencil"), 7, "parallel");
  expect_error(bad, "'parallel' is not a '!$f2s' directive; expected STENCIL", "parallel");
}

TEST(FrontendErrors, TuneSizeCount) {
  std::string bad = kernel_2d("1.0");
  bad.replace(bad.find("stencil"), 7, "stencil tune_size(10, 20, 30)");
  expect_error(bad, "TUNE_SIZE needs one size per loop of the nest, 2, not 3", "tune_size");
}

TEST(FrontendErrors, TuneSizesCount) {
  std::string bad = kernel_2d("1.0");
  bad.replace(bad.find("stencil"), 7, "stencil tune_size(10, 20, 30; 40, 50, 60)");
  expect_error(bad, "TUNE_SIZE needs one size per loop of the nest, 2, not 3", "tune_size");
}

TEST(FrontendErrors, TuneSizeNotPositive) {
  std::string bad = kernel_2d("1.0");
  bad.replace(bad.find("stencil"), 7, "stencil tune_size(10, 0)");
  expect_error(bad, "The TUNE_SIZE clause of a '!$f2s stencil' directive needs positive integers",
               "0)");
}

TEST(FrontendErrors, DirectiveNotFollowedByDo) {
  const std::string src = R"(subroutine s(n, a)
  integer :: n, i, j
  real :: a(n, n)
  !$f2s stencil
  a(1, 1) = 0.0
  do j = 1, n
    do i = 1, n
      a(i, j) = 0.0
    end do
  end do
end subroutine
)";
  expect_error(src,
               "A '!$f2s stencil' directive must be followed by a DO construct or an array "
               "assignment; put it on the "
               "line before the nest's first DO statement",
               "!$f2s");
}

TEST(FrontendErrors, DirectiveAtEndOfProcedure) {
  const std::string src = R"(subroutine s(n, a)
  integer :: n
  real :: a(n, n)
  a(1, 1) = 0.0
  !$f2s stencil
end subroutine
)";
  expect_error(src,
               "A '!$f2s stencil' directive must be followed by a DO construct or an array "
               "assignment; put it on the "
               "line before the nest's first DO statement",
               "!$f2s");
}

TEST(FrontendErrors, DuplicateKernelName) {
  const std::string src = R"(subroutine s(n, a)
  integer :: n, i, j
  real :: a(n, n)
  !$f2s stencil name(k)
  do j = 1, n
    do i = 1, n
      a(i, j) = 0.0
    end do
  end do
  !$f2s stencil name(k)
  do j = 1, n
    do i = 1, n
      a(i, j) = 1.0
    end do
  end do
end subroutine
)";
  TempDir dir;
  Diagnostic d = error_of(dir, src);
  std::string first = dir.path() + "/input.f90:" + loc_of(src, "!$f2s");
  EXPECT_EQ(d.message, "Kernel name 'k' is already used by the '!$f2s stencil' region at " + first +
                           "; give one of them another name with NAME(...)");
  EXPECT_EQ(line_col(d.loc), loc_of(src, "name(k)", 2));
}

TEST(FrontendErrors, DirectiveInsideRegion) {
  const std::string src = R"(subroutine s(n, a)
  integer :: n, i, j
  real :: a(n, n)
  !$f2s stencil
  do j = 1, n
    !$f2s stencil
    do i = 1, n
      a(i, j) = 0.0
    end do
  end do
end subroutine
)";
  expect_error(src,
               "A '!$f2s' directive is not allowed inside a '!$f2s stencil' region; remove it, or "
               "add TIMESTEPS to the outer directive if its loop steps through time",
               "!$f2s", 2);
}

TEST(FrontendErrors, DoWhileLoop) {
  const std::string src = R"(subroutine s(n, a)
  integer :: n, i, j
  real :: a(n, n)
  !$f2s stencil
  do j = 1, n
    do while (i < n)
      a(i, j) = 0.0
    end do
  end do
end subroutine
)";
  expect_error(src, "A DO WHILE loop cannot be part of a '!$f2s stencil' region", "do while");
}

TEST(FrontendErrors, UnsupportedType) {
  expect_error(kernel_2d("a(i, j) + m", "  integer(8) :: m\n"),
               "The type of 'm' cannot be used inside a '!$f2s stencil' region; use INTEGER, "
               "REAL(4), REAL(8) or default LOGICAL",
               "m\n", 2);
}

TEST(FrontendErrors, AssignmentToLoopVariable) {
  expect_error(kernel_2d("0\n      i = 2"),
               "Loop variable 'i' cannot be assigned inside a '!$f2s stencil' region", "i = 2");
}

TEST(FrontendErrors, NoRegion) {
  TempDir dir;
  std::string path = dir.write("plain.f90", "subroutine s()\nend subroutine\n");
  try {
    lower_file(path);
    FAIL() << "expected an error";
  } catch (const UserError &e) {
    EXPECT_EQ(e.diagnostic().message, "No '!$f2s stencil' region in '" + path + "'");
    EXPECT_EQ(e.diagnostic().loc.file, path);
    EXPECT_FALSE(e.diagnostic().loc.known());
  }
}

TEST(FrontendErrors, FlangSyntaxError) {
  const std::string src = "subroutine s(n)\n  integer :: n\n  n = (1 +\nend subroutine\n";
  TempDir dir;
  Diagnostic d = error_of(dir, src);
  // Flang's own message, at the position Flang gives, and the form it read.
  EXPECT_EQ(d.message, "Unmatched '(' (the file was read as free form because of its extension "
                       "'.f90'; pass --fixed-form if it is fixed form)");
  EXPECT_EQ(line_col(d.loc), loc_of(src, "(1 +"));
}

TEST(FrontendErrors, UnreadableFile) {
  TempDir dir;
  std::string path = dir.path() + "/missing.f90";
  try {
    lower_file(path);
    FAIL() << "expected an error";
  } catch (const UserError &e) {
    EXPECT_EQ(e.diagnostic().loc.file, path);
    EXPECT_EQ(e.diagnostic().message.rfind("Cannot read '" + path + "'", 0), 0u)
        << e.diagnostic().message;
  }
}

} // namespace
} // namespace f2s::test
