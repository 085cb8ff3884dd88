// `!$f2s stencil timesteps`: a DO loop over time lowered to a time loop whose
// sweeps are kernels of their own, and the refusals of what it cannot hold.
#include "ast/TimeLoop.h"
#include "ast/Analysis.h"
#include "ast/IRPrinter.h"
#include "frontend/Frontend.h"
#include "tests/common/TestUtil.h"

#include <gtest/gtest.h>

#include <set>

namespace f2s {
namespace {

LoweredFiles lower(const test::ScratchDir &dir, const std::string &text,
                   const std::string &name = "steps.f90") {
  return lower_files_collecting({dir.write(name, text)});
}

/// "line:column: message" of each problem.
std::vector<std::string> problems(const LoweredFiles &l) {
  std::vector<std::string> out;
  for (const Diagnostic &d : l.problems)
    out.push_back(std::to_string(d.loc.line) + ":" + std::to_string(d.loc.column) + ": " +
                  d.message);
  return out;
}

/// A heat loop around `body` (the statements of one step).
std::string heat(const std::string &body, const std::string &directive = "timesteps") {
  return "subroutine heat(nx, ny, nt, alpha, u, unew, res)\n"
         "  implicit none\n"
         "  integer, intent(in) :: nx, ny, nt\n"
         "  real(8), intent(in) :: alpha\n"
         "  real(8), intent(inout) :: u(0:nx+1, 0:ny+1), unew(0:nx+1, 0:ny+1)\n"
         "  real(8), intent(out) :: res\n"
         "  real(8), pointer :: p(:,:), q(:,:)\n"
         "  integer :: i, j, it\n"
         "  !$f2s stencil " +
         directive +
         "\n"
         "  do it = 1, nt\n" +
         body + "  end do\nend subroutine\n";
}

const std::string kSweep = "    do j = 1, ny\n"
                           "      do i = 1, nx\n"
                           "        unew(i,j) = u(i,j) + alpha*(u(i-1,j) + u(i+1,j) - 2*u(i,j))\n"
                           "      end do\n"
                           "    end do\n";

TEST(TimeLoops, SweepsCopiesScalarsAndExitBecomeOneLoop) {
  test::ScratchDir dir;
  LoweredFiles l = lower(dir, heat("    res = 0\n" + kSweep +
                                       "    !$f2s stencil name(back)\n"
                                       "    u(1:nx, 1:ny) = unew(1:nx, 1:ny)\n"
                                       "    if (res > 1d3) exit\n",
                                   "timesteps name(heat_steps) tune_size(64, 32)"));
  ASSERT_TRUE(l.problems.empty()) << problems(l).front();
  ASSERT_EQ(l.time_loops.size(), 1u);
  EXPECT_EQ(print_time_loop(l.time_loops[0]), "time_loop heat_steps(nx, ny, nt, alpha, u, unew, "
                                              "res, it)\n"
                                              "  writes res\n"
                                              "  writes it\n"
                                              "  for it = 1 .. nt step 1\n"
                                              "    res = 0\n"
                                              "    sweep heat_steps_1\n"
                                              "    sweep back\n"
                                              "    exit if res > 1000.0d0\n");
  // Each sweep is a kernel of its own, tuned at the loop's size, which the
  // --rewrite of the loop leaves alone.
  ASSERT_EQ(l.kernels.size(), 2u);
  EXPECT_EQ(l.kernels[0].name, "heat_steps_1");
  EXPECT_EQ(l.kernels[0].time_loop, "heat_steps");
  EXPECT_EQ(l.kernels[0].tune_size, (std::vector<int64_t>{64, 32}));
  EXPECT_EQ(print_kernel(l.kernels[1]),
            "kernel back(nx: i32, ny: i32, u: f64(0:nx + 1, 0:ny + 1), unew: f64(0:nx + 1, 0:ny + "
            "1))\n"
            "  tune_size(64, 32)\n"
            "  for f2s_c2 = 1, ny {\n"
            "    for f2s_c1 = 1, nx {\n"
            "      u(f2s_c1, f2s_c2) = unew(f2s_c1, f2s_c2)\n"
            "    }\n"
            "  }\n");
  EXPECT_EQ(l.time_loops[0].signature.source.do_line, 10);
}

// A plane at a run-time position (ast/Planes) in a sweep: the time loop's
// printers and time tiling read subscripts as loop variables plus
// constants, so a sweep takes such a subscript only where it moves into the
// bounds of an array the sweep reads; in an array it writes it stays in the
// subscript, and the sweep is refused with the rewrite that runs it.
TEST(TimeLoops, APlaneAtARunTimePositionInASweepIsRefused) {
  test::ScratchDir dir;
  LoweredFiles l = lower(dir, heat(kSweep + "    do j = 1, ny\n"
                                            "      u(0,j) = u(nx,j)\n"
                                            "    end do\n"));
  EXPECT_EQ(problems(l),
            (std::vector<std::string>{
                "17:16: 'u' is accessed at 'nx', a plane at a run-time position, which a sweep "
                "of a '!$f2s stencil timesteps' loop cannot hold; annotate each nest of the loop "
                "with a '!$f2s stencil' of its own, without TIMESTEPS"}));
}

// A statement between the loops of a sweep runs at one point of the inner
// loop (canonicalize/SinkScalars), which time tiles do not keep: refused at
// the statement, with the fix.
TEST(TimeLoops, AStatementBetweenTheLoopsOfASweepIsRefused) {
  test::ScratchDir dir;
  LoweredFiles l = lower(dir, heat("    do j = 1, ny\n"
                                   "      unew(0,j) = u(1,j)\n"
                                   "      do i = 1, nx\n"
                                   "        unew(i,j) = u(i,j) + alpha*u(i-1,j)\n"
                                   "      end do\n"
                                   "    end do\n"));
  EXPECT_EQ(problems(l), (std::vector<std::string>{
                             "12:7: This statement between the DO loops runs once per iteration "
                             "of the loops around it, which a sweep of a '!$f2s stencil "
                             "timesteps' loop cannot hold; annotate each nest of the loop with a "
                             "'!$f2s stencil' of its own, without TIMESTEPS"}));
}

TEST(TimeLoops, WholeArrayCopyCoversTheDeclaredBounds) {
  test::ScratchDir dir;
  LoweredFiles l = lower(dir, heat(kSweep + "    u = unew\n"));
  ASSERT_TRUE(l.problems.empty()) << problems(l).front();
  ASSERT_EQ(l.kernels.size(), 2u);
  EXPECT_EQ(l.kernels[1].name, "heat_1_2");
  auto *outer = as<For>(l.kernels[1].body);
  ASSERT_TRUE(outer);
  EXPECT_EQ(print_expr(outer->lo), "0");
  EXPECT_EQ(print_expr(outer->hi), "ny + 1");
}

TEST(TimeLoops, EveryStatementItCannotHoldIsRefusedWithItsFix) {
  test::ScratchDir dir;
  LoweredFiles l = lower(dir, heat(kSweep + "    call report(u)\n"
                                            "    if (res > 1) res = 0\n"
                                            "    p => u\n"
                                            "    unew(1, 1) = 0\n"));
  EXPECT_EQ(problems(l),
            (std::vector<std::string>{
                "16:5: A '!$f2s stencil timesteps' loop may hold only DO nests (its sweeps), "
                "array copies ('u = unew'), assignments to scalars and IF (...) EXIT; move this "
                "statement out of the loop or into a sweep",
                "17:5: Only EXIT may follow IF (...) in a '!$f2s stencil timesteps' loop; put any "
                "other conditional work inside a sweep",
                "18:5: A pointer assignment in a '!$f2s stencil timesteps' loop may only swap "
                "two POINTER arrays, in three statements in a row as 'tmp => u; u => v; v => "
                "tmp' do; write the swap so, or copy back ('u = unew') instead",
                "19:5: An assignment to one array element runs in the library only inside a DO "
                "nest; write the update as a DO nest"}));
  EXPECT_TRUE(l.time_loops.empty());
}

/// A relaxation over POINTER arrays around `body` (the statements of one step).
std::string relax(const std::string &body) {
  return "subroutine relax(nx, ny, nt)\n"
         "  implicit none\n"
         "  integer, intent(in) :: nx, ny, nt\n"
         "  real(8), pointer :: u(:,:), v(:,:), w(:,:), t(:,:)\n"
         "  real(4), pointer :: s(:,:)\n"
         "  real(8) :: x(nx, ny)\n"
         "  integer :: i, j, it\n"
         "  !$f2s stencil timesteps name(relax_steps)\n"
         "  do it = 1, nt\n"
         "    do j = 1, ny\n"
         "      do i = 1, nx\n"
         "        v(i,j) = 0.5d0*(u(i-1,j) + u(i+1,j))\n"
         "      end do\n"
         "    end do\n" +
         body + "  end do\nend subroutine\n";
}

// `t => u; u => v; v => t` after the sweep: a swap statement, counted in an
// argument of the library procedure, which writes both grids (the next
// step's sweep writes what was u).
TEST(TimeLoops, APointerSwapIsCountedAndMakesBothGridsWritten) {
  test::ScratchDir dir;
  LoweredFiles l = lower(dir, relax("    t => u\n"
                                    "    u => v\n"
                                    "    v => t\n"));
  ASSERT_TRUE(l.problems.empty()) << problems(l).front();
  ASSERT_EQ(l.time_loops.size(), 1u);
  const TimeLoop &t = l.time_loops[0];
  EXPECT_EQ(print_time_loop(t), "time_loop relax_steps(nx, ny, nt, u, v, it, f2s_swaps_1, u_lb1, "
                                "u_ub1, u_lb2, u_ub2, v_lb1, v_ub1, v_lb2, v_ub2)\n"
                                "  writes it\n"
                                "  writes f2s_swaps_1\n"
                                "  for it = 1 .. nt step 1\n"
                                "    sweep relax_steps_1\n"
                                "    swap u, v (counted in f2s_swaps_1)\n");
  const Variable *counter = t.signature.find_arg("f2s_swaps_1");
  ASSERT_TRUE(counter);
  EXPECT_EQ(counter->swaps_of, std::pair(std::string("u"), std::string("v")));
  KernelFacts facts = analyze(t.signature);
  EXPECT_EQ(std::set<std::string>(facts.write_set.begin(), facts.write_set.end()),
            (std::set<std::string>{"u", "v"}));
  // The sweep itself is as written: it reads u and writes v.
  ASSERT_EQ(l.kernels.size(), 1u);
  EXPECT_EQ(analyze(l.kernels[0]).write_set, std::vector<std::string>{"v"});
}

TEST(TimeLoops, APointerSwapItCannotFollowIsRefusedWithItsFix) {
  test::ScratchDir dir;
  EXPECT_EQ(problems(lower(dir, relax("    t => u\n    u => v\n    v => t\n"
                                      "    t => v\n    v => w\n    w => t\n"
                                      "    t => u\n    u => x\n    x => t\n"
                                      "    t => u\n    u => s\n    s => t\n"))),
            (std::vector<std::string>{
                "18:5: This swap of 'v' and 'w' shares 'v' with the swap of 'u' and 'v' before "
                "it; swap the same pair again or another pair",
                "21:5: The pointer swap of 'u' and 'x' through 't' needs three POINTER arrays, "
                "and 'x' is not one; declare it with POINTER and a shape",
                "24:5: 'u' and 's' swap targets, so they must have one type and rank"}));
  // Both of the pair must be the sweeps' (the procedure swaps its
  // arguments), and the temporary none of theirs (it is not kept).
  std::string unused = relax("    t => v\n    v => w\n    w => t\n");
  unused.replace(unused.find("u(i-1,j) + u(i+1,j)"), 19, "t(i-1,j) + t(i+1,j)");
  EXPECT_EQ(problems(lower(dir, unused, "unused.f90")),
            (std::vector<std::string>{
                "15:5: No sweep of this '!$f2s stencil timesteps' loop uses 'w', which the swap "
                "of 'v' and 'w' exchanges; swap pointers that the sweeps use",
                "15:5: A sweep of this '!$f2s stencil timesteps' loop uses 't', the temporary of "
                "a pointer swap, which the library does not keep up to date; give the swap a "
                "temporary of its own"}));
}

TEST(TimeLoops, ASweepsOwnProblemIsReportedAtItsPosition) {
  test::ScratchDir dir;
  LoweredFiles l = lower(dir, heat("    do j = 1, ny\n"
                                   "      do i = 1, nx\n"
                                   "        unew(i,j) = u(i*i,j)\n"
                                   "      end do\n"
                                   "    end do\n"));
  ASSERT_EQ(l.problems.size(), 1u);
  EXPECT_EQ(l.problems[0].loc.line, 13);
}

TEST(TimeLoops, CopiesNeedBoundsThatCorrespond) {
  test::ScratchDir dir;
  LoweredFiles l = lower(dir, heat(kSweep + "    u(1:nx, 1:ny) = unew(2:nx, 1:ny)\n"));
  // A section with a stride, or an element, is not a copy of the kind.
  LoweredFiles strided = lower(dir, heat(kSweep + "    u(1:nx:2, :) = unew(1:nx:2, :)\n"), "s.f90");
  EXPECT_EQ(problems(strided),
            (std::vector<std::string>{"16:5: Section 'u(1:nx:2, :)' copied by f2stencil must "
                                      "have a range 'lo:hi' (or ':') without a stride in every "
                                      "dimension; write the copy as a DO nest"}));
  EXPECT_EQ(problems(l), (std::vector<std::string>{
                             "16:5: The copy 'u(1:nx, 1:ny) = unew(2:nx, 1:ny)' has 1 fewer "
                             "elements in dimension 1 on the right than on the left; give both "
                             "sides one shape"}));
}

TEST(TimeLoops, ATimeLoopInsideAnotherOrWithoutBoundsIsRefused) {
  test::ScratchDir dir;
  LoweredFiles nested = lower(dir, heat("    !$f2s stencil timesteps\n" + kSweep));
  EXPECT_EQ(problems(nested),
            (std::vector<std::string>{"11:19: A '!$f2s stencil timesteps' loop cannot hold "
                                      "another; remove TIMESTEPS from the inner directive"}));
  std::string whiled = heat(kSweep);
  whiled.replace(whiled.find("do it = 1, nt"), 13, "do while (res > 0)");
  EXPECT_EQ(problems(lower(dir, whiled, "while.f90")),
            (std::vector<std::string>{"10:3: A '!$f2s stencil timesteps' loop must be a DO loop "
                                      "with a variable and bounds, as in 'DO it = 1, nt'"}));
  LoweredFiles empty = lower(dir, heat("    res = 1\n"), "empty.f90");
  EXPECT_EQ(problems(empty),
            (std::vector<std::string>{"9:3: This '!$f2s stencil timesteps' loop runs no sweep: "
                                      "its body needs a DO nest or an array copy"}));
}

TEST(TimeLoops, ADirectiveInsideAPlainRegionPointsToTimesteps) {
  test::ScratchDir dir;
  LoweredFiles l = lower(dir, heat("    !$f2s stencil\n" + kSweep, ""));
  ASSERT_FALSE(l.problems.empty());
  EXPECT_EQ(problems(l).front(),
            "11:5: A '!$f2s' directive is not allowed inside a '!$f2s stencil' region; remove "
            "it, or add TIMESTEPS to the outer directive if its loop steps through time");
}

} // namespace
} // namespace f2s
