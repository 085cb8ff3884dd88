// The CPU decomposition passes (chunks, thread blocks, first touch), each
// shown the IR it is given and checked against the IR it must produce.
#include "ast/Evaluate.h"
#include "ast/IRPrinter.h"
#include "transforms/Chunking.h"
#include "transforms/CoreBlocking.h"
#include "transforms/FirstTouch.h"
#include "transforms/Parallelize.h"
#include "transforms/ThreadBlocking.h"

#include "common/TestUtil.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <stdexcept>

namespace f2s {
namespace {

using test::kJacobi2D;

const char *kJacobiBody =
    "v(i, j) = 0.25d0*(u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1))\n";

std::vector<std::string> tuning_names(const Kernel &k) {
  std::vector<std::string> names;
  for (const Variable &v : k.tuning)
    names.push_back(v.name);
  return names;
}

/// The header line of every loop of the perfect nest, annotations included.
std::vector<std::string> nest_headers(const Kernel &k) {
  std::vector<std::string> lines;
  for (const For *f : perfect_nest(k.body)) {
    std::string s = print_stmt(
        For::make(f->var, f->lo, f->hi, f->step, f->exec, f->dist, Block::make({}), f->loc));
    lines.push_back(s.substr(0, s.find('\n')));
  }
  return lines;
}

TEST(Chunking, DealsTheCoreBlocksAsOneSequence) {
  test::ScratchDir dir;
  Kernel before = block_loops(test::lower_text(dir, kJacobi2D));
  Kernel after = chunk_blocks(before);
  EXPECT_EQ(print_stmt(after.body), std::string("groups [collapse 2, chunk chunk, group 1] "
                                                "for j_blk = 1, m, cy {\n"
                                                "  for i_blk = 1, n, cx {\n"
                                                "    for j = j_blk, min(j_blk + cy - 1, m) {\n"
                                                "      for i = i_blk, min(i_blk + cx - 1, n) {\n"
                                                "        ") +
                                        kJacobiBody +
                                        "      }\n"
                                        "    }\n"
                                        "  }\n"
                                        "}\n");
  EXPECT_EQ(tuning_names(after), (std::vector<std::string>{"cx", "cy", "chunk"}));
  // Only the outermost loop is rebuilt.
  EXPECT_EQ(as<For>(after.body)->body, as<For>(before.body)->body);
}

TEST(Chunking, DealsPlanesOfANestWithoutCoreBlocks) {
  test::ScratchDir dir;
  Kernel k = chunk_blocks(test::lower_text(dir, kJacobi2D));
  EXPECT_EQ(nest_headers(k),
            (std::vector<std::string>{"groups [collapse 1, chunk chunk, group 1] for j = 1, m {",
                                      "for i = 1, n {"}));
}

TEST(Chunking, CollapsesTheThreeBlockLoopsOfALaplacian) {
  Kernel k = chunk_blocks(block_loops(test::example_kernel("laplacian")));
  ASSERT_EQ(perfect_nest(k.body).size(), 6u);
  EXPECT_EQ(nest_headers(k)[0],
            "groups [collapse 3, chunk chunk, group 1] for k_blk = 1, nz, cz {");
  EXPECT_EQ(tuning_names(k), (std::vector<std::string>{"cx", "cy", "cz", "chunk"}));
}

TEST(Chunking, RefusesALoopAlreadyParallel) {
  EXPECT_THROW(chunk_blocks(parallelize_outer(block_loops(test::example_kernel("laplacian")))),
               std::invalid_argument);
}

TEST(ThreadBlocking, SplitsTheCoreBlockAmongTheMembersOfAGroup) {
  test::ScratchDir dir;
  Kernel before = chunk_blocks(block_loops(test::lower_text(dir, kJacobi2D)));
  Kernel after = block_threads(before);
  EXPECT_EQ(print_stmt(after.body),
            std::string("groups [collapse 2, chunk chunk, group group] for j_blk = 1, m, cy {\n"
                        "  for i_blk = 1, n, cx {\n"
                        "    members [collapse 2, chunk 1] for j_tb = j_blk, "
                        "min(j_blk + cy - 1, m), ty {\n"
                        "      for i_tb = i_blk, min(i_blk + cx - 1, n), tx {\n"
                        "        for j = j_tb, min(j_tb + ty - 1, min(j_blk + cy - 1, m)) {\n"
                        "          for i = i_tb, min(i_tb + tx - 1, min(i_blk + cx - 1, n)) {\n"
                        "            ") +
                kJacobiBody +
                "          }\n"
                "        }\n"
                "      }\n"
                "    }\n"
                "  }\n"
                "}\n");
  EXPECT_EQ(tuning_names(after),
            (std::vector<std::string>{"cx", "cy", "chunk", "group", "tx", "ty"}));
}

TEST(ThreadBlocking, NamesTheThirdAxisTz) {
  Kernel k = block_threads(chunk_blocks(block_loops(test::example_kernel("gradient"))));
  std::vector<std::string> h = nest_headers(k);
  ASSERT_EQ(h.size(), 9u);
  EXPECT_EQ(h[3], "members [collapse 3, chunk 1] for k_tb = k_blk, min(k_blk + cz - 1, nz), tz {");
  EXPECT_EQ(tuning_names(k),
            (std::vector<std::string>{"cx", "cy", "cz", "chunk", "group", "tx", "ty", "tz"}));
}

TEST(ThreadBlocking, NeedsChunkingFirst) {
  EXPECT_THROW(block_threads(block_loops(test::example_kernel("laplacian"))),
               std::invalid_argument);
}

// Multigrid: where every subscript of a dimension is 2*i + o, point i owns
// elements 2*i + o0 and 2*i + o0 + 1 (o0 the smallest o), and the first and
// last points the rest: each element of the fine grid is touched by exactly
// one point, near the point that computes it.
TEST(FirstTouch, ScaledSubscriptsTileTheGrid) {
  test::ScratchDir dir;
  Kernel k = first_touch_kernel(test::lower_text(dir, R"(subroutine s(n, nf, r, rc)
  integer :: n, nf, i
  real(8) :: r(0:nf+1), rc(0:n+1)
  !$f2s stencil
  do i = 1, n
    rc(i) = 0.25d0*r(2*i-1) + 0.5d0*r(2*i) + 0.25d0*r(2*i+1)
  end do
end subroutine
)"));
  const For *loop = as<For>(k.body);
  ASSERT_TRUE(loop);
  const For *touch = nullptr;
  for (const Stmt &s : as<Block>(loop->body)->stmts)
    if (const Store *st = as<Store>(as<For>(s)->body); st && st->grid == "r")
      touch = as<For>(s);
  ASSERT_TRUE(touch);
  EXPECT_EQ(print_expr(touch->lo), "0 + min(i - 1, 1)*(max(2*i - 1, 0) - 0)");
  for (int64_t n : {1, 2, 5}) {
    std::map<int64_t, int> touched;
    for (int64_t i = 1; i <= n; ++i) {
      std::map<std::string, int64_t> at = {{"n", n}, {"nf", 2 * n + 1}, {"i", i}};
      for (int64_t e = *eval_int(touch->lo, at); e <= *eval_int(touch->hi, at); ++e)
        ++touched[e];
    }
    EXPECT_EQ(touched.size(), static_cast<size_t>(2 * n + 3)) << n; // 0 .. nf + 1
    for (const auto &[element, times] : touched)
      EXPECT_EQ(times, 1) << "element " << element << " at n = " << n;
  }
}

TEST(FirstTouch, TouchesEachElementAtThePointThatOwnsIt) {
  test::ScratchDir dir;
  Kernel k = first_touch_kernel(test::lower_text(dir, kJacobi2D));
  EXPECT_EQ(k.name, "jac_first_touch");
  const std::string d2 = "0 + min(j - 1, 1)*(max(j, 0) - 0), m + 1 - min(m - j, 1)*(m + 1 - "
                         "min(j, m + 1))",
                    d1 = "0 + min(i - 1, 1)*(max(i, 0) - 0), n + 1 - min(n - i, 1)*(n + 1 - "
                         "min(i, n + 1))";
  EXPECT_EQ(print_stmt(k.body), "for j = 1, m {\n"
                                "  for i = 1, n {\n"
                                "    for u_d2 = " +
                                    d2 +
                                    " {\n"
                                    "      for u_d1 = " +
                                    d1 +
                                    " {\n"
                                    "        u(u_d1, u_d2) = 0.0d0\n"
                                    "      }\n"
                                    "    }\n"
                                    "    for v_d2 = " +
                                    d2 +
                                    " {\n"
                                    "      for v_d1 = " +
                                    d1 +
                                    " {\n"
                                    "        v(v_d1, v_d2) = 0.0d0\n"
                                    "      }\n"
                                    "    }\n"
                                    "  }\n"
                                    "}\n");
}

// A LOGICAL grid is touched with .FALSE.: a REAL zero of LOGICAL type failed
// FloatImm's assertion (seen with the assertions of the sanitized build, on
// tests/inputs/e2e/mask2d.f90) and was printed as a REAL literal without them.
TEST(FirstTouch, TouchesALogicalGridWithFalse) {
  test::ScratchDir dir;
  Kernel k = first_touch_kernel(test::lower_text(dir, R"(subroutine s(n, wet, h, hnew)
  integer :: n, i
  logical :: wet(0:n+1)
  real(8) :: h(0:n+1), hnew(0:n+1)
  !$f2s stencil
  do i = 1, n
    hnew(i) = merge(h(i-1) + h(i+1), h(i), wet(i))
  end do
end subroutine
)"));
  std::string body = print_stmt(k.body);
  EXPECT_NE(body.find("wet(wet_d1) = .false.\n"), std::string::npos) << body;
  EXPECT_NE(body.find("h(h_d1) = 0.0d0\n"), std::string::npos) << body;
}

/// Runs a kernel's loops serially with eval_int and counts, for every element
/// of every grid, the stores to it and the loop variables at the last one.
struct Touches {
  std::map<std::string, std::map<std::vector<int64_t>, int>> count;
  std::map<std::string, std::map<std::vector<int64_t>, std::map<std::string, int64_t>>> point;
};

void run_serially(const Stmt &s, std::map<std::string, int64_t> &env, Touches &t) {
  if (const Block *b = as<Block>(s)) {
    for (const Stmt &c : b->stmts)
      run_serially(c, env, t);
  } else if (const For *f = as<For>(s)) {
    int64_t lo = *eval_int(f->lo, env), hi = *eval_int(f->hi, env), step = *eval_int(f->step, env);
    ASSERT_GT(step, 0);
    for (int64_t v = lo; v <= hi; v += step) {
      env[f->var] = v;
      run_serially(f->body, env, t);
    }
    env.erase(f->var);
  } else if (const Store *st = as<Store>(s)) {
    std::vector<int64_t> e;
    for (const Index &ix : st->index)
      e.push_back(ix.var.empty() ? ix.offset : env.at(ix.var) * ix.coeff + ix.offset);
    ++t.count[st->grid][e];
    t.point[st->grid][e] = env;
  }
}

/// Every element of every grid's declared extent is touched exactly once.
void expect_each_element_once(const Kernel &k, std::map<std::string, int64_t> env,
                              const Touches &t) {
  for (const Variable &g : k.args) {
    if (!g.is_grid())
      continue;
    std::vector<int64_t> lo, hi;
    int64_t n = 1;
    for (const Dim &d : g.dims) {
      lo.push_back(*eval_int(d.lo, env));
      hi.push_back(*eval_int(d.hi, env));
      n *= hi.back() - lo.back() + 1;
    }
    const auto &c = t.count.count(g.name) ? t.count.at(g.name) : decltype(t.count)::mapped_type{};
    EXPECT_EQ(static_cast<int64_t>(c.size()), n) << g.name;
    for (const auto &[e, times] : c) {
      EXPECT_EQ(times, 1) << g.name;
      for (size_t d = 0; d < e.size(); ++d) {
        EXPECT_GE(e[d], lo[d]) << g.name;
        EXPECT_LE(e[d], hi[d]) << g.name;
      }
    }
  }
}

TEST(FirstTouch, EveryElementOnceHalosToTheNearestPointThroughEveryDecomposition) {
  test::ScratchDir dir;
  Kernel jac = test::lower_text(dir, kJacobi2D);
  Kernel ft = first_touch_kernel(jac);
  std::vector<std::function<Kernel(const Kernel &)>> recipes = {
      [](const Kernel &k) { return k; },
      [](const Kernel &k) { return parallelize_outer(block_loops(k)); },
      [](const Kernel &k) { return block_threads(chunk_blocks(block_loops(k))); }};
  for (auto [n, m] : {std::pair{1, 1}, {5, 3}, {4, 7}})
    for (const auto &recipe : recipes) {
      Kernel d = recipe(ft);
      std::map<std::string, int64_t> env = {{"n", n},  {"m", m},  {"cx", 2},    {"cy", 3},
                                            {"tx", 1}, {"ty", 2}, {"chunk", 1}, {"group", 2}};
      Touches t;
      run_serially(d.body, env, t);
      expect_each_element_once(d, env, t);
      // Interior elements by their own point; the halo by the nearest one.
      EXPECT_EQ((t.point["v"][std::vector<int64_t>{0, 0}].at("i")), 1);
      EXPECT_EQ((t.point["v"][std::vector<int64_t>{0, 0}].at("j")), 1);
      EXPECT_EQ((t.point["u"][std::vector<int64_t>{n + 1, m}].at("i")), n);
      EXPECT_EQ((t.point["u"][std::vector<int64_t>{n + 1, m}].at("j")), m);
      EXPECT_EQ((t.point["u"][std::vector<int64_t>{n, 1}].at("i")), n);
      EXPECT_EQ((t.point["u"][std::vector<int64_t>{1, m + 1}].at("j")), m);
    }
}

// The front end gives every grid the nest's rank; passes must not rely on it.
TEST(FirstTouch, AGridOfFewerDimensionsIsTouchedAtTheFirstPointOfTheOtherLoops) {
  auto var = [](const char *n) { return Var::make(n, Type::Int32); };
  Expr one = IntImm::make(1), n = var("n");
  Kernel k;
  k.name = "mix";
  k.args = {
      Variable{"n", Type::Int32, {}, {}}, Variable{"a", Type::Float64, {{one, n}, {one, n}}, {}},
      Variable{"c", Type::Float64, {{IntImm::make(0), Binary::make(BinaryOp::Add, n, one)}}, {}}};
  Stmt store = Store::make("a", {Index{"i", 1, 0}, Index{"j", 1, 0}},
                           GridRef::make("c", {Index{"j", 1, 1}}, Type::Float64));
  k.body = For::make("j", one, n, one, LoopExec::Serial,
                     For::make("i", one, n, one, LoopExec::Serial, store));
  Kernel ft = block_threads(chunk_blocks(block_loops(first_touch_kernel(k))));
  std::map<std::string, int64_t> env = {{"n", 3},  {"cx", 2},    {"cy", 2},   {"tx", 1},
                                        {"ty", 1}, {"chunk", 1}, {"group", 1}};
  Touches t;
  run_serially(ft.body, env, t);
  expect_each_element_once(ft, env, t);
  // c(0) and c(1) below the first j, c(n+1) above the last; each at i = 1.
  EXPECT_EQ((t.point["c"][std::vector<int64_t>{0}].at("j")), 1);
  EXPECT_EQ((t.point["c"][std::vector<int64_t>{2}].at("j")), 2);
  EXPECT_EQ((t.point["c"][std::vector<int64_t>{4}].at("j")), 3);
  EXPECT_EQ((t.point["c"][std::vector<int64_t>{4}].at("i")), 1);
}

TEST(FirstTouch, KeepsTheDecompositionOfTheStencil) {
  Kernel lap = test::example_kernel("laplacian");
  auto recipe = [](const Kernel &k) { return block_threads(chunk_blocks(block_loops(k))); };
  Kernel stencil = recipe(lap), touch = recipe(first_touch_kernel(lap));
  EXPECT_EQ(nest_headers(touch), nest_headers(stencil));
  EXPECT_EQ(tuning_names(touch), tuning_names(stencil));
  EXPECT_EQ(nest_headers(parallelize_outer(first_touch_kernel(lap))),
            nest_headers(parallelize_outer(lap)));
}

} // namespace
} // namespace f2s
