// Refusals of shapes real codes write, each with its reason and its fix in
// one sentence, at its position, and every such problem of a region at once
// (issue 11, "refusals that help").
#include "frontend/FrontendTestUtil.h"

#include "ast/IRPrinter.h"

#include <map>

namespace f2s {
namespace {

using test::line_col;
using test::loc_of;
using test::TempDir;

/// Every problem of lowering `path`, as "line:col: message"; fails the test
/// when lowering succeeds.
std::vector<std::string> problems_in(const std::string &path) {
  try {
    lower_file(path);
  } catch (const UserError &e) {
    std::vector<std::string> out;
    for (const Diagnostic &d : e.diagnostics())
      out.push_back(line_col(d.loc) + ": " + d.message);
    return out;
  }
  ADD_FAILURE() << "lowering succeeded, but errors were expected";
  return {};
}

std::vector<std::string> problems_of(const std::string &text,
                                     const std::string &name = "input.f90") {
  TempDir dir;
  return problems_in(dir.write(name, text));
}

std::string survey(const std::string &name) {
  return std::string(F2S_SOURCE_DIR) + "/tests/inputs/survey/" + name;
}

// Loops side by side that fill and read a buffer in one direction are line
// buffers, whose message stays the line buffers' own.
TEST(RefusalFixes, LineBuffersKeepTheirOwnMessage) {
  std::string src = R"(subroutine rows(n, u, v)
  integer :: n, i, j
  real(8) :: u(0:n+1, n), v(n, n), row(0:200)
  !$f2s stencil
  do j = 1, n
    do i = 0, n + 1
      row(i) = u(i, j)
    end do
    v(1, j) = 0d0
    do i = 1, n
      v(i, j) = row(i - 1) + row(i + 1)
    end do
  end do
end subroutine
)";
  EXPECT_EQ(problems_of(src),
            std::vector<std::string>{
                loc_of(src, "v(1, j)") +
                ": Inner DO loops side by side in a '!$f2s stencil' region are line buffers "
                "filled, then read, which may have only assignments to scalars before them; "
                "move this statement into one of the loops, or annotate each loop with a "
                "'!$f2s stencil' of its own"});
}

// Assumed-size dummies, as the survey's F77 nest declares them: each last
// upper bound is how far the region reaches (J to NY, one beyond for U's
// J+1), and the Fortran interface declares them so.
TEST(AssumedSize, TheLastUpperBoundIsTheRegionsReach) {
  std::vector<Kernel> ks = lower_file(survey("s10_asize.f"));
  ASSERT_EQ(ks.size(), 1u);
  std::map<std::string, std::string> dims;
  for (const Variable &v : ks[0].args)
    if (v.is_grid()) {
      EXPECT_EQ(v.decl, ArrayDecl::AssumedSize) << v.name;
      dims[v.name] = print_expr(v.dims[0].lo) + ":" + print_expr(v.dims[0].hi) + ", " +
                     print_expr(v.dims[1].lo) + ":" + print_expr(v.dims[1].hi);
    }
  EXPECT_EQ(dims,
            (std::map<std::string, std::string>{
                {"u", "0:nx + 1, 1:ny + 1"}, {"unew", "0:nx + 1, 1:ny"}, {"rhs", "1:nx, 1:ny"}}));
}

// The largest subscript over every access: constants, strided counters,
// negative factors and a plane at a run-time position, with MAX where the
// reaches have different bases.
TEST(AssumedSize, TheReachTakesEveryAccessIntoAccount) {
  std::vector<std::string> problems;
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, R"(      SUBROUTINE S(N, M, A, B)
      INTEGER N, M, I, J
      REAL A(N, *), B(N, 0:*)
C$F2S STENCIL
      DO 10 J = 2, M - 1
      DO 10 I = 1, N
         A(I, J) = B(I, 2*J + 1) + B(I, 40 - J) + B(I, 7) + A(I, 1)
   10 CONTINUE
      END
)",
                                      "s.f");
  ASSERT_EQ(ks.size(), 1u);
  const Variable *a = ks[0].find_arg("a"), *b = ks[0].find_arg("b");
  ASSERT_TRUE(a && b);
  // Written to M - 1, read at 1: the bound holds both, whatever m is.
  EXPECT_EQ(print_expr(a->dims[1].hi), "max(m - 1, 1)");
  EXPECT_EQ(print_expr(b->dims[1].lo), "0");
  EXPECT_EQ(print_expr(b->dims[1].hi), "max(2*(m - 1) + 1, 38)");
}

// Where one bound cannot hold the region's reach, the array is refused at
// its first use, with the fix.
TEST(AssumedSize, RefusedWhereTheReachIsNoBound) {
  // A time loop's sweeps share the array.
  std::string src = R"(      SUBROUTINE S(N, NT, A, B)
      INTEGER N, NT, I, IT
      REAL A(*), B(*)
C$F2S STENCIL TIMESTEPS
      DO 20 IT = 1, NT
      DO 10 I = 2, N - 1
         B(I) = A(I-1) + A(I+1)
   10 CONTINUE
      DO 15 I = 2, N - 1
         A(I) = B(I)
   15 CONTINUE
   20 CONTINUE
      END
)";
  // Each sweep reports the arrays it uses, at their first use in it.
  std::string why =
      ": Assumed-size array '%' cannot be used in a '!$f2s stencil' region with a time "
      "loop, whose sweeps share the array; declare its last upper bound";
  auto refusal = [&](const std::string &at, const std::string &array, int nth) {
    std::string message = why;
    message.replace(message.find('%'), 1, array);
    return loc_of(src, at, nth) + message;
  };
  EXPECT_EQ(problems_of(src, "s.f"),
            (std::vector<std::string>{refusal("B(I)", "b", 1), refusal("A(I-1)", "a", 1),
                                      refusal("A(I)", "a", 1), refusal("B(I)", "b", 2)}));
}
// An INTEGER temporary a line buffer's loop assigns holds, in the loop that
// reads the buffer, what the filling loop's last trip left: said as such,
// not as a reading loop that reads no buffer.
TEST(RefusalFixes, ATemporaryLeftByTheFillingLoopSaysSo) {
  std::string src = R"(subroutine s(n, c, f)
  integer :: n, i, j, ic
  real(8) :: c(0:n+1, n), f(2*n, n), row(0:200)
  !$f2s stencil
  do j = 1, n
    do i = 0, n + 1
      ic = 2*i
      row(i) = c(i, j)
    end do
    do i = 1, n
      f(ic, j) = row(i - 1) + row(i + 1)
    end do
  end do
end subroutine
)";
  EXPECT_EQ(problems_of(src),
            std::vector<std::string>{
                loc_of(src, "ic, j)") +
                ": Subscript 'ic' of 'f' is not an integer multiple of a loop variable plus a "
                "constant, as 'ic' holds what the last trip of the DO loop at line 6 left; assign "
                "it again before this statement"});
}

// A loop of the nest over the variable of a loop around it.
TEST(RefusalFixes, ALoopVariableUsedTwiceNamesTheFix) {
  std::string src = R"(subroutine s(n, a, b)
  integer :: n, i, j
  real(8) :: a(n, n), b(n, n)
  !$f2s stencil
  do j = 1, n
    do j = 1, n
      b(j, j) = a(j, j)
    end do
  end do
end subroutine
)";
  EXPECT_EQ(problems_of(src),
            std::vector<std::string>{loc_of(src, "j = 1", 2) +
                                     ": Loop variable 'j' is used by two loops of the '!$f2s "
                                     "stencil' region; give the inner DO loop another variable"});
}

// A backward loop reading line buffers: the buffers are filled before it
// runs, so it may as well run forward.
TEST(RefusalFixes, ABackwardLoopBesideLineBuffersSaysToRunItForward) {
  std::string src = R"(subroutine rows(n, u, v)
  integer :: n, i, j
  real(8) :: u(0:n+1, n), v(n, n), row(0:200)
  !$f2s stencil
  do j = 1, n
    do i = 0, n + 1
      row(i) = u(i, j)
    end do
    do i = n, 1, -1
      v(i, j) = row(i - 1) + row(i + 1)
    end do
  end do
end subroutine
)";
  EXPECT_EQ(problems_of(src),
            std::vector<std::string>{
                loc_of(src, "-1\n") +
                ": The DO loops over 'i' side by side (line buffers filled, then read) must have a "
                "step of 1; swap the bounds of this one and make its step 1 if its points may run "
                "in any order"});
}

// A grid stored 1D with its index linearised by hand: the refusal says how
// to declare it so that the nest is accepted.
TEST(RefusalFixes, AnIndexLinearisedByHandSaysToDeclareTheDimensions) {
  std::string src = R"(subroutine jac(nx, ny, a, b)
  implicit none
  integer, intent(in) :: nx, ny
  real(8), intent(in) :: a(nx*ny)
  real(8), intent(inout) :: b(nx*ny)
  integer :: i, j, ij
  !$f2s stencil
  do j = 2, ny - 1
    do i = 2, nx - 1
      ij = i + (j - 1)*nx
      b(ij) = 0.25d0*(a(ij-1) + a(ij+1) + a(ij-nx) + a(ij+nx))
    end do
  end do
end subroutine
)";
  std::vector<std::string> problems = problems_of(src);
  ASSERT_FALSE(problems.empty());
  EXPECT_EQ(problems.front(),
            loc_of(src, "ij) = 0.25d0") +
                ": Subscript 'ij' of 'b' is not an integer multiple of a loop variable plus a "
                "constant, as 'ij' is assigned 'i +(j - 1)*nx' at line 10, which is not one "
                "either; if it linearises the index by hand, declare 'b' with one dimension per "
                "loop and subscript it by the loop variables (a caller may still pass a 1D "
                "array)");
}

// Derived-type components: the library takes arrays and scalars, so a
// component in a loop bound or a subscripted component is refused with the
// rewrite, not as an array section or an assignment the region cannot hold.
TEST(RefusalFixes, DerivedTypeComponentsSayWhatToPass) {
  std::string head = R"(module grids
  type :: field
    integer :: nx, ny
    real(8), allocatable :: u(:,:), un(:,:)
  end type field
end module grids
subroutine jacobi(g, c, nx, ny)
  use grids
  type(field) :: g
  integer :: nx, ny, i, j
  real(8) :: c
  !$f2s stencil
)";
  std::string bound = head + R"(  do j = 2, g%ny - 1
    do i = 2, nx - 1
      g%un(i,j) = c*g%u(i+1,j)
    end do
  end do
end subroutine
)";
  EXPECT_EQ(problems_of(bound),
            std::vector<std::string>{
                loc_of(bound, "g%ny") +
                ": Component 'g%ny' of a derived type cannot be used in a '!$f2s stencil' "
                "region, as the library takes scalars, not derived types; assign 'g%ny' to a "
                "scalar variable before the region and use that"});
  std::string element = head + R"(  do j = 2, ny - 1
    do i = 2, nx - 1
      g%un(i,j) = c*g%u(i+1,j)
    end do
  end do
end subroutine
)";
  std::vector<std::string> problems = problems_of(element);
  ASSERT_FALSE(problems.empty());
  EXPECT_EQ(problems.front(),
            loc_of(element, "g%un(i,j)") +
                ": Component 'g%un' of a derived type cannot be used in a '!$f2s stencil' region, "
                "as the library takes arrays, not derived types; annotate the nest in a "
                "procedure that takes 'g%un' as an array argument (CALL it with 'g%un')");
  // Through ASSOCIATE, the names are the construct's, not variables of the
  // procedure (not "not declared").
  std::string associated = head.substr(0, head.find("  !$f2s")) +
                           R"(  associate (u => g%u, un => g%un, my => g%ny)
  !$f2s stencil
  do j = 2, my - 1
    do i = 2, nx - 1
      un(i,j) = c*u(i+1,j)
    end do
  end do
  end associate
end subroutine
)";
  problems = problems_of(associated);
  ASSERT_FALSE(problems.empty());
  EXPECT_EQ(problems.front(),
            loc_of(associated, "my - 1") +
                ": 'my' is an associate name of the ASSOCIATE construct at line 12, which a "
                "'!$f2s stencil' region cannot take as an argument; annotate the nest in a "
                "procedure that takes 'g%ny' as an argument (CALL it with 'g%ny')");
}

} // namespace
} // namespace f2s
