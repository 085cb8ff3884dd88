// codegen/CTimeTile: a time loop tiled in time, run by the generated harness
// against the same loop run step by step with the serial sweeps, bitwise, at
// odd sizes, for trip counts 0, 1, 2 and more, chunks that do and do not
// divide them, and tiles that do and do not divide the grids.
#include "ast/TimeTiling.h"
#include "codegen/CPrinter.h"
#include "codegen/CTimeTile.h"
#include "codegen/HarnessPrinter.h"
#include "harness/Process.h"

#include "common/TestUtil.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

struct Built {
  std::string exe;
  size_t n_tune = 0;
};

/// The harness of example `name`'s time loop: the tiled variant (of `form`)
/// against the steps with serial sweeps.
Built build_harness(const test::ScratchDir &dir, const std::string &name, size_t loop = 0,
                    CTimeTileForm form = CTimeTileForm::Overlapped) {
  LoweredFiles l = lower_files_collecting({test::example_source(name)});
  EXPECT_TRUE(l.problems.empty());
  const TimeLoop &t = l.time_loops.at(loop);
  std::vector<const Kernel *> sweeps;
  for (const Kernel &k : l.kernels)
    sweeps.push_back(&k);
  TimeTiling tiling = plan_time_tiling(t, sweeps);
  EXPECT_TRUE(tiling.plan) << tiling.reason;
  std::string reference;
  std::vector<SweepCall> calls;
  for (const std::string &s : t.sweeps())
    for (const Kernel *k : sweeps)
      if (k->name == s) {
        reference += print_c_args_struct(*k) + print_c_variant(*k, "reference");
        calls.push_back({"reference", {}, 1});
      }
  reference += print_c_time_loop_variant(t, sweeps, calls, "reference");
  std::string tiled = print_c_tile_box_helpers() + print_c_tile_regions(t, *tiling.plan) +
                      print_c_time_tiled(t, *tiling.plan, sweeps, "tiled", form);
  HarnessExtras extras;
  extras.reference_code = reference;
  size_t n_tune = time_tile_tuning_count(*tiling.plan);
  std::string c = dir.write(
      t.signature.name + "_" + c_time_tile_form_name(form) + ".c",
      print_c_harness(t.signature, tiled, c_variant_name(t.signature, "tiled"), n_tune, extras));
  std::string exe = (dir.path() / (t.signature.name + "_" + c_time_tile_form_name(form))).string();
  Command cc;
  cc.argv = {c_compiler(), "-std=gnu11", "-O2", "-pthread", "-o", exe, c, "-lm"};
  for (const std::string &f : c_rounding_flags())
    cc.argv.insert(cc.argv.begin() + 1, f);
  ProcessResult r = run_process(cc);
  EXPECT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  return {exe, n_tune};
}

/// Runs the harness: THREADS 2, one rep, tolerance 0 (bitwise).
std::string run(const Built &b, const std::vector<std::string> &scalars,
                const std::vector<long> &tune) {
  Command c;
  c.argv = {b.exe, "2", "1", "0"};
  c.argv.insert(c.argv.end(), scalars.begin(), scalars.end());
  for (long v : tune)
    c.argv.push_back(std::to_string(v));
  ProcessResult r = run_process(c);
  EXPECT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  return r.out;
}

::testing::AssertionResult verified(const std::string &out) {
  if (out.find("\"verified\": true, \"max_rel_err\": 0") != std::string::npos)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << out;
}

TEST(TimeTile, HeatWithACopyOfTheWholeArrayIsBitwiseTheSteps) {
  // heat_steps(nx, ny, nt, alpha, it): u = unew copies the boundary too.
  test::ScratchDir dir;
  Built b = build_harness(dir, "heat2d_steps");
  ASSERT_EQ(b.n_tune, 3u);
  for (const char *nt : {"0", "1", "2", "7"})
    for (std::vector<long> tune : {std::vector<long>{1, 8, 8}, {2, 5, 7}, {3, 64, 64}, {4, 13, 4}})
      EXPECT_TRUE(verified(run(b, {"37", "19", nt, "0.1", "0"}, tune)))
          << "nt " << nt << " T " << tune[0];
  // heat_interior_steps(nx, ny, nt, dt, time, it): REAL(4), a step of -1,
  // `time = time + dt` each step.
  Built interior = build_harness(dir, "heat2d_steps", 1);
  for (const char *nt : {"0", "1", "6"})
    for (std::vector<long> tune : {std::vector<long>{2, 5, 7}, {4, 40, 40}})
      EXPECT_TRUE(verified(run(interior, {"31", "17", nt, "0.05", "0.5", "0"}, tune)))
          << "nt " << nt << " T " << tune[0];
}

TEST(TimeTile, FdtdWithThreeFieldsAndASourceAtEachStepIsBitwiseTheSteps) {
  test::ScratchDir dir;
  Built b = build_harness(dir, "fdtd2d_steps");
  for (const char *tmax : {"1", "5", "9"})
    for (std::vector<long> tune : {std::vector<long>{2, 6, 5}, {4, 16, 16}, {5, 3, 40}})
      EXPECT_TRUE(verified(run(b, {"29", "23", tmax, "0"}, tune)))
          << "tmax " << tmax << " T " << tune[0];
}

TEST(TimeTile, PingPongJacobiIn3DIsBitwiseTheSteps) {
  test::ScratchDir dir;
  Built b = build_harness(dir, "jacobi3d_pingpong");
  for (const char *niter : {"0", "1", "3"})
    for (std::vector<long> tune : {std::vector<long>{1, 4, 4, 4}, {2, 13, 6, 5}, {3, 32, 8, 8}})
      EXPECT_TRUE(verified(run(b, {"13", "11", "9", niter, "0"}, tune)))
          << "niter " << niter << " T " << tune[0];
}

// The streaming form (codegen/CTimeStream.h): tiles of x (and y) walked
// along the slowest dimension, T steps in flight. The tile's last extent is
// the segment of it a tile walks (0: all of it); the others' 0 is all of x
// (3D) and even shares of the next among the harness's 2 threads; chunks
// longer than the pipeline's 8 steps are cut to it.
constexpr CTimeTileForm kStream = CTimeTileForm::Streaming;

TEST(TimeStream, HeatWithACopyOfTheWholeArrayIsBitwiseTheSteps) {
  test::ScratchDir dir;
  Built b = build_harness(dir, "heat2d_steps", 0, kStream);
  for (const char *nt : {"0", "1", "2", "5", "7"})
    for (std::vector<long> tune : {std::vector<long>{1, 8, 0},
                                   {2, 5, 7},
                                   {3, 64, 0},
                                   {4, 13, 4},
                                   {8, 16, 0},
                                   {12, 7, 9},
                                   {3, 0, 0}})
      EXPECT_TRUE(verified(run(b, {"37", "19", nt, "0.1", "0"}, tune)))
          << "nt " << nt << " T " << tune[0] << " tile " << tune[1] << "x" << tune[2];
  Built interior = build_harness(dir, "heat2d_steps", 1, kStream);
  for (const char *nt : {"0", "1", "6"})
    for (std::vector<long> tune : {std::vector<long>{2, 5, 0}, {4, 40, 3}})
      EXPECT_TRUE(verified(run(interior, {"31", "17", nt, "0.05", "0.5", "0"}, tune)))
          << "nt " << nt << " T " << tune[0];
}

TEST(TimeStream, FdtdWithThreeFieldsAndASourceAtEachStepIsBitwiseTheSteps) {
  test::ScratchDir dir;
  Built b = build_harness(dir, "fdtd2d_steps", 0, kStream);
  for (const char *tmax : {"0", "1", "2", "5", "9"})
    for (std::vector<long> tune : {std::vector<long>{2, 6, 0}, {4, 16, 5}, {5, 3, 0}, {8, 40, 0}})
      EXPECT_TRUE(verified(run(b, {"29", "23", tmax, "0"}, tune)))
          << "tmax " << tmax << " T " << tune[0] << " tile " << tune[1] << "x" << tune[2];
}

TEST(TimeStream, PingPongJacobiIn3DIsBitwiseTheSteps) {
  test::ScratchDir dir;
  Built b = build_harness(dir, "jacobi3d_pingpong", 0, kStream);
  for (const char *niter : {"0", "1", "2", "5"})
    for (std::vector<long> tune : {std::vector<long>{1, 4, 4, 0},
                                   {2, 13, 6, 0},
                                   {3, 32, 8, 4},
                                   {4, 15, 5, 0},
                                   {8, 64, 64, 0},
                                   {2, 0, 0, 0}})
      EXPECT_TRUE(verified(run(b, {"13", "11", "9", niter, "0"}, tune)))
          << "niter " << niter << " T " << tune[0] << " tile " << tune[1] << "x" << tune[2] << "x"
          << tune[3];
}

TEST(TimeStream, BoxOf27PointsIsBitwiseTheSteps) {
  // smooth27(nx, ny, nz, nsteps, w0, w1, w2, w3): a ping-pong of a 27-point
  // box, corners read across planes.
  test::ScratchDir dir;
  Built b = build_harness(dir, "box27_steps", 0, kStream);
  for (const char *n : {"0", "1", "2", "5"})
    for (std::vector<long> tune : {std::vector<long>{2, 7, 5, 0}, {3, 64, 3, 0}, {4, 9, 9, 5}})
      EXPECT_TRUE(verified(run(b, {"11", "9", "7", n, "0.4", "0.05", "0.02", "0.0125", "0"}, tune)))
          << "nsteps " << n << " T " << tune[0] << " tile " << tune[1] << "x" << tune[2] << "x"
          << tune[3];
}

} // namespace
} // namespace f2s
