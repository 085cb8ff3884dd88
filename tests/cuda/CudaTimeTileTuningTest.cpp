// harness/TimeTileTuner's GPU tuning of a time loop: the harness of the
// steps (each sweep by its CUDA launcher on the harness's device copies) and
// of each time-tiled candidate (the procedure on grids entered into the
// residency table) verify against the serial steps, here on the CPU stand-in
// of tests/cuda/emulation; a candidate that leaves the grids as they were is
// refused; the serial steps are computed once and read back by the other
// harnesses; and the candidates fit a block's limits in both forms.
#include "codegen/CudaHarnessPrinter.h"
#include "codegen/CudaTimeStream.h"
#include "frontend/Frontend.h"
#include "harness/CudaToolkit.h"
#include "harness/CudaVariants.h"
#include "harness/ProblemSize.h"
#include "harness/Process.h"
#include "harness/TimeTileTuner.h"
#include "tests/common/TestUtil.h"
#include "tests/cuda/CudaShape.h"
#include "tests/cuda/Emulation.h"
#include "tests/cuda/TimeLoopTestUtil.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>

namespace f2s {
namespace {

namespace fs = std::filesystem;

using test::source_path;

ProcessResult run(std::vector<std::string> argv) {
  Command c;
  c.argv = std::move(argv);
  c.timeout_s = 600;
  return run_process(c);
}

using Lowered = test::LoweredLoop;

void lower(const std::string &file, const std::string &name, Lowered &out) {
  test::lower_time_loop(file, name, out);
}

CudaHarnessSource harness(const Kernel &loop, const VariantCode &v) {
  return print_cuda_harness(loop, v.cuda_source, v.variant.target + "_" + v.variant.name,
                            {v.cuda_call, v.cuda_resident, v.harness_reference});
}

/// Builds `v`'s harness (the CUDA part emulated) in `dir` as `name`.
std::string build_harness(const test::ScratchDir &dir, const Kernel &loop, const VariantCode &v,
                          const std::string &name) {
  CudaHarnessSource h = harness(loop, v);
  std::string ref_o = (dir.path() / (name + "_ref.o")).string(),
              main_o = (dir.path() / (name + ".o")).string(), bin = (dir.path() / name).string();
  std::vector<std::string> cc = {c_compiler(), "-O1", "-std=gnu11", "-pthread"};
  cc.insert(cc.end(), c_rounding_flags().begin(), c_rounding_flags().end());
  cc.insert(cc.end(), {"-c", dir.write(name + "_ref.c", h.c_reference), "-o", ref_o});
  ProcessResult r = run(cc);
  EXPECT_TRUE(r.ok()) << r.err.substr(0, 4000);
  r = run({"g++", "-std=c++20", "-O1", "-ffp-contract=off", "-pthread", "-w", "-I",
           source_path("tests/cuda/emulation"), "-x", "c++",
           dir.write(name + ".cu", test::emulated(h.cuda_main, true)), "-c", "-o", main_o});
  EXPECT_TRUE(r.ok()) << r.err.substr(0, 4000);
  r = run({"g++", "-pthread", "-o", bin, main_o, ref_o, "-lm"});
  EXPECT_TRUE(r.ok()) << r.err.substr(0, 4000);
  return bin;
}

TEST(CudaTimeTileTuning, TheStepsAndEveryCandidateVerifyAgainstTheSerialStepsUnderEmulation) {
  Lowered low;
  lower("examples/jacobi3d_pingpong/jacobi3d_pingpong.f", "jacpp", low);
  if (HasFatalFailure())
    return;
  std::vector<VariantCode> gpu;
  for (const std::string &s : low.loop->sweeps())
    for (const Kernel *k : low.sweeps)
      if (k->name == s)
        gpu.push_back(cuda_variant_code(*k, test::cuda_shape("plain", 8, 4, 1, 1, 0)));
  std::vector<const VariantCode *> chosen;
  for (const VariantCode &v : gpu)
    chosen.push_back(&v);
  // Tiles that leave partial tiles at 13x11x9, a chunk cut short by 5 steps.
  CudaTimeTileParams overlapped, streaming;
  overlapped.steps = 2;
  overlapped.tile = {5, 3, 2};
  overlapped.threads = 32;
  streaming.form = CudaTimeTileForm::Streaming;
  streaming.steps = 3;
  streaming.tile = {7, 4, 0};
  streaming.threads = 64;
  std::vector<CudaTimeTileParams> params = {overlapped, streaming};
  std::vector<VariantCode> variants =
      cuda_time_loop_variants(*low.loop, low.plan, low.sweeps, chosen, params);
  ASSERT_EQ(variants.size(), 3u);
  EXPECT_EQ(variants[0].variant.name, "steps");
  EXPECT_FALSE(variants[0].cuda_resident);
  EXPECT_EQ(variants[1].variant.name, "overlapped T=2 5x3x2");
  EXPECT_EQ(variants[2].variant.name, "streaming T=3 7x4, 5 columns a thread");
  EXPECT_TRUE(variants[2].cuda_resident);
  // A procedure that computes nothing must be refused.
  VariantCode idle = variants[1];
  idle.variant.name = "idle";
  idle.cuda_call = "(void)d;";
  variants.push_back(idle);

  test::ScratchDir dir;
  const std::string ref_file = (dir.path() / "reference.bin").string();
  std::vector<std::string> scalars;
  const std::map<std::string, std::string> values = {
      {"n1", "13"}, {"n2", "11"}, {"n3", "9"}, {"niter", "5"}, {"it", "0"}};
  for (const Variable &v : low.loop->signature.args)
    if (!v.is_grid())
      scalars.push_back(values.at(v.name));
  for (size_t i = 0; i < variants.size(); ++i) {
    SCOPED_TRACE(variants[i].variant.name);
    std::string bin = build_harness(dir, low.loop->signature, variants[i], "h" + std::to_string(i));
    if (HasFailure())
      return;
    if (i == 2) // a reference file cut short is computed again
      fs::resize_file(ref_file, fs::file_size(ref_file) / 2);
    std::vector<std::string> argv = {bin, "2", "1e-12"};
    argv.insert(argv.end(), scalars.begin(), scalars.end());
    argv.push_back(ref_file);
    ProcessResult r = run(argv);
    ASSERT_TRUE(r.ok()) << r.describe() << r.out << r.err;
    bool refused = variants[i].variant.name == "idle";
    EXPECT_NE(r.out.find(refused ? "\"verified\": false" : "\"verified\": true"), std::string::npos)
        << r.out << r.err;
    // The first harness wrote the serial steps' grids and time variable.
    EXPECT_TRUE(fs::exists(ref_file));
  }

  // What the GPU machine builds: nvcc compiles each harness as the tuner does.
  std::optional<std::string> nvcc = find_nvcc();
  if (!nvcc)
    GTEST_SKIP() << "nvcc not found";
  for (size_t i = 0; i < 3; ++i) {
    SCOPED_TRACE(variants[i].variant.name);
    std::vector<std::string> argv = {*nvcc};
    for (const std::string &f : nvcc_flags())
      argv.push_back(f);
    argv.insert(argv.end(), {"-c", "-o", (dir.path() / ("n" + std::to_string(i) + ".o")).string(),
                             dir.write("n" + std::to_string(i) + ".cu",
                                       harness(low.loop->signature, variants[i]).cuda_main)});
    ProcessResult r = run(argv);
    EXPECT_TRUE(r.ok()) << r.err.substr(0, 4000);
  }
}

/// The (form, T) pairs of `all`, each with at most two tiles (a streaming
/// tile with 1 or 2 columns a thread, each once), every one within a
/// block's limits.
std::set<std::pair<int, int>> forms_and_steps(const Lowered &low,
                                              const std::vector<CudaTimeTileParams> &all) {
  std::map<std::pair<int, int>, std::set<std::vector<int64_t>>> seen;
  std::set<std::pair<std::vector<int64_t>, int64_t>> per_thread;
  for (const CudaTimeTileParams &p : all) {
    seen[{static_cast<int>(p.form), p.steps}].insert(p.tile);
    EXPECT_LE(p.threads, 1024);
    EXPECT_LE(cuda_time_tile_shared_bytes(*low.loop, low.plan, p), 100 * 1024);
    if (p.form == CudaTimeTileForm::Streaming) {
      EXPECT_LE((cuda_time_stream_registers(*low.loop, low.plan, p) + 40) * p.threads, 65536);
      int64_t m = (cuda_time_stream_columns(low.plan, p) + p.threads - 1) / p.threads;
      EXPECT_TRUE(m == 1 || m == 2) << m << " columns a thread";
      std::vector<int64_t> key = p.tile;
      key.push_back(p.steps);
      EXPECT_TRUE(per_thread.insert({key, m}).second) << "a candidate twice";
    }
  }
  std::set<std::pair<int, int>> out;
  for (const auto &[key, tiles] : seen) {
    EXPECT_LE(tiles.size(), 2u);
    out.insert(key);
  }
  return out;
}

TEST(CudaTimeTileTuning, CandidatesOfBothFormsFitABlocksLimits) {
  // 2D: every T in both forms.
  Lowered heat;
  lower("examples/heat2d_steps/heat2d_steps.f90", "heat_steps", heat);
  if (HasFatalFailure())
    return;
  std::set<std::pair<int, int>> seen =
      forms_and_steps(heat, cuda_time_tile_candidates(*heat.loop, heat.plan));
  for (int form : {0, 1})
    for (int steps : {2, 3, 4, 6, 8})
      EXPECT_TRUE(seen.count({form, steps})) << "form " << form << ", T=" << steps;

  // 3D, two sweeps a step: the overlapped halo of T >= 4 steps fits no
  // block; streaming keeps only planes, and goes further.
  Lowered jac;
  lower("examples/jacobi3d_pingpong/jacobi3d_pingpong.f", "jacpp", jac);
  if (HasFatalFailure())
    return;
  std::vector<CudaTimeTileParams> all = cuda_time_tile_candidates(*jac.loop, jac.plan);
  seen = forms_and_steps(jac, all);
  EXPECT_TRUE(seen.count({0, 2}));
  EXPECT_FALSE(seen.count({0, 4}));
  for (int steps : {2, 3, 4})
    EXPECT_TRUE(seen.count({1, steps})) << "streaming, T=" << steps;
  // First the tiles whose columns are whole warps: at T = 2 (4 sweeps, a
  // halo of 4 a side), 24x24 (32x32 columns) and 24x8 (32x16). 32x32
  // columns a thread each take more registers than a block has, so two a
  // thread (512 threads).
  std::vector<std::pair<std::vector<int64_t>, int>> streamed;
  for (const CudaTimeTileParams &p : all)
    if (p.form == CudaTimeTileForm::Streaming && p.steps == 2)
      streamed.push_back({p.tile, p.threads});
  ASSERT_GE(streamed.size(), 2u);
  EXPECT_EQ(streamed[0], (std::pair<std::vector<int64_t>, int>{{24, 24, 128}, 512}));
  std::set<int> threads_24x8;
  for (const auto &[tile, threads] : streamed)
    if (tile == std::vector<int64_t>{24, 8, 128})
      threads_24x8.insert(threads);
  EXPECT_EQ(threads_24x8, (std::set<int>{256, 512}));

  // A forced T takes the widest tile that fits, as the candidates' first.
  TimeTileChoice forced = choose_cuda_time_tiles(*jac.loop, jac.plan, 2, "overlapped");
  auto first = std::find_if(all.begin(), all.end(), [](const CudaTimeTileParams &p) {
    return p.form == CudaTimeTileForm::Overlapped && p.steps == 2;
  });
  ASSERT_NE(first, all.end());
  std::vector<long> tune = {2};
  tune.insert(tune.end(), first->tile.begin(), first->tile.end());
  EXPECT_EQ(forced.tune, tune);
}

// A tuning run takes the same number of steps whichever way the loop
// counts: DO it = 1, nt sets nt; DO it = nt, 1, -1 sets nt too (it had run
// one step, so a chunk of T steps was measured on a single step).
TEST(CudaTimeTileTuning, TheTuningRunTakesItsStepsCountingUpOrDown) {
  for (const char *name : {"heat_steps", "heat_interior_steps"}) {
    SCOPED_TRACE(name);
    Lowered low;
    lower("examples/heat2d_steps/heat2d_steps.f90", name, low);
    if (HasFatalFailure())
      return;
    const Kernel *sweep = nullptr;
    for (const Kernel *k : low.sweeps)
      if (k->name == std::string(name) + "_1")
        sweep = k;
    ASSERT_TRUE(sweep);
    ProblemSize size = time_loop_tuning_size(*low.loop, *sweep, 8);
    size_t i = 0;
    for (const Variable &v : low.loop->signature.args) {
      if (v.is_grid())
        continue;
      if (v.name == "nt") {
        EXPECT_EQ(size.scalar_values.at(i), "8");
      }
      if (v.name == "nx") {
        EXPECT_EQ(size.scalar_values.at(i), "100"); // the source's tune_size(100, 80)
      }
      ++i;
    }
  }
}

TEST(CudaTimeTileTuning, OneDimensionalLoopsHaveOnlyOverlappedTiles) {
  Lowered low;
  lower("tests/inputs/timeloop/smooth1d.f90", "smooth_steps", low);
  if (HasFatalFailure())
    return;
  std::vector<CudaTimeTileParams> all = cuda_time_tile_candidates(*low.loop, low.plan);
  EXPECT_EQ(all.size(), 10u); // T = 2, 3, 4, 6, 8, the two widest tiles each
  for (const CudaTimeTileParams &p : all)
    EXPECT_EQ(p.form, CudaTimeTileForm::Overlapped);
}

} // namespace
} // namespace f2s
