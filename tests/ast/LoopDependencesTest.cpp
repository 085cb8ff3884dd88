// ast/LoopDependences: each test shows a nest (Fortran lowered by the front
// end, or IR built by hand) beside the dependences isl finds, printed as isl
// prints them, and the loops that are free or carry them.
#include "ast/LoopDependences.h"
#include "ast/Dependence.h"
#include "tests/frontend/FrontendTestUtil.h"

#include <gtest/gtest.h>

#include <sstream>

namespace f2s {
namespace {

LoopDependences analyze(const std::string &text) {
  test::TempDir dir;
  std::vector<Kernel> ks = test::lower_text(dir, text);
  EXPECT_EQ(ks.size(), 1u);
  return analyze_dependences(ks.at(0));
}

/// "k j i" for the loops free of every dependence that constrains the points.
std::string free_loops(const LoopDependences &d) {
  std::string out;
  for (size_t l = 0; l < d.loops.size(); ++l)
    if (loop_is_free(d, static_cast<int>(l)))
      out += (out.empty() ? "" : " ") + d.loops[l].var;
  return out;
}

TEST(LoopDependences, JacobiHasNoDependence) {
  LoopDependences d = analyze(R"(subroutine jacobi(n, m, u, v)
  integer :: n, m, i, j
  real(8) :: u(0:n+1, 0:m+1), v(0:n+1, 0:m+1)
  !$f2s stencil
  do j = 1, m
    do i = 1, n
      v(i, j) = 0.25d0*(u(i-1, j) + u(i+1, j) + u(i, j-1) + u(i, j+1))
    end do
  end do
end subroutine
)");
  ASSERT_EQ(d.statements.size(), 1u);
  EXPECT_EQ(d.statements[0].domain, "[n, m] -> { S0[j, i] : 0 < j <= m and 0 < i <= n }");
  EXPECT_EQ(d.accesses[0].relation,
            "[n, m] -> { S0[j, i] -> u[-1 + i, j] : 0 < j <= m and 0 < i <= n }");
  EXPECT_EQ(print_dependences(d), "");
  EXPECT_EQ(free_loops(d), "j i");
}

TEST(LoopDependences, InPlaceGaussSeidelIsCarriedByEveryLoop) {
  LoopDependences d = analyze(R"(subroutine gs(n, u)
  integer :: n, i, j
  real(8) :: u(0:n+1, 0:n+1)
  !$f2s stencil
  do j = 1, n
    do i = 1, n
      u(i, j) = 0.25d0*(u(i-1, j) + u(i+1, j) + u(i, j-1) + u(i, j+1))
    end do
  end do
end subroutine
)");
  EXPECT_EQ(print_dependences(d),
            "flow S0 -> S0 on 'u' (i,j) -> (i-1,j) carried by i distance (0,1): [n] -> { S0[j, i] "
            "-> S0[j' = j, i' = 1 + i] : 0 < j <= n and 0 < i < n }\n"
            "flow S0 -> S0 on 'u' (i,j) -> (i,j-1) carried by j distance (1,0): [n] -> { S0[j, i] "
            "-> S0[j' = 1 + j, i' = i] : 0 < j < n and 0 < i <= n }\n"
            "anti S0 -> S0 on 'u' (i+1,j) -> (i,j) carried by i distance (0,1): [n] -> { S0[j, i] "
            "-> S0[j' = j, i' = 1 + i] : 0 < j <= n and 0 < i < n }\n"
            "anti S0 -> S0 on 'u' (i,j+1) -> (i,j) carried by j distance (1,0): [n] -> { S0[j, i] "
            "-> S0[j' = 1 + j, i' = i] : 0 < j < n and 0 < i <= n }\n");
  EXPECT_EQ(free_loops(d), "");
}

TEST(LoopDependences, AColumnSweepIsCarriedByItsVerticalLoopOnly) {
  LoopDependences d = analyze(R"(subroutine sweep(n, a, f)
  integer :: n, i, j, k
  real(8) :: a(n, n, 0:n), f(n, n, n)
  !$f2s stencil
  do k = 1, n
    do j = 1, n
      do i = 1, n
        a(i, j, k) = a(i, j, k-1) + f(i, j, k)
      end do
    end do
  end do
end subroutine
)");
  EXPECT_EQ(
      print_dependences(d),
      "flow S0 -> S0 on 'a' (i,j,k) -> (i,j,k-1) carried by k distance (1,0,0): [n] -> { S0[k, j, "
      "i] -> S0[k' = 1 + k, j' = j, i' = i] : 0 < k < n and 0 < j <= n and 0 < i <= n }\n");
  EXPECT_EQ(free_loops(d), "j i");
  ASSERT_EQ(d.dependences.size(), 1u);
  EXPECT_EQ(loops_carrying(d, d.dependences[0]), std::vector<std::string>{"k"});
  EXPECT_EQ(distance(d.dependences[0], *find_loop(d, "k")), 1);
  EXPECT_EQ(distance(d.dependences[0], *find_loop(d, "i")), 0);
}

TEST(LoopDependences, ABackwardStreamInPlaceLeavesIFree) {
  // The value at j+1 was written by the previous trip of the backward loop:
  // a flow dependence at distance -1 in j, none in i.
  LoopDependences d = analyze(R"(subroutine stream(n, m, c, u)
  integer :: n, m, i, j
  real(8) :: c, u(n, m+1)
  !$f2s stencil
  do j = m, 1, -1
    do i = 1, n
      u(i, j) = u(i, j) + c*u(i, j+1)
    end do
  end do
end subroutine
)");
  EXPECT_EQ(print_dependences(d),
            "flow S0 -> S0 on 'u' (i,j) -> (i,j+1) carried by j distance (-1,0): [n, m] -> { S0[j, "
            "i] -> S0[j' = -1 + j, i' = i] : 2 <= j <= m and 0 < i <= n }\n"
            "anti S0 -> S0 on 'u' (i,j) -> (i,j) loop-independent distance (0,0): [n, m] -> { "
            "S0[j, i] -> S0[j' = j, i' = i] : 0 < j <= m and 0 < i <= n }\n");
  EXPECT_EQ(free_loops(d), "i");
}

TEST(LoopDependences, RedBlackWithAComputedStartIsFree) {
  // `do i = 1 + mod(j + k + color, 2), n, 2` reaches the IR as a unit-step
  // loop under `mod(i - start, 2) == 0`: the neighbours in i, j and k are of
  // the other colour.
  LoopDependences d = analyze(R"(subroutine rb(n, color, f, u)
  integer :: n, color, i, j, k
  real(8) :: f(0:n+1, 0:n+1, 0:n+1), u(0:n+1, 0:n+1, 0:n+1)
  !$f2s stencil
  do k = 1, n
    do j = 1, n
      do i = 1 + mod(j + k + color, 2), n, 2
        u(i,j,k) = f(i,j,k) + u(i-1,j,k) + u(i+1,j,k) + u(i,j-1,k) + u(i,j,k+1)
      end do
    end do
  end do
end subroutine
)");
  EXPECT_EQ(d.statements.back().domain, "[color, n] -> { S1[k, j, i] : (1 + color + k + j + i) mod "
                                        "2 = 0 and 0 < k <= n and 0 < j <= n and 0 < i <= n }");
  EXPECT_EQ(print_dependences(d), "");
  EXPECT_EQ(free_loops(d), "k j i");
}

TEST(LoopDependences, RedBlackFromAParityUnderAnIfIsCarriedByTheVerticalOnly) {
  // `nxl1` set under an IF between the loops: the guard reads the MERGE of
  // the IF's values, which isl models exactly; the horizontal neighbours are
  // of the other colour, the vertical ones of the same colour in the same
  // column.
  LoopDependences d = analyze(R"(subroutine rb(nxl, nxr, ny, nz, colour, f, p)
  integer :: nxl, nxr, ny, nz, colour, i, j, k, nxl1
  real(8) :: f(nxl:nxr, ny, nz), p(nxl-1:nxr+1, 0:ny+1, 0:nz+1)
  !$f2s stencil
  do j = 1, ny
    nxl1 = nxl
    if (mod(nxl + j + colour, 2) /= 0) nxl1 = nxl + 1
    do i = nxl1, nxr, 2
      do k = 1, nz
        p(i,j,k) = f(i,j,k) + p(i-1,j,k) + p(i+1,j,k) + p(i,j-1,k) + p(i,j+1,k) + p(i,j,k-1)
      end do
    end do
  end do
end subroutine
)");
  // Only the private 'nxl1' (output dependences, a copy per point) besides.
  std::string on_p;
  std::istringstream lines(print_dependences(d));
  for (std::string line; std::getline(lines, line);)
    if (line.find(" on 'p' ") != std::string::npos)
      on_p += line + "\n";
  EXPECT_EQ(on_p, "flow S4 -> S4 on 'p' (i,j,k) -> (i,j,k-1) carried by k distance (0,0,1): "
                  "[colour, nxl, nz, nxr, ny] -> { S4[j, i, k] -> S4[j' = j, i' = i, k' = 1 + k] "
                  ": (nxl + i) mod 2 = colour + nxl + j - 2*floor((colour + nxl + j)/2) and 0 < "
                  "j <= ny and i <= nxr and 0 < k < nz and 2*floor((colour + nxl + j)/2) >= "
                  "colour + 2nxl + j - i }\n");
  EXPECT_EQ(free_loops(d), "j i");
}

TEST(LoopDependences, AReductionIsCarriedButConstrainsNoLoop) {
  LoopDependences d = analyze(R"(subroutine norm(n, u, s)
  integer :: n, i, j
  real(8) :: u(n, n), s
  !$f2s stencil
  do j = 1, n
    do i = 1, n
      s = s + u(i, j)**2
    end do
  end do
end subroutine
)");
  EXPECT_EQ(
      print_dependences(d),
      "flow S0 -> S0 on 's' carried by j i distance (*,*): [n] -> { S0[j, i] -> S0[j', i'] : j > 0 "
      "and 0 < i <= n and j < j' <= n and 0 < i' <= n; S0[j, i] -> S0[j' = j, i'] : 0 < j <= n and "
      "i > 0 and i < i' <= n }\n"
      "anti S0 -> S0 on 's' carried by j i distance (*,*): [n] -> { S0[j, i] -> S0[j', i'] : j > 0 "
      "and 0 < i <= n and j < j' <= n and 0 < i' <= n; S0[j, i] -> S0[j' = j, i'] : 0 < j <= n and "
      "i > 0 and i <= i' <= n }\n"
      "output S0 -> S0 on 's' carried by j i distance (*,*): [n] -> { S0[j, i] -> S0[j', i'] : j > "
      "0 and 0 < i <= n and j < j' <= n and 0 < i' <= n; S0[j, i] -> S0[j' = j, i'] : 0 < j <= n "
      "and i > 0 and i < i' <= n }\n");
  EXPECT_EQ(free_loops(d), "j i");
}

TEST(LoopDependences, APrivateTemporaryIsNotCarried) {
  LoopDependences d = analyze(R"(subroutine tmp(n, u, v)
  integer :: n, i
  real(8) :: u(n), v(n), t
  !$f2s stencil
  do i = 1, n
    if (u(i) > 0d0) then
      t = u(i)
    else
      t = -u(i)
    end if
    v(i) = t
  end do
end subroutine
)");
  EXPECT_EQ(print_dependences(d), "flow S0 (end of IF) -> S3 on 't' loop-independent distance (0): "
                                  "[n] -> { S0[i] -> S3[i' = i] : 0 < i <= n }\n"
                                  "anti S3 -> S1 on 't' carried by i distance (*): [n] -> { S3[i] "
                                  "-> S1[i'] : i > 0 and i < i' <= n }\n"
                                  "anti S3 -> S2 on 't' carried by i distance (*): [n] -> { S3[i] "
                                  "-> S2[i'] : i > 0 and i < i' <= n }\n"
                                  "output S1 -> S1 on 't' carried by i distance (*): [n] -> { "
                                  "S1[i] -> S1[i'] : i > 0 and i < i' <= n }\n"
                                  "output S2 -> S1 on 't' carried by i distance (*): [n] -> { "
                                  "S2[i] -> S1[i'] : i > 0 and i < i' <= n }\n"
                                  "output S1 -> S2 on 't' carried by i distance (*): [n] -> { "
                                  "S1[i] -> S2[i'] : i > 0 and i <= i' <= n }\n"
                                  "output S2 -> S2 on 't' carried by i distance (*): [n] -> { "
                                  "S2[i] -> S2[i'] : i > 0 and i < i' <= n }\n");
  EXPECT_TRUE(d.reads_without_source.empty());
  EXPECT_EQ(free_loops(d), "i");
}

// A window whose radius is an argument stays a loop inside the point
// (ast/InnerLoops): its variable is a dimension of the instances, and the
// subscript `i + jj` an exact affine access. The sum into the temporary is
// carried by jj alone; the nest's loops are free.
TEST(LoopDependences, AWindowWithARunTimeRadiusIsModelledExactly) {
  LoopDependences d = analyze(R"(subroutine win(n, r, w, u, v)
  integer :: n, r, i, jj
  real(8) :: w(-r:r), u(1-r:n+r), v(n), s
  !$f2s stencil
  do i = 1, n
    s = 0
    do jj = -r, r
      s = s + w(jj)*u(i + jj)
    end do
    v(i) = s
  end do
end subroutine
)");
  ASSERT_EQ(d.statements.size(), 3u);
  EXPECT_EQ(d.statements[1].domain, "[r, n] -> { S1[i, jj] : 0 < i <= n and -r <= jj <= r }");
  std::string relations;
  for (const AccessInfo &a : d.accesses)
    if (a.array == "u")
      relations += a.relation;
  EXPECT_EQ(relations, "[r, n] -> { S1[i, jj] -> u[i + jj] : 0 < i <= n and -r <= jj <= r }");
  EXPECT_EQ(free_loops(d), "i");
}

// A loop inside the point to the column's depth (`do k = 1, kmt(i, j)`):
// isl cannot model the bound, so the loop's domain keeps its lower bound
// alone (over-approximated, and said so), and the bound is read as an access
// of a statement of its own where the loop starts. The columns stay free.
TEST(LoopDependences, ALoopToTheColumnsDepthIsOverApproximated) {
  LoopDependences d = analyze(R"(subroutine col(nx, ny, nz, kmt, t, s)
  integer :: nx, ny, nz, i, j, k, kmt(nx, ny)
  real(8) :: t(nx, ny, nz), s(nx, ny, nz), acc
  !$f2s stencil
  do j = 1, ny
    do i = 1, nx
      acc = 0
      do k = kmt(i, j), 1, -1
        acc = acc + t(i, j, k)
        s(i, j, k) = acc
      end do
    end do
  end do
end subroutine
)");
  ASSERT_EQ(d.statements.size(), 4u);
  EXPECT_EQ(d.statements[1].domain, "[nx, ny] -> { S1[j, i] : 0 < j <= ny and 0 < i <= nx }");
  EXPECT_EQ(d.statements[2].domain,
            "[nx, ny] -> { S2[j, i, k] : 0 < j <= ny and 0 < i <= nx and k > 0 }");
  EXPECT_FALSE(d.statements[2].exact);
  std::string kmt;
  for (const AccessInfo &a : d.accesses)
    if (a.array == "kmt")
      kmt += a.relation;
  EXPECT_EQ(kmt, "[nx, ny] -> { S1[j, i] -> kmt[i, j] : 0 < j <= ny and 0 < i <= nx }");
  ASSERT_EQ(d.approximations.size(), 1u);
  EXPECT_EQ(d.approximations[0],
            "the upper bound 'kmt(i, j)' of the loop over 'k' is not affine: dropped");
  EXPECT_EQ(free_loops(d), "j i");
}

// A temporary bound read before the point sets it holds the previous
// point's value: the read of the bound is an access, and the value is
// carried.
TEST(LoopDependences, ATemporaryBoundSetAfterItsLoopIsCarried) {
  Diagnostic d = test::refusal(R"(subroutine col(nx, ny, nz, kmt, t, s)
  integer :: nx, ny, nz, i, j, k, nk, kmt(nx, ny)
  real(8) :: t(nx, ny, nz), s(nx, ny), acc
  !$f2s stencil
  do j = 1, ny
    do i = 1, nx
      acc = 0
      do k = 1, nk
        acc = acc + t(i, j, k)
      end do
      s(i, j) = acc
      nk = kmt(i, j)
    end do
  end do
end subroutine
)");
  EXPECT_NE(d.message.find("'nk'"), std::string::npos) << d.str();
}

TEST(LoopDependences, ATemporaryReadBeforeItsAssignmentIsCarried) {
  LoopDependences d = analyze(R"(subroutine tmp(n, u, v)
  integer :: n, i
  real(8) :: u(n), v(n), t
  !$f2s stencil
  do i = 1, n
    v(i) = t
    t = u(i)
  end do
end subroutine
)");
  EXPECT_EQ(print_dependences(d), "flow S1 -> S0 on 't' carried by i distance (1): [n] -> { S1[i] "
                                  "-> S0[i' = 1 + i] : 0 < i < n }\n"
                                  "anti S0 -> S1 on 't' carried by i distance (*): [n] -> { S0[i] "
                                  "-> S1[i'] : i > 0 and i <= i' <= n }\n"
                                  "output S1 -> S1 on 't' carried by i distance (*): [n] -> { "
                                  "S1[i] -> S1[i'] : i > 0 and i < i' <= n }\n");
  ASSERT_EQ(d.reads_without_source.size(), 1u);
  EXPECT_EQ(d.reads_without_source[0].second, "[n] -> { S0[i = 1] : n > 0 }");
  EXPECT_EQ(free_loops(d), "");
}

TEST(LoopDependences, ASubscriptThatIsNotAffineReachesTheWholeDimension) {
  // do i = 1, n: m = i/2 (a temporary); u(m) = u(i). isl cannot see m, so
  // the write may reach any element of u: the loop carries output and anti
  // dependences.
  auto variable = [](std::string name, Type t, std::vector<Dim> dims) {
    Variable v;
    v.name = std::move(name);
    v.type = t;
    v.dims = std::move(dims);
    return v;
  };
  Kernel k;
  k.name = "gather";
  k.args = {variable("n", Type::Int32, {}),
            variable("u", Type::Float64, {Dim{IntImm::make(1), Var::make("n", Type::Int32)}})};
  k.temps = {variable("m", Type::Int32, {})};
  Expr i = Var::make("i", Type::Int32);
  k.body = For::make(
      "i", IntImm::make(1), Var::make("n", Type::Int32), IntImm::make(1), LoopExec::Serial,
      Block::make({Assign::make("m", Binary::make(BinaryOp::Div, i, IntImm::make(2))),
                   Store::make("u", {Index{"m", 1, 0}},
                               GridRef::make("u", {Index{"i", 1, 0}}, Type::Float64))}));
  LoopDependences d = analyze_dependences(k);
  EXPECT_EQ(d.approximations, std::vector<std::string>{
                                  "the subscript 'm' of 'u' is not affine: the whole dimension"});
  EXPECT_FALSE(d.accesses.back().must);
  EXPECT_EQ(print_dependences(d), "flow S1 -> S1 on 'u' (m) -> (i) carried by i distance (*): [n] "
                                  "-> { S1[i] -> S1[i'] : i > 0 and i < i' <= n }\n"
                                  "anti S1 -> S1 on 'u' (i) -> (m) carried by i distance (*): [n] "
                                  "-> { S1[i] -> S1[i'] : i > 0 and i <= i' <= n }\n"
                                  "output S0 -> S0 on 'm' carried by i distance (*): [n] -> { "
                                  "S0[i] -> S0[i'] : i > 0 and i < i' <= n }\n"
                                  "output S1 -> S1 on 'u' (m) -> (m) carried by i distance (*): "
                                  "[n] -> { S1[i] -> S1[i'] : i > 0 and i < i' <= n }\n");
  EXPECT_EQ(free_loops(d), "");
}

} // namespace
} // namespace f2s

namespace f2s {
namespace {

TEST(LoopDependences, AnElseIfChainAssignsOnEveryPath) {
  // Conditions partly affine (`.not. mod(i, 3) == 0` beside a real
  // comparison): each IF whose branches both assign t ends with one write of
  // it, over all its instances, which the read after the chain takes.
  LoopDependences d = analyze(R"(subroutine chain(n, a, b)
  integer :: n, i
  real(8) :: a(n), b(n), s, t
  !$f2s stencil
  do i = 1, n
    s = a(i) - 0.5d0
    if (s < -0.25d0 .and. .not. (mod(i, 3) == 0)) then
      t = 1d0
    else if (s <= 0d0) then
      t = 2d0
    else
      t = s
    end if
    b(i) = t
  end do
end subroutine
)");
  std::string flows;
  for (const Dependence &dep : d.dependences)
    if (dep.kind == DepKind::Flow && dep.array == "t")
      flows += print_dependences({d.loops, d.statements, d.accesses, {dep}, {}, "", {}});
  EXPECT_EQ(flows, "flow S1 (end of IF) -> S6 on 't' loop-independent distance (0): [n] -> { S1[i] "
                   "-> S6[i' = i] : 0 < i <= n }\n");
  EXPECT_TRUE(d.reads_without_source.empty());
  EXPECT_EQ(free_loops(d), "i");
}

TEST(LoopDependences, AFixedElementAssumesItsLowerBound) {
  // w(nz) has a value for nz >= 1 only (w(1) before the loop, w(k) in it):
  // t(i, j, nz) in t(n, n, nz) says nz >= 1 wherever the statement runs.
  LoopDependences d = analyze(R"(subroutine col(n, nz, a, t)
  integer :: n, nz, i, j, k
  real(8) :: a(n, n, nz), t(n, n, nz), w(100)
  !$f2s stencil
  do j = 1, n
    do i = 1, n
      w(1) = a(i, j, 1)
      do k = 2, nz
        w(k) = w(k - 1) + a(i, j, k)
      end do
      t(i, j, nz) = w(nz)
      do k = nz - 1, 1, -1
        t(i, j, k) = w(k) - t(i, j, k + 1)
      end do
    end do
  end do
end subroutine
)");
  EXPECT_EQ(d.assumed, "[n, nz] -> {  : n <= 0 or (n > 0 and nz > 0) }");
  EXPECT_TRUE(d.reads_without_source.empty());
  // Both loops over k carry a recurrence (w, then t); the columns are free.
  EXPECT_EQ(free_loops(d), "j i");
}

// A Fortran array assignment within one array reads its whole right side
// first: a shift has a dependence between its elements, which refuses it;
// ranges that never meet have none.
TEST(LoopDependences, AShiftWithinOneArrayIsRefusedForItsDependence) {
  auto copy = [](const std::string &statement) {
    test::TempDir dir;
    std::vector<Kernel> ks = test::lower_text(dir, "subroutine s(n, r)\n"
                                                   "  integer :: n\n"
                                                   "  real(8) :: r(n)\n"
                                                   "  !$f2s stencil\n"
                                                   "  " +
                                                       statement + "\nend subroutine\n");
    EXPECT_EQ(ks.size(), 1u);
    return ks.at(0);
  };
  Kernel shift = copy("r(2:n) = r(1:n-1)");
  ASSERT_TRUE(shift.array_assignment);
  LoopDependences d = analyze_dependences(shift);
  EXPECT_EQ(print_dependences(d).rfind(
                "flow S0 -> S0 on 'r' (f2s_c1) -> (f2s_c1-1) carried by f2s_c1 distance (1)", 0),
            0u)
      << print_dependences(d);
  std::optional<Diagnostic> refused = array_assignment_dependence(shift, d);
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->loc.line, 5);
  EXPECT_EQ(refused->message,
            "The copy 'r(2:n) = r(1:n-1)' moves elements within one array, which f2stencil "
            "cannot run as Fortran does (the whole right side read first): its elements depend "
            "on each other (a flow dependence on 'r', distance 1 in dimension 1); write it as a "
            "DO nest over the elements it copies");
  // The other way round: an anti dependence, as racy in parallel.
  Kernel back = copy("r(1:n-1) = r(2:n)");
  refused = array_assignment_dependence(back, analyze_dependences(back));
  ASSERT_TRUE(refused);
  EXPECT_NE(refused->message.find("(an anti dependence"), std::string::npos) << refused->message;
  // Constant ranges apart: no element is both read and written.
  Kernel apart = copy("r(1:2) = r(5:6)");
  ASSERT_TRUE(apart.array_assignment);
  EXPECT_FALSE(array_assignment_dependence(apart, analyze_dependences(apart)));
  // A shift by an expression: no constant distance to model.
  Kernel face = copy("r(1:1) = r(n-1:n-1)");
  ASSERT_TRUE(face.array_assignment);
  EXPECT_FALSE(face.array_assignment->constant_shift);
  refused = array_assignment_dependence(face, analyze_dependences(face));
  ASSERT_TRUE(refused);
  EXPECT_NE(refused->message.find("(the whole right side read first): it moves them by a "
                                  "distance that is no constant"),
            std::string::npos)
      << refused->message;
}

// Offsets at run-time positions (Index::sym): the scalars are parameters
// of the access maps, and a dependence that exists for some of their values
// is one. `a(i) = a(i + d)` meets another iteration for every d but 0
// (flow where d < 0, anti where d > 0): refused, named by both subscripts as
// written and the loop that carries it.
TEST(LoopDependences, AnOffsetByAScalarIsAParameterOfTheAccesses) {
  test::TempDir dir;
  std::vector<Kernel> ks = test::lower_text(dir, R"(subroutine s(n, d, a)
  integer :: n, d, i
  real(8) :: a(n)
  !$f2s stencil
  do i = 1, n
    a(i) = 0.5d0*a(i + d)
  end do
end subroutine
)");
  ASSERT_EQ(ks.size(), 1u);
  LoopDependences d = analyze_dependences(ks[0]);
  ASSERT_EQ(d.accesses.size(), 2u);
  EXPECT_EQ(d.accesses[0].relation, "[n, d] -> { S0[i] -> a[d + i] : 0 < i <= n }");
  EXPECT_EQ(print_dependences(d),
            "flow S0 -> S0 on 'a' (i) -> (i+d) carried by i distance (*): [n, d] -> { S0[i] -> "
            "S0[i' = -d + i] : d < 0 and 0 < i <= n + d }\n"
            "anti S0 -> S0 on 'a' (i+d) -> (i) carried by i distance (*): [n, d] -> { S0[i] -> "
            "S0[i' = d + i] : d >= 0 and 0 < i <= n - d }\n");
  EXPECT_EQ(free_loops(d), "");
  std::optional<Diagnostic> refused = find_dependence(ks[0]);
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->message, "'a' is written at (i) and read at (i+d) in the same sweep, so the "
                              "result depends on the loop order; the only loop carries it");
  EXPECT_EQ(refused->loc.line, 6);
}

// Two offsets of one array that only differ in their reads, and a written
// array whose every access has its offset: no two iterations meet, for any
// value of the scalars. Free.
TEST(LoopDependences, OffsetsByScalarsWithoutACarriedDependenceAreFree) {
  test::TempDir dir;
  std::vector<Kernel> ks = test::lower_text(dir, R"(subroutine s(n, m, d1, d2, ioff, joff, a, b, u)
  integer :: n, m, d1, d2, ioff, joff, i, j
  real(8) :: a(-1:n+2, m), b(n, m), u(0:n+1, 0:m+1)
  !$f2s stencil
  do j = 1, m
    do i = 1, n
      b(i, j) = a(i + d1, j) - a(i + d2, j)
      u(i + ioff, j + joff) = u(i + ioff, j + joff) + b(i, j)
    end do
  end do
end subroutine
)");
  ASSERT_EQ(ks.size(), 1u);
  LoopDependences d = analyze_dependences(ks[0]);
  EXPECT_EQ(d.accesses[3].relation, "[n, m, ioff, joff] -> { S1[j, i] -> u[ioff + i, joff + j] "
                                    ": 0 < j <= m and 0 < i <= n }");
  EXPECT_EQ(print_dependences(d),
            "flow S0 -> S1 on 'b' (i,j) -> (i,j) loop-independent distance (0,0): [n, m, ioff, "
            "joff] -> { S0[j, i] -> S1[j' = j, i' = i] : 0 < j <= m and 0 < i <= n }\n"
            "anti S1 -> S1 on 'u' (i+ioff,j+joff) -> (i+ioff,j+joff) loop-independent distance "
            "(0,0): [n, m, ioff, joff] -> { S1[j, i] -> S1[j' = j, i' = i] : 0 < j <= m and 0 < "
            "i <= n }\n");
  EXPECT_EQ(free_loops(d), "j i");
  EXPECT_FALSE(find_dependence(ks[0]));
}

// Two offsets of one written array that meet for some values of the
// scalars only along j (`u(i, j + d1)` written, `u(i, j + d2)` read): the
// dependence is carried by j alone, which then runs in order.
TEST(LoopDependences, OffsetsThatMeetAlongOneLoopOrderIt) {
  test::TempDir dir;
  std::vector<Kernel> ks = test::lower_text(dir, R"(subroutine s(n, m, d1, d2, u, v)
  integer :: n, m, d1, d2, i, j
  real(8) :: u(n, -1:m+2), v(n, m)
  !$f2s stencil
  do j = 1, m
    do i = 1, n
      u(i, j + d1) = u(i, j + d2) + v(i, j)
    end do
  end do
end subroutine
)");
  ASSERT_EQ(ks.size(), 1u);
  LoopDependences d = analyze_dependences(ks[0]);
  EXPECT_EQ(print_dependences(d),
            "flow S0 -> S0 on 'u' (i,j+d1) -> (i,j+d2) carried by j distance (*,0): [n, m, d2, "
            "d1] -> { S0[j, i] -> S0[j' = -d2 + d1 + j, i' = i] : d1 > d2 and 0 < j <= m + d2 - "
            "d1 and 0 < i <= n }\n"
            "anti S0 -> S0 on 'u' (i,j+d2) -> (i,j+d1) carried by j distance (*,0): [n, m, d1, "
            "d2] -> { S0[j, i] -> S0[j' = -d1 + d2 + j, i' = i] : d2 >= d1 and 0 < j <= m + d1 "
            "- d2 and 0 < i <= n }\n");
  EXPECT_EQ(free_loops(d), "i");
  Ordering o = find_ordering(ks[0]);
  EXPECT_FALSE(o.refusal);
  ASSERT_TRUE(o.ordered);
  EXPECT_EQ(o.ordered->var, "j");
}

// The same shift as a sweep of a time loop: find_ordering, which the driver
// asks of every kernel, refuses it at the statement.
TEST(LoopDependences, AShiftInATimeLoopIsRefusedAtItsStatement) {
  test::TempDir dir;
  std::vector<Kernel> ks = test::lower_text(dir, R"(subroutine s(n, m, nt, u, v)
  integer :: n, m, nt, it, i, j
  real(8) :: u(n, m), v(n, m)
  !$f2s stencil timesteps
  do it = 1, nt
    do j = 1, m
      do i = 2, n - 1
        v(i, j) = u(i-1, j) + u(i+1, j)
      end do
    end do
    u = v
    u(2:n, :) = u(1:n-1, :)
  end do
end subroutine
)");
  std::vector<std::string> refused;
  for (const Kernel &k : ks)
    if (auto d = find_ordering(k).refusal)
      refused.push_back(std::to_string(d->loc.line) + ":" + std::to_string(d->loc.column) + ": " +
                        d->message);
  EXPECT_EQ(refused, std::vector<std::string>{
                         "12:5: The copy 'u(2:n, :) = u(1:n-1, :)' moves elements within one "
                         "array, which f2stencil cannot run as Fortran does (the whole right side "
                         "read first): its elements depend on each other (a flow dependence on "
                         "'u', distance 1 in dimension 1); write it as a DO nest over the "
                         "elements it copies"});
}

} // namespace
} // namespace f2s

namespace f2s {
namespace {

/// The nest of a row with a statement before its inner loop and one after:
/// `do j = 2, m; a(1, j) = a(2, j); do i = 2, n - 1; b(i, j) = a(i-1, j) +
/// a(i, j-1); end do; b(n, j) = <last>; end do`.
const char *const kRow = R"(subroutine row(n, m, a, b)
  integer :: n, m, i, j
  real(8) :: a(n, m), b(n, m)
  !$f2s stencil
  do j = 2, m
    a(1, j) = a(2, j)
    do i = 2, n - 1
      b(i, j) = a(i-1, j) + a(i, j-1)
    end do
    b(n, j) = LAST
  end do
end subroutine
)";

std::string row_with(const std::string &last) {
  std::string s = kRow;
  return s.replace(s.find("LAST"), 4, last);
}

// Statements of an outer level (issue 38): the front end's nest runs them
// at the first and last point of the inner loop (canonicalize/SinkScalars),
// so isl sees the outer loop's iterations alone in their domains (the inner
// variable pinned), and the dependences between them and the inner loop's
// statement exactly. Reading what the same row wrote is within one point
// (b(n-1, j) at the last point) or carried by nothing; reading the first
// point's element from the last (b(2, j)) is carried by i.
TEST(LoopDependences, OuterStatementsDependOnTheInnerLoopOfTheirRowOnly) {
  LoopDependences d = analyze(row_with("b(n-1, j)"));
  // S0, S2 and S4 are the guards' conditions.
  ASSERT_EQ(d.statements.size(), 6u);
  EXPECT_EQ(d.statements[1].domain, "[n, m] -> { S1[j, i = 2] : 2 <= j <= m }");
  EXPECT_EQ(d.statements[3].domain, "[n, m] -> { S3[j, i] : 2 <= j <= m and 2 <= i < n }");
  // After a loop that may run no trip: at its last trip, or at the one it
  // runs then.
  EXPECT_EQ(d.statements[5].domain, "[n, m] -> { S5[j, i = 2] : n <= 2 and 2 <= j <= m; "
                                    "S5[j, i = -1 + n] : n >= 3 and 2 <= j <= m }");
  EXPECT_EQ(print_dependences(d),
            "flow S1 -> S3 on 'a' (1,j) -> (i-1,j) loop-independent distance (0,0): [n, m] -> { "
            "S1[j, i = 2] -> S3[j' = j, i' = 2] : n >= 3 and 2 <= j <= m }\n"
            "flow S3 -> S5 on 'b' (i,j) -> (n-1,j) loop-independent distance (0,0): [n, m] -> { "
            "S3[j, i = -1 + n] -> S5[j' = j, i' = -1 + n] : n >= 3 and 2 <= j <= m }\n");
  EXPECT_EQ(free_loops(d), "j i");
  LoopDependences far = analyze(row_with("b(2, j)"));
  EXPECT_EQ(print_dependences(far),
            "flow S1 -> S3 on 'a' (1,j) -> (i-1,j) loop-independent distance (0,0): [n, m] -> { "
            "S1[j, i = 2] -> S3[j' = j, i' = 2] : n >= 3 and 2 <= j <= m }\n"
            "flow S3 -> S5 on 'b' (i,j) -> (2,j) carried by i distance (0,*): [n, m] -> { S3[j, "
            "i = 2] -> S5[j' = j, i' = -1 + n] : n >= 3 and 2 <= j <= m }\n"
            "anti S5 -> S5 on 'b' (2,j) -> (n,j) loop-independent distance (0,0): [n, m] -> { "
            "S5[j, i = 2] -> S5[j' = j, i' = 2] : n = 2 and 2 <= j <= m }\n");
  EXPECT_EQ(free_loops(far), "j");
}

} // namespace
} // namespace f2s

namespace f2s {
namespace {

// A component loop around the grid's loops runs inside each point
// (Kernel::source_order): the dependences isl finds in the source's order
// must run the same way round in the kernel's. A recurrence along the
// component keeps its order inside the point; reading the previous
// component at a neighbour another point writes later does not.
std::string component_nest(const std::string &read) {
  return R"(subroutine comp(n, nvar, q)
  integer :: n, nvar, i, j, k, m
  real(8) :: q(0:n+1, 0:n+1, n, nvar)
  !$f2s stencil
  do m = 2, nvar
    do k = 1, n
      do j = 1, n
        do i = 1, n
          q(i, j, k, m) = )" +
         read + R"(
        end do
      end do
    end do
  end do
end subroutine
)";
}

TEST(LoopDependences, AMovedLoopKeepsARecurrenceAlongIt) {
  LoopDependences d = analyze(R"(subroutine comp(n, nvar, r, q)
  integer :: n, nvar, i, j, k, m
  real(8) :: r(0:n+1, 0:n+1, 0:n+1, nvar), q(0:n+1, 0:n+1, n, nvar)
  !$f2s stencil
  do m = 2, nvar
    do k = 1, n
      do j = 1, n
        do i = 1, n
          q(i, j, k, m) = q(i, j, k, m-1) + r(i+1, j, k+1, m)
        end do
      end do
    end do
  end do
end subroutine
)");
  EXPECT_EQ(d.reversed.size(), 0u);
  EXPECT_EQ(print_dependences(d),
            "flow S0 -> S0 on 'q' (i,j,k,m) -> (i,j,k,m-1) carried by m distance (0,0,0,1): "
            "[nvar, n] -> { S0[k, j, i, m] -> S0[k' = k, j' = j, i' = i, m' = 1 + m] : 0 < k <= n "
            "and 0 < j <= n and 0 < i <= n and 2 <= m < nvar }\n");
  EXPECT_EQ(free_loops(d), "k j i");
}

TEST(LoopDependences, AMovedLoopThatReversesAFlowIsFound) {
  LoopDependences d = analyze(component_nest("q(i+1, j, k, m-1) + q(i, j+1, k, m)"));
  ASSERT_EQ(d.reversed.size(), 1u) << print_dependences(d);
  // In the kernel's order (k, j, i, m) the read of the neighbour's previous
  // component comes before its write: an anti dependence carried by i, the
  // only loop of the nest that carries one. In the source's (m, k, j, i) it
  // is a flow carried by m, reversed.
  EXPECT_EQ(print_dependences(d),
            "anti S0 -> S0 on 'q' (i+1,j,k,m-1) -> (i,j,k,m) carried by i m distance (0,0,1,-1): "
            "[nvar, n] -> { S0[k, j, i, m] -> S0[k' = k, j' = j, i' = 1 + i, m' = -1 + m] : 0 < k "
            "<= n and 0 < j <= n and 0 < i < n and 3 <= m <= nvar }\n"
            "anti S0 -> S0 on 'q' (i,j+1,k,m) -> (i,j,k,m) carried by j distance (0,1,0,0): "
            "[nvar, n] -> { S0[k, j, i, m] -> S0[k' = k, j' = 1 + j, i' = i, m' = m] : 0 < k <= "
            "n and 0 < j < n and 0 < i <= n and 2 <= m <= nvar }\n"
            "flow S0 -> S0 on 'q' (i,j,k,m) -> (i+1,j,k,m-1) carried by m i distance (1,0,0,-1): "
            "reversed by the kernel's order: [nvar, n] -> { S0[k, j, i, m] -> S0[k' = k, j' = j, "
            "i' = -1 + i, m' = 1 + m] : 0 < k <= n and 0 < j <= n and 2 <= i <= n and 2 <= m < "
            "nvar }\n");
}

} // namespace
} // namespace f2s
