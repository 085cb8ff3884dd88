// ast/TimeTiling: which time loops can be tiled in time, the stages and
// reaches of those that can, and the reason for those that cannot.
#include "ast/TimeTiling.h"
#include "frontend/Frontend.h"
#include "tests/common/TestUtil.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

/// The loop's plan as printed, or "no: <reason>".
std::string plan_of(const std::string &text) {
  test::ScratchDir dir;
  LoweredFiles l = lower_files_collecting({dir.write("steps.f90", text)});
  if (!l.problems.empty())
    return "problem: " + l.problems[0].message;
  if (l.time_loops.size() != 1)
    return "loops: " + std::to_string(l.time_loops.size());
  std::vector<const Kernel *> sweeps;
  for (const Kernel &k : l.kernels)
    sweeps.push_back(&k);
  TimeTiling t = plan_time_tiling(l.time_loops[0], sweeps);
  if (!t.plan)
    return "no: " + std::to_string(t.loc.line) + ": " + t.reason;
  return print_time_tile_plan(*t.plan);
}

/// A subroutine over 2D grids u, v (0:nx+1, 0:ny+1) and a 1D profile c,
/// whose time loop runs `body`.
std::string loop2d(const std::string &body) {
  return "subroutine steps(nx, ny, nt, c, u, v, err)\n"
         "  implicit none\n"
         "  integer, intent(in) :: nx, ny, nt\n"
         "  real(8), intent(in) :: c(nx)\n"
         "  real(8), intent(inout) :: u(0:nx+1, 0:ny+1), v(0:nx+1, 0:ny+1)\n"
         "  real(8), intent(inout) :: err\n"
         "  real(8) :: t\n"
         "  integer :: i, j, it\n"
         "  !$f2s stencil timesteps\n"
         "  do it = 1, nt\n" +
         body + "  end do\nend subroutine\n";
}

const std::string kJacobi = "    do j = 1, ny\n"
                            "      do i = 1, nx\n"
                            "        v(i,j) = c(i)*(u(i-1,j) + u(i+1,j) + u(i,j-1) + u(i,j+2))\n"
                            "      end do\n"
                            "    end do\n";

TEST(TimeTiling, CopyBackIsTwoStagesWithTheJacobisReachAndIsKnownAsACopy) {
  EXPECT_EQ(plan_of(loop2d(kJacobi + "    u = v\n")),
            "time_tiling rank 2, state u v, reach -1..1 -1..2\n"
            "  stage steps_1_1: v at (i, j) over 1..nx, 1..ny; reads u -1..1 -1..2\n"
            "  stage steps_1_2: u at (f2s_c1, f2s_c2) over 0..nx + 1, 0..ny + 1; reads v 0..0 "
            "0..0; a copy back of v\n");
}

TEST(TimeTiling, ABoundarySweepWithFewerLoopsStoresAtAConstant) {
  EXPECT_EQ(plan_of(loop2d(kJacobi + "    do i = 0, nx + 1\n"
                                     "      v(i,0) = v(i,1)\n"
                                     "    end do\n"
                                     "    u(1:nx,1:ny) = v(1:nx,1:ny)\n")),
            "time_tiling rank 2, state u v, reach -1..1 -1..3\n"
            "  stage steps_1_1: v at (i, j) over 1..nx, 1..ny; reads u -1..1 -1..2\n"
            "  stage steps_1_2: v at (i, 0) over 0..nx + 1, 0..0; reads v 0..0 1..1\n"
            "  stage steps_1_3: u at (f2s_c1, f2s_c2) over 1..nx, 1..ny; reads v 0..0 0..0\n");
}

TEST(TimeTiling, AReadListsEachOffsetOnceInTheOrderFirstRead) {
  // The GPU's streaming form keeps a point's own column apart from its
  // neighbours': the box's extremes alone would not tell them apart.
  test::ScratchDir dir;
  LoweredFiles l = lower_files_collecting(
      {dir.write("steps.f90", loop2d("    do j = 1, ny\n"
                                     "      do i = 1, nx\n"
                                     "        v(i,j) = u(i,j+1) + u(i-1,j) + u(i,j+1) + u(i,j)\n"
                                     "      end do\n"
                                     "    end do\n"
                                     "    u = v\n"))});
  ASSERT_TRUE(l.problems.empty()) << l.problems[0].message;
  ASSERT_EQ(l.time_loops.size(), 1u);
  std::vector<const Kernel *> sweeps;
  for (const Kernel &k : l.kernels)
    sweeps.push_back(&k);
  TimeTiling t = plan_time_tiling(l.time_loops[0], sweeps);
  ASSERT_TRUE(t.plan) << t.reason;
  ASSERT_EQ(t.plan->stages[0].reads.size(), 1u);
  EXPECT_EQ(t.plan->stages[0].reads[0].offsets,
            (std::vector<std::vector<int64_t>>{{0, 1}, {-1, 0}, {0, 0}}));
  EXPECT_EQ(t.plan->stages[1].reads[0].offsets, (std::vector<std::vector<int64_t>>{{0, 0}}));
}

TEST(TimeTiling, ScalarsTheSweepsDoNotReadRunPerStep) {
  std::string p = plan_of(loop2d("    t = it*0.5d0\n" + kJacobi + "    u = v\n"));
  EXPECT_EQ(p.rfind("time_tiling rank 2", 0), 0u) << p;
}

TEST(TimeTiling, APointMayReadTheTimeVariable) {
  // A source term at time step `it` (FDTD's fict(t)): the tile gives each
  // step's points the step's value.
  std::string p = plan_of(loop2d("    do j = 1, ny\n"
                                 "      v(1,j) = c(it)\n"
                                 "    end do\n" +
                                 kJacobi + "    u = v\n"));
  EXPECT_EQ(p.rfind("time_tiling rank 2, state u v, reach -1..1 -1..2\n"
                    "  stage steps_1_1: v at (1, j) over 1..1, 1..ny\n",
                    0),
            0u)
      << p;
}

TEST(TimeTiling, RefusesWithTheReason) {
  EXPECT_EQ(plan_of(loop2d(kJacobi + "    u = v\n    if (err < 1d-3) exit\n")),
            "no: 17: The loop may leave at its EXIT after any step, which a time tile of several "
            "steps cannot stop at");
  EXPECT_EQ(plan_of(loop2d("    err = 0\n" +
                           std::string("    do j = 1, ny\n"
                                       "      do i = 1, nx\n"
                                       "        v(i,j) = u(i-1,j) + u(i,j)\n"
                                       "        err = err + v(i,j)\n"
                                       "      end do\n"
                                       "    end do\n") +
                           "    u = v\n")),
            "no: 15: Its sweep 'steps_1_1' cannot be tiled in time: it reduces into 'err' every "
            "step, and a time tile computes several steps before any sum");
  EXPECT_EQ(plan_of(loop2d("    t = it*0.5d0\n" +
                           std::string("    do j = 1, ny\n"
                                       "      do i = 1, nx\n"
                                       "        v(i,j) = t*u(i,j)\n"
                                       "      end do\n"
                                       "    end do\n") +
                           "    u = v\n")),
            "no: 12: Its sweep 'steps_1_1' cannot be tiled in time: it reads 't', which changes "
            "between steps");
}

} // namespace
} // namespace f2s
