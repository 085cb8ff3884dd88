// codegen/CudaTimeTile: a time loop in overlapped time tiles on the GPU
// leaves every array and written scalar bitwise as the loop run step by step
// does (the library's C procedure of codegen/CTimeLoop over the sweeps'
// serial variants), for trip counts 0, 1, 2, 5 and 7, chunks of 1 to 4
// steps, and tiles that do and do not divide the domain, at odd sizes. The
// tiled CUDA runs on the CPU stand-in of tests/cuda/emulation (blocks one
// after another, __syncthreads a barrier, dynamic shared memory a buffer
// per launch); nvcc compiles it for sm_90 where nvcc is installed.
#include "codegen/CudaTimeTile.h"

#include "codegen/CPrinter.h"
#include "codegen/CTimeLoop.h"
#include "codegen/CudaPrinter.h"
#include "codegen/CudaTimeStream.h"
#include "codegen/TimeStreamPlan.h"
#include "harness/CudaToolkit.h"
#include "harness/Process.h"
#include "tests/common/TestUtil.h"
#include "tests/cuda/Emulation.h"
#include "tests/cuda/TimeLoopTestUtil.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

struct Config {
  int steps;
  std::vector<int64_t> tile;
  int threads;
  CudaTimeTileForm form = CudaTimeTileForm::Overlapped;
};

/// One time loop of a file and the values of its scalars: `sizes` name the
/// scalars a run's sizes go to, `trips` the one its trip count goes to (the
/// loop's upper bound, or lower for a loop counting down), `fixed` the others.
struct Loop {
  std::string file; ///< relative to the source tree
  std::string name;
  std::vector<std::string> sizes;
  std::string trips;
  std::map<std::string, std::string> fixed;
};

using test::LoweredLoop;
using test::source_path;

ProcessResult run(std::vector<std::string> argv, int timeout = 600) {
  Command c;
  c.argv = std::move(argv);
  c.timeout_s = timeout;
  return run_process(c);
}

using Lowered = LoweredLoop;

void lower(const Loop &l, Lowered &out) {
  test::lower_time_loop(l.file, l.name, out);
}

/// The step-by-step loop in C: each sweep's serial variant behind an entry
/// `ref_<sweep>`, and the loop `ref_loop` calling them.
std::string reference_c(const Lowered &l) {
  std::string c = print_c_prelude(true);
  for (const std::string &name : l.loop->sweeps())
    for (const Kernel *k : l.sweeps)
      if (k->name == name)
        c += print_c_args_struct(*k) + print_c_variant(*k, "serial") +
             print_c_entry(*k, "ref_" + k->name, "serial", {}, 1, "the sweep, serial");
  TimeLoopProcedure p{"ref_loop", "ref_", "", "the loop, step by step", ""};
  return c + print_c_time_loop(*l.loop, l.sweeps, p);
}

CudaTimeTileParams params(const Config &c, const std::string &symbol) {
  CudaTimeTileParams p;
  p.symbol = symbol;
  p.steps = c.steps;
  p.tile = c.tile;
  p.threads = c.threads;
  p.form = c.form;
  return p;
}

/// A C program taking the loop's scalars (signature order) on its command
/// line, filling the grids with pseudo-random values, and running
/// `ref_loop`, then each of `procedures` on a fresh copy of the same
/// inputs: every grid and every written scalar must be the reference's,
/// byte for byte. Prints "OK" or what differs.
std::string checking_program(const TimeLoop &t, const std::vector<std::string> &procedures) {
  const Kernel &k = t.signature;
  std::string s = "#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n"
                  "#include <string.h>\n\n";
  s += print_c_entry_prototype(k, "ref_loop") + ";\n";
  for (const std::string &p : procedures)
    s += print_c_entry_prototype(k, p) + ";\n";
  s += "static uint64_t seed = 12345;\n"
       "static double unit(void) {\n"
       "  seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;\n"
       "  return (double)(seed >> 11) / 9007199254740992.0;\n"
       "}\n\n"
       "int main(int argc, char **argv) {\n";
  int nscalars = 0;
  for (const Variable &v : k.args)
    if (!v.is_grid())
      ++nscalars;
  s += "  if (argc != " + std::to_string(nscalars + 1) + ")\n    return 2;\n";
  int arg = 1;
  for (const Variable &v : k.args)
    if (!v.is_grid())
      s += std::string("  const ") + c_type(v.type) + " f2s_in_" + v.name + " = (" +
           c_type(v.type) + ")" + (is_float(v.type) ? "atof" : "atol") + "(argv[" +
           std::to_string(arg++) + "]);\n";
  for (const Variable &v : k.args)
    if (!v.is_grid())
      s +=
          std::string("  ") + c_type(v.type) + " " + c_name(v.name) + " = f2s_in_" + v.name + ";\n";
  for (const Variable &v : k.args) {
    if (!v.is_grid())
      continue;
    std::string n = c_name(v.name), t = c_type(v.type), count = "(size_t)1";
    for (const Dim &d : v.dims) {
      std::string ext =
          "((long)(" + print_c_expr(k, d.hi) + ") - (long)(" + print_c_expr(k, d.lo) + ") + 1)";
      count += " * (size_t)(" + ext + " > 0 ? " + ext + " : 0)";
    }
    std::string value = is_float(v.type)       ? "(" + t + ")unit()"
                        : v.type == Type::Bool ? "unit() < 0.5"
                                               : "(int32_t)(unit() * 3)";
    s += "  const size_t f2s_n_" + v.name + " = " + count + ";\n" + "  " + t + " *f2s_in_" +
         v.name + " = malloc(f2s_n_" + v.name + " * sizeof(" + t + ") + 1), *f2s_ref_" + v.name +
         " = malloc(f2s_n_" + v.name + " * sizeof(" + t + ") + 1), *" + n + " = malloc(f2s_n_" +
         v.name + " * sizeof(" + t + ") + 1);\n" + "  for (size_t e = 0; e < f2s_n_" + v.name +
         "; ++e)\n    f2s_in_" + v.name + "[e] = " + value + ";\n";
  }
  auto call = [&](const std::string &symbol) {
    std::string c = "  " + symbol + "(";
    for (size_t i = 0; i < k.args.size(); ++i)
      c += (i ? ", " : "") + std::string(k.find_reduction(k.args[i].name) ? "&" : "") +
           c_name(k.args[i].name);
    return c + ");\n";
  };
  auto fresh = [&] {
    std::string c;
    for (const Variable &v : k.args)
      c += v.is_grid() ? "  memcpy(" + c_name(v.name) + ", f2s_in_" + v.name + ", f2s_n_" + v.name +
                             " * sizeof(" + c_type(v.type) + "));\n"
                       : "  " + c_name(v.name) + " = f2s_in_" + v.name + ";\n";
    return c;
  };
  s += fresh() + call("ref_loop");
  for (const Variable &v : k.args)
    if (v.is_grid())
      s += "  memcpy(f2s_ref_" + v.name + ", " + c_name(v.name) + ", f2s_n_" + v.name +
           " * sizeof(" + c_type(v.type) + "));\n";
  for (const Reduction &r : k.reductions)
    s += std::string("  const ") + c_type(r.type) + " f2s_out_" + r.var + " = " + c_name(r.var) +
         ";\n";
  for (const std::string &p : procedures) {
    s += fresh() + call(p);
    for (const Variable &v : k.args)
      if (v.is_grid())
        s += "  if (memcmp(f2s_ref_" + v.name + ", " + c_name(v.name) + ", f2s_n_" + v.name +
             " * sizeof(" + c_type(v.type) + "))) {\n    printf(\"" + p + ": '" + v.name +
             "' differs\\n\");\n    return 1;\n  }\n";
    for (const Reduction &r : k.reductions)
      s += "  if (memcmp(&f2s_out_" + r.var + ", &" + c_name(r.var) + ", sizeof " + c_name(r.var) +
           ")) {\n    printf(\"" + p + ": '" + r.var + "' differs\\n\");\n    return 1;\n  }\n";
  }
  return s + "  printf(\"OK\\n\");\n  return 0;\n}\n";
}

/// Builds the reference, every configuration's tiled procedure (under the
/// emulation) and the checking program; runs it at each size and trip
/// count.
void expect_bitwise(const Loop &l, const std::vector<Config> &configs,
                    const std::vector<std::vector<std::string>> &sizes,
                    const std::vector<int> &trips = {0, 1, 2, 5, 7}) {
  Lowered low;
  lower(l, low);
  if (::testing::Test::HasFatalFailure())
    return;
  test::ScratchDir dir;
  std::string cuda = print_cuda_prelude();
  std::vector<std::string> symbols;
  for (size_t i = 0; i < configs.size(); ++i) {
    symbols.push_back("tiled" + std::to_string(i));
    cuda += print_cuda_time_tiled_loop(*low.loop, low.plan, low.sweeps,
                                       params(configs[i], symbols.back()));
  }
  std::string ref_o = (dir.path() / "ref.o").string(), cuda_o = (dir.path() / "cuda.o").string(),
              main_o = (dir.path() / "main.o").string(), bin = (dir.path() / "check").string();
  ProcessResult r = run({c_compiler(), "-O1", "-std=gnu11", "-ffp-contract=off", "-pthread", "-c",
                         dir.write("ref.c", reference_c(low)), "-o", ref_o});
  ASSERT_TRUE(r.ok()) << r.err.substr(0, 4000);
  // A block per tile at once on few tiles: the tiny grid makes blocks take
  // several tiles each (the grid-stride loop).
  r = run({"g++", "-std=c++20", "-O1", "-ffp-contract=off", "-pthread", "-w", "-I",
           source_path("tests/cuda/emulation"), "-x", "c++",
           dir.write("tiled.cu", test::emulated(cuda, true)), "-c", "-o", cuda_o});
  ASSERT_TRUE(r.ok()) << r.err.substr(0, 4000);
  r = run({c_compiler(), "-O1", "-std=gnu11", "-c",
           dir.write("main.c", checking_program(*low.loop, symbols)), "-o", main_o});
  ASSERT_TRUE(r.ok()) << r.err.substr(0, 4000);
  r = run({"g++", "-pthread", "-o", bin, main_o, ref_o, cuda_o, "-lm"});
  ASSERT_TRUE(r.ok()) << r.err.substr(0, 4000);

  for (const std::vector<std::string> &size : sizes)
    for (int n : trips) {
      std::vector<std::string> argv = {bin};
      for (const Variable &v : low.loop->signature.args) {
        if (v.is_grid())
          continue;
        auto at = std::find(l.sizes.begin(), l.sizes.end(), v.name);
        if (at != l.sizes.end())
          argv.push_back(size.at(at - l.sizes.begin()));
        else if (v.name == l.trips)
          argv.push_back(std::to_string(n));
        else
          argv.push_back(l.fixed.at(v.name));
      }
      std::string at;
      for (const std::string &e : size)
        at += (at.empty() ? "" : "x") + e;
      SCOPED_TRACE(l.name + " at " + at + ", " + std::to_string(n) + " steps");
      ProcessResult ran = run(argv);
      EXPECT_TRUE(ran.ok() && ran.out == "OK\n") << ran.describe() << ran.out << ran.err;
    }
}

// Tiles of 8x4 leave partial tiles along both axes of 39x21 (37x19 and the
// boundary); 13x7 divides it; 64x64 is one tile larger than the domain; 1x1
// makes the need boxes all halo.
const std::vector<Config> k2d = {{1, {8, 4}, 32}, {2, {13, 7}, 64},   {3, {8, 4}, 32},
                                 {4, {5, 3}, 16}, {4, {64, 64}, 128}, {2, {1, 1}, 8},
                                 {3, {37, 2}, 96}};

TEST(CudaTimeTile, HeatWithACopyBackOfTheWholeArray) {
  expect_bitwise({"examples/heat2d_steps/heat2d_steps.f90",
                  "heat_steps",
                  {"nx", "ny"},
                  "nt",
                  {{"alpha", "0.1"}, {"it", "-3"}}},
                 k2d, {{"37", "19"}, {"4", "3"}});
}

// The copy back of the whole array is renamed after a chunk's first step
// (the two buffers trade roles); a copy of the interior is not (the grids'
// boundaries may differ, and each grid keeps its own), nor is anything that
// is not a copy back (FDTD's three fields, a ping-pong). The bitwise tests
// above check the renamed heat loop at every tile, size and trip count.
TEST(CudaTimeTile, OnlyACopyBackOfTheWholeArrayIsRenamed) {
  auto renamed = [](const Loop &l) {
    Lowered low;
    lower(l, low);
    EXPECT_FALSE(::testing::Test::HasFatalFailure());
    std::string cuda = print_cuda_time_tiled_loop(*low.loop, low.plan, low.sweeps,
                                                  params({4, {32, 16}, 128}, "t"));
    return cuda.find("f2s_flip = !f2s_flip; /* the copy back renamed */") != std::string::npos;
  };
  EXPECT_TRUE(renamed({"examples/heat2d_steps/heat2d_steps.f90", "heat_steps", {}, "", {}}));
  EXPECT_FALSE(
      renamed({"examples/heat2d_steps/heat2d_steps.f90", "heat_interior_steps", {}, "", {}}));
  EXPECT_FALSE(renamed({"examples/fdtd2d_steps/fdtd2d_steps.f90", "fdtd_steps", {}, "", {}}));
  EXPECT_FALSE(
      renamed({"examples/jacobi2d9_steps/jacobi2d9_steps.f90", "jacobi9_steps", {}, "", {}}));
}

TEST(CudaTimeTile, HeatCountingDownWithTheTimeAdvancedBetweenSweeps) {
  // DO it = nt, 1, -1: the trip count is nt; `time` is a written scalar.
  expect_bitwise({"examples/heat2d_steps/heat2d_steps.f90",
                  "heat_interior_steps",
                  {"nx", "ny"},
                  "nt",
                  {{"dt", "0.05"}, {"time", "1.5"}, {"it", "11"}}},
                 {k2d[0], k2d[2], k2d[3], k2d[4]}, {{"37", "19"}});
}

TEST(CudaTimeTile, FdtdThreeFieldsAndASourceReadingTheTimeVariable) {
  expect_bitwise(
      {"examples/fdtd2d_steps/fdtd2d_steps.f90", "fdtd_steps", {"nx", "ny"}, "tmax", {{"t", "0"}}},
      k2d, {{"37", "19"}, {"6", "5"}});
}

TEST(CudaTimeTile, NinePointPingPongsIn2DDoubleAndSingle) {
  // The corners make each sweep reach diagonally: a tile loads a box of
  // halo, not a cross; two sweeps a step, so T steps reach 2T points.
  expect_bitwise({"examples/jacobi2d9_steps/jacobi2d9_steps.f90",
                  "jacobi9_steps",
                  {"nx", "ny"},
                  "niter",
                  {{"wc", "0.5"}, {"we", "0.1"}, {"wd", "0.025"}, {"iter", "-7"}}},
                 k2d, {{"37", "19"}, {"4", "3"}});
  expect_bitwise({"examples/jacobi2d9_steps_sp/jacobi2d9_steps_sp.f90",
                  "blur9_steps",
                  {"width", "height"},
                  "npass",
                  {{"pass", "100"}}},
                 k2d, {{"37", "19"}, {"4", "3"}});
}

TEST(CudaTimeTile, SinglePrecisionFdtdWithTheSourceAfterTheUpdates) {
  expect_bitwise({"examples/fdtd2d_steps_sp/fdtd2d_steps_sp.f90",
                  "yee2d_steps",
                  {"nx", "ny"},
                  "nstep",
                  {{"ce", "0.5"}, {"ch", "0.7"}, {"n", "-1"}}},
                 k2d, {{"37", "19"}, {"6", "5"}});
}

TEST(CudaTimeTile, PingPongJacobiIn3D) {
  expect_bitwise({"examples/jacobi3d_pingpong/jacobi3d_pingpong.f",
                  "jacpp",
                  {"n1", "n2", "n3"},
                  "niter",
                  {{"it", "0"}}},
                 {{1, {4, 4, 4}, 64},
                  {2, {5, 3, 2}, 32},
                  {3, {16, 16, 16}, 128},
                  {4, {13, 11, 9}, 64},
                  {2, {6, 12, 5}, 96},
                  {3, {7, 4, 3}, 48}},
                 {{"13", "11", "9"}});
}

// The streaming form: tiles of x and y (dividing the domain or not, one
// larger than it, 1x1 all halo), z walked whole; T = 1 to 4 with chunks cut
// short by trip counts it does not divide.
constexpr CudaTimeTileForm kStream = CudaTimeTileForm::Streaming;
const std::vector<Config> k3dStream = {
    {1, {4, 4, 0}, 64, kStream},   {2, {5, 3, 0}, 32, kStream}, {3, {16, 16, 0}, 128, kStream},
    {4, {13, 11, 0}, 64, kStream}, {2, {1, 1, 0}, 8, kStream},  {3, {7, 4, 0}, 48, kStream},
    {4, {32, 8, 0}, 256, kStream}};
/// The same for a 27-point ping-pong, whose rings are three planes deep: at
/// T = 4 a 32x8 tile's rings (for the most columns a block holds, whatever
/// the grids' size) exceed a block's shared memory, so the last is 16x8.
const std::vector<Config> k3dStream27 = {
    {1, {4, 4, 0}, 64, kStream},   {2, {5, 3, 0}, 32, kStream}, {3, {16, 16, 0}, 128, kStream},
    {4, {13, 11, 0}, 64, kStream}, {2, {1, 1, 0}, 8, kStream},  {3, {7, 4, 0}, 48, kStream},
    {4, {16, 8, 0}, 128, kStream}};

TEST(CudaTimeStream, PingPongJacobiIn3D) {
  expect_bitwise({"examples/jacobi3d_pingpong/jacobi3d_pingpong.f",
                  "jacpp",
                  {"n1", "n2", "n3"},
                  "niter",
                  {{"it", "0"}}},
                 k3dStream, {{"13", "11", "9"}, {"3", "2", "1"}, {"6", "17", "4"}},
                 {0, 1, 2, 5, 9});
}

// Segments of the slowest dimension: each block walks only its own planes
// (and the halo below and above them that T steps need), so that a 2D grid
// has more blocks than columns of tiles; segments that do and do not divide
// the extent, one of a single plane, one larger than the grid.
TEST(CudaTimeStream, SegmentsOfTheSlowestDimension) {
  expect_bitwise({"examples/jacobi3d_pingpong/jacobi3d_pingpong.f",
                  "jacpp",
                  {"n1", "n2", "n3"},
                  "niter",
                  {{"it", "0"}}},
                 {{1, {4, 4, 2}, 64, kStream},
                  {2, {5, 3, 4}, 32, kStream},
                  {3, {7, 4, 3}, 48, kStream},
                  {2, {13, 11, 1}, 64, kStream},
                  {4, {16, 16, 64}, 128, kStream}},
                 {{"13", "11", "9"}, {"6", "17", "4"}}, {0, 1, 2, 5});
  expect_bitwise({"examples/heat2d_steps/heat2d_steps.f90",
                  "heat_steps",
                  {"nx", "ny"},
                  "nt",
                  {{"alpha", "0.1"}, {"it", "-3"}}},
                 {{2, {8, 5}, 32, kStream},
                  {3, {16, 7}, 32, kStream},
                  {4, {5, 1}, 32, kStream},
                  {8, {64, 8}, 96, kStream}},
                 {{"37", "19"}, {"4", "3"}});
}

TEST(CudaTimeStream, PingPong27PointBoxReadingNeighboursAboveAndBelow) {
  // Neighbours' columns at k-1, k and k+1: three planes a version shared.
  expect_bitwise({"examples/box27_steps/box27_steps.f90",
                  "box27_steps",
                  {"nx", "ny", "nz"},
                  "nsteps",
                  {{"w0", "0.4"}, {"w1", "0.05"}, {"w2", "0.02"}, {"w3", "0.0125"}, {"n", "0"}}},
                 k3dStream27, {{"13", "11", "9"}, {"3", "2", "1"}}, {0, 1, 2, 5, 9});
}

TEST(CudaTimeStream, SinglePrecisionPingPongsIn3D) {
  expect_bitwise({"examples/jacobi3d_pingpong_sp/jacobi3d_pingpong_sp.f90",
                  "relax7_steps",
                  {"n1", "n2", "n3"},
                  "nsweep",
                  {{"sweep", "0"}}},
                 k3dStream, {{"13", "11", "9"}, {"3", "2", "1"}}, {0, 1, 2, 5});
  expect_bitwise({"examples/box27_steps_sp/box27_steps_sp.f90",
                  "smooth27s_steps",
                  {"nx", "ny", "nz"},
                  "nit",
                  {{"c0", "0.4"}, {"c1", "0.05"}, {"c2", "0.02"}, {"c3", "0.0125"}, {"it", "-1"}}},
                 k3dStream27, {{"13", "11", "9"}}, {0, 1, 2, 5});
}

TEST(CudaTimeStream, HeatIn3DWithAFaceFromATableAndACopyBackOfTheWholeArray) {
  // The face is a stage at a constant plane of the streamed dimension.
  expect_bitwise({"tests/inputs/timeloop/heat3d_face.f90",
                  "heat3d_steps",
                  {"nx", "ny", "nz"},
                  "nt",
                  {{"dt", "0.05"}, {"it", "-2"}}},
                 k3dStream, {{"13", "11", "9"}, {"2", "3", "1"}}, {0, 1, 2, 5, 9});
}

TEST(CudaTimeStream, LegacyOceanStoredIKJWithASurfaceSweepAndACopyBack) {
  // Streamed along j (the slowest); the surface sweep is at a constant k.
  expect_bitwise({"tests/inputs/timeloop/ocean3d.f",
                  "ocean_steps",
                  {"nx", "nz", "ny"},
                  "nt",
                  {{"dt", "0.1"}, {"n", "0"}}},
                 k3dStream, {{"13", "5", "9"}, {"1", "2", "3"}}, {0, 1, 2, 5, 9});
}

// In 2D the streaming form walks y: FDTD's stages read the field they
// write and a source table by the time variable.
// The last two hold exactly the block's columns for heat (32 = 24 + 2 x 4;
// 16 = 10 + 2 x 3, two a thread), so their steady passes run the columns
// beyond a narrower tile (the last in x, a shorter last chunk) untested.
const std::vector<Config> k2dStream = {{1, {8, 0}, 32, kStream}, {2, {13, 0}, 64, kStream},
                                       {3, {5, 0}, 16, kStream}, {4, {64, 0}, 128, kStream},
                                       {2, {1, 0}, 8, kStream},  {4, {24, 0}, 32, kStream},
                                       {3, {10, 0}, 8, kStream}};

TEST(CudaTimeStream, FdtdThreeFieldsAndHeatWithACopyBackIn2D) {
  expect_bitwise(
      {"examples/fdtd2d_steps/fdtd2d_steps.f90", "fdtd_steps", {"nx", "ny"}, "tmax", {{"t", "0"}}},
      k2dStream, {{"37", "19"}, {"6", "5"}}, {0, 1, 2, 5, 9});
  expect_bitwise({"examples/heat2d_steps/heat2d_steps.f90",
                  "heat_steps",
                  {"nx", "ny"},
                  "nt",
                  {{"alpha", "0.1"}, {"it", "-3"}}},
                 k2dStream, {{"37", "19"}, {"4", "3"}}, {0, 1, 2, 5, 9});
}

TEST(CudaTimeTile, LegacyDiffusionWithAProfileAndABoundaryColumn) {
  expect_bitwise({"tests/inputs/timeloop/diffk.f",
                  "diffk_steps",
                  {"nx", "ny"},
                  "nstep",
                  {{"dt", "0.1"}, {"n", "7"}}},
                 k2d, {{"37", "19"}, {"3", "8"}});
}

TEST(CudaTimeTile, OneDimensionalSmoother) {
  expect_bitwise({"tests/inputs/timeloop/smooth1d.f90",
                  "smooth_steps",
                  {"n"},
                  "nsteps",
                  {{"w", "0.25"}, {"k", "0"}}},
                 {{1, {7}, 32}, {2, {16}, 16}, {3, {5}, 8}, {4, {100}, 64}}, {{"37"}, {"2"}});
}

TEST(CudaTimeTile, TheSharedMemoryBoundCountsEveryStateGridsBufferAndTheBoxes) {
  Lowered low;
  lower({"examples/jacobi3d_pingpong/jacobi3d_pingpong.f", "jacpp", {}, "", {}}, low);
  ASSERT_FALSE(HasFatalFailure());
  // Two double grids, reach 2 each way per step: (8 + 3*4)^3 doubles each,
  // plus 2 boxes of 3 longs per stage of the chunk (2 stages x 3 steps) and
  // per state grid.
  CudaTimeTileParams p = params({3, {8, 8, 8}, 128}, "t");
  EXPECT_EQ(cuda_time_tile_shared_bytes(*low.loop, low.plan, p),
            2 * 20 * 20 * 20 * 8 + 8 * 2 * 3 * (3 * 2 + 2));
  p.tile = {8, 8};
  EXPECT_THROW(print_cuda_time_tiled_loop(*low.loop, low.plan, low.sweeps, p),
               std::invalid_argument);
}

TEST(CudaTimeStream, TheSharedMemoryBoundCountsTheRingOfEveryVersion) {
  Lowered low;
  lower({"examples/jacobi3d_pingpong/jacobi3d_pingpong.f", "jacpp", {}, "", {}}, low);
  ASSERT_FALSE(HasFatalFailure());
  // T = 2: b from a, a from b, twice. Lags 1, 2, 3, 4 planes. A point's
  // own column is in registers; the neighbours' in shared memory, one plane
  // (k) of each version read at (i+-1, j+-1): a as loaded and the first
  // three stages' (b as loaded and the last stage's are not), each ring two
  // planes deep (the plane read and the one stored in the same pass): 8
  // planes of (32 + 2*4) x (8 + 2*4) doubles, with a padding of a step's
  // reach (2 columns and 2 rows of 40) before and after them for the columns
  // beyond the block's; plus the boxes and the tested passes' bounds along z
  // (2 a stage of a step and 4 a grid, ints, 48 bytes).
  CudaTimeTileParams p = params({2, {32, 8, 0}, 256, CudaTimeTileForm::Streaming}, "t");
  EXPECT_EQ(cuda_time_tile_shared_bytes(*low.loop, low.plan, p),
            48 + 2 * (2 + 2 * 40) * 8 + 4 * 2 * 40 * 16 * 8 + 8 * 2 * 3 * (2 * 2 + 2));
}

// One barrier a plane: with gap 1 every neighbour's column a stage reads is
// at least a plane behind its version's newest (so made in an earlier pass).
// A 7-point star reads its neighbours at k only, which its least lags already
// keep a plane behind; a 27-point box also reads them at k+1 and lags one
// plane more a sweep. The CPU keeps the least lags (gap 0).
TEST(CudaTimeStream, NeighboursColumnsAreReadAPlaneBehindSoOneBarrierAPlaneSuffices) {
  auto lags = [](const TimeStreamPlan &x) {
    std::vector<int64_t> l;
    for (const TimeStreamInstance &in : x.instances)
      l.push_back(in.lag);
    return l;
  };
  auto least_from = [](const TimeStreamPlan &x) {
    int64_t from = 1 << 20;
    for (const TimeStreamVersion &v : x.versions)
      if (v.ring)
        from = std::min(from, v.from);
    return from;
  };
  Lowered star, box;
  lower({"examples/jacobi3d_pingpong/jacobi3d_pingpong.f", "jacpp", {}, "", {}}, star);
  lower({"examples/box27_steps/box27_steps.f90", "box27_steps", {}, "", {}}, box);
  ASSERT_FALSE(HasFatalFailure());
  TimeStreamPlan s0 = plan_time_stream(*star.loop, star.plan, 2, 0),
                 s1 = plan_time_stream(*star.loop, star.plan, 2, 1);
  EXPECT_EQ(lags(s0), (std::vector<int64_t>{1, 2, 3, 4}));
  EXPECT_EQ(lags(s1), lags(s0));
  EXPECT_EQ(least_from(s1), 1);
  TimeStreamPlan b0 = plan_time_stream(*box.loop, box.plan, 2, 0),
                 b1 = plan_time_stream(*box.loop, box.plan, 2, 1);
  ASSERT_EQ(b0.instances.size(), b1.instances.size());
  EXPECT_EQ(least_from(b0), 0);
  EXPECT_EQ(least_from(b1), 1);
  for (size_t j = 0; j < b1.instances.size(); ++j)
    EXPECT_EQ(b1.instances[j].lag, 2 * b0.instances[j].lag) << j;
}

// The kernel's plane loop: one barrier a pass (of the steady planes and of the
// others), none a stage; the steady planes' pass tests no plane against a box
// along z (the columns' x-y bits only), the others test each.
TEST(CudaTimeStream, OneBarrierAPassAndNoZTestsInTheSteadyPlanes) {
  Lowered l;
  lower({"examples/jacobi3d_pingpong/jacobi3d_pingpong.f", "jacpp", {}, "", {}}, l);
  ASSERT_FALSE(HasFatalFailure());
  CudaTimeStream k =
      print_cuda_time_stream(*l.loop, l.plan, l.sweeps, params({2, {32, 8, 0}, 640, kStream}, "t"));
  auto count = [](const std::string &s, const std::string &what) {
    size_t n = 0;
    for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1))
      ++n;
    return n;
  };
  // Two passes, the tile's end, and the tile's bounds along z in shared memory.
  EXPECT_EQ(count(k.body, "__syncthreads();"), 4u) << k.body;
  size_t steady = k.body.find("while (f2s_wz + ");
  ASSERT_NE(steady, std::string::npos);
  size_t end = k.body.find("__syncthreads();", steady);
  std::string pass = k.body.substr(steady, end - steady), rest = k.body.substr(end);
  // The steady passes go in groups starting where every ring slot is 0, so
  // a slot is the plane's distance from f2s_zr, a constant once unrolled.
  EXPECT_NE(pass.find("const int f2s_zr = f2s_wz - f2s_ph;"), std::string::npos) << pass;
  // Stage s computes its sweep's domain, whose first plane along z is
  // f2s_zs[2 s] (Stream::computes_domain: double grids), read from shared
  // memory where a pass tests it.
  for (int st = 0; st < 2; ++st) {
    std::string z = "f2s_zs[" + std::to_string(2 * st) + "] <= f2s_z";
    EXPECT_EQ(count(pass, z), 0u) << z;
    EXPECT_GT(count(rest, z), 0u) << z;
  }
  EXPECT_EQ(count(pass, "f2s_comp["), 0u);
  EXPECT_EQ(count(pass, "(int)f2s_need[4] <="), 0u);
  EXPECT_GT(count(rest, "(int)f2s_need[4] <="), 0u);
}

// A stage whose statements read only the state grids computes at every
// column and keeps the previous version outside its domain with a select
// (no branch around it); one reading another grid keeps the branch, which
// keeps that grid's reads inside the loop's bounds. Where the threads hold
// exactly the block's columns, the steady passes do not test the columns
// beyond the tile. The launch bounds ask for two blocks where the register
// model has room for two and clearly not for three.
TEST(CudaTimeStream, StagesSelectWhereTheyReadOnlyTheStateGrids) {
  Lowered heat, face;
  lower({"examples/heat2d_steps/heat2d_steps.f90", "heat_steps", {}, "", {}}, heat);
  lower({"tests/inputs/timeloop/heat3d_face.f90", "heat3d_steps", {}, "", {}}, face);
  ASSERT_FALSE(HasFatalFailure());
  auto steady_pass = [](const std::string &body) {
    size_t at = body.find("while (f2s_wz + ");
    return at == std::string::npos ? std::string()
                                   : body.substr(at, body.find("__syncthreads();", at) - at);
  };
  CudaTimeStream t4 = print_cuda_time_stream(*heat.loop, heat.plan, heat.sweeps,
                                             params({4, {248, 0}, 256, kStream}, "t"));
  std::string pass = steady_pass(t4.body);
  ASSERT_FALSE(pass.empty()) << t4.body;
  EXPECT_NE(pass.find("const bool f2s_in = "), std::string::npos) << pass;
  EXPECT_NE(pass.find(" = f2s_in ? "), std::string::npos) << pass;
  EXPECT_EQ(pass.find("} else {"), std::string::npos) << pass;
  EXPECT_EQ(pass.find("f2s_q >= f2s_hpl"), std::string::npos) << pass;
  EXPECT_NE(t4.body.find("f2s_q >= f2s_hpl"), std::string::npos); // the other passes test
  // 256 threads for 250 columns: the steady passes test them.
  std::string narrow = steady_pass(print_cuda_time_stream(*heat.loop, heat.plan, heat.sweeps,
                                                          params({4, {242, 0}, 256, kStream}, "t"))
                                       .body);
  EXPECT_NE(narrow.find("f2s_q >= f2s_hpl"), std::string::npos) << narrow;
  // Room for three blocks of 256 threads at T = 4; at T = 6 the model
  // (88 registers) is within a tenth of three blocks' 85, where ptxas took
  // 80 itself; room for two only at T = 8 (96).
  EXPECT_EQ(t4.min_blocks, 1);
  EXPECT_EQ(print_cuda_time_stream(*heat.loop, heat.plan, heat.sweeps,
                                   params({6, {244, 0}, 256, kStream}, "t"))
                .min_blocks,
            1);
  EXPECT_EQ(print_cuda_time_stream(*heat.loop, heat.plan, heat.sweeps,
                                   params({8, {240, 0}, 256, kStream}, "t"))
                .min_blocks,
            2);
  // The 3D heat's sweeps read grids of their own (a conductivity by depth,
  // the face's table by step): both branch.
  std::string body = print_cuda_time_stream(*face.loop, face.plan, face.sweeps,
                                            params({2, {8, 8, 0}, 144, kStream}, "t"))
                         .body;
  EXPECT_NE(body.find("} else {"), std::string::npos) << body;
  EXPECT_EQ(body.find("const bool f2s_in = "), std::string::npos) << body;
}

// The steady passes' ring slots are constants (groups of passes from a
// plane whose slots are 0) where the columns' registers leave room, and
// computed from the plane where they do not: there ptxas spilled more with
// the constants (constant_slots in codegen/CudaTimeStream.cpp).
TEST(CudaTimeStream, RingSlotsAreConstantsOfThePassWhereTheRegistersLeaveRoom) {
  Lowered jac, box;
  lower({"examples/jacobi3d_pingpong/jacobi3d_pingpong.f", "jacpp", {}, "", {}}, jac);
  lower({"examples/box27_steps/box27_steps.f90", "box27_steps", {}, "", {}}, box);
  ASSERT_FALSE(HasFatalFailure());
  // 30 registers of a thread's 96 at 640 threads.
  std::string roomy = print_cuda_time_stream(*jac.loop, jac.plan, jac.sweeps,
                                             params({2, {32, 8, 0}, 640, kStream}, "t"))
                          .body;
  EXPECT_NE(roomy.find("const int f2s_zr = f2s_wz - f2s_ph;"), std::string::npos);
  EXPECT_NE(roomy.find("f2s_sa += (int)((unsigned)(f2s_zb - f2s_sa) & 1u);"), std::string::npos);
  // 7 columns a thread (28 x 28 of them, 128 threads): more than 255.
  std::string tight = print_cuda_time_stream(*box.loop, box.plan, box.sweeps,
                                             params({3, {16, 16, 0}, 128, kStream}, "t"))
                          .body;
  EXPECT_EQ(tight.find("f2s_ph"), std::string::npos);
  EXPECT_NE(tight.find("for (; f2s_wz <= f2s_sb; ++f2s_wz) {\n"), std::string::npos);
}

// A grid the chunk reads only where its first writer does not compute (b of
// a ping-pong, unew of a copy back) moves only outside that writer's domain
// between chunks; a grid a stage reads first (a, u, FDTD's ex and hz) moves
// whole, as does one whose first writer is at a constant plane (FDTD's ey,
// written first by its source edge).
TEST(CudaTimeStream, AChunkButTheCallsLastLeavesTheSecondGridInPlace) {
  auto moved = [](const std::string &file, const std::string &name) {
    Lowered l;
    lower({file, name, {}, "", {}}, l);
    std::vector<std::string> out;
    if (::testing::Test::HasFatalFailure())
      return out;
    std::vector<bool> m = cuda_time_stream_moved(
        *l.loop, l.plan, params({2, std::vector<int64_t>(l.plan.rank, 8), 64, kStream}, "t"));
    for (size_t g = 0; g < m.size(); ++g)
      if (m[g])
        out.push_back(l.plan.state[g]);
    return out;
  };
  EXPECT_EQ(moved("examples/jacobi3d_pingpong/jacobi3d_pingpong.f", "jacpp"),
            (std::vector<std::string>{"a"}));
  EXPECT_EQ(moved("examples/heat2d_steps/heat2d_steps.f90", "heat_steps"),
            (std::vector<std::string>{"u"}));
  EXPECT_EQ(moved("examples/fdtd2d_steps/fdtd2d_steps.f90", "fdtd_steps").size(), 3u);
}

TEST(CudaTimeTile, ATileTooLargeForTheGpuRunsTheFallbackOrStopsWithTheReason) {
  Lowered low;
  lower({"examples/heat2d_steps/heat2d_steps.f90", "heat_steps", {}, "", {}}, low);
  ASSERT_FALSE(HasFatalFailure());
  test::ScratchDir dir;
  // 48x48 plus 4 steps of reach 2: 56*56*8 bytes = 25088 per grid, 50176
  // for both, above a GPU that allows 40000 bytes a block.
  CudaTimeTileParams with = params({4, {48, 48}, 64}, "with_fallback"),
                     without = params({4, {48, 48}, 64}, "without_fallback");
  with.fallback = "ref_loop";
  std::string cuda = print_cuda_prelude() +
                     print_cuda_time_tiled_loop(*low.loop, low.plan, low.sweeps, with) +
                     print_cuda_time_tiled_loop(*low.loop, low.plan, low.sweeps, without) +
                     "extern \"C\" int runnable(void) { return f2s_without_fallback_runnable(); "
                     "}\n";
  std::string ref_o = (dir.path() / "ref.o").string(), cuda_o = (dir.path() / "cuda.o").string(),
              main_o = (dir.path() / "main.o").string(), bin = (dir.path() / "check").string();
  ASSERT_TRUE(run({c_compiler(), "-O1", "-std=gnu11", "-ffp-contract=off", "-pthread", "-c",
                   dir.write("ref.c", reference_c(low)), "-o", ref_o})
                  .ok());
  ProcessResult r = run({"g++", "-std=c++20", "-O1", "-ffp-contract=off", "-pthread", "-w", "-I",
                         source_path("tests/cuda/emulation"), "-x", "c++",
                         dir.write("tiled.cu", test::emulated(cuda)), "-c", "-o", cuda_o});
  ASSERT_TRUE(r.ok()) << r.err.substr(0, 4000);
  std::string program = checking_program(*low.loop, {"with_fallback", "without_fallback"});
  program.replace(program.find("int main"), 8, "int runnable(void);\nint main");
  program.replace(program.find("  printf(\"OK\\n\");"), 0,
                  "  printf(\"runnable %d\\n\", runnable());\n");
  ASSERT_TRUE(
      run({c_compiler(), "-O1", "-std=gnu11", "-c", dir.write("main.c", program), "-o", main_o})
          .ok());
  ASSERT_TRUE(run({"g++", "-pthread", "-o", bin, main_o, ref_o, cuda_o, "-lm"}).ok());
  // Fits (sm_90's 227 KiB): both run on the GPU.
  r = run({bin, "60", "60", "3", "0.1", "0"});
  EXPECT_EQ(r.out, "runnable 1\nOK\n") << r.err;
  Command small;
  small.argv = {bin, "60", "60", "3", "0.1", "0"};
  small.env = {{"F2S_EMU_SHARED_OPTIN", "40000"}};
  r = run_process(small);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.err.find("without_fallback needs 50"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("more than this GPU allows; choose a smaller time tile"), std::string::npos)
      << r.err;
  // At 37x19 the buffers are only as large as the grids (39x21): it fits.
  small.argv = {bin, "37", "19", "3", "0.1", "0"};
  r = run_process(small);
  EXPECT_EQ(r.out, "runnable 0\nOK\n") << r.err;
}

// The loop's grids cross to the device once per call (each in once, the
// state back once), whatever the number of chunks; inside a data region
// nothing moves, the host keeps its values until the region's exit, and the
// exit brings back the tiled loop's results.
const char *kResidencyProgram = R"(#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
void ref_loop(int32_t, int32_t, int32_t, double, double *, double *, int32_t *);
void tiled(int32_t, int32_t, int32_t, double, double *, double *, int32_t *);
long long transfers(void);
void data_enter(const void *p, size_t bytes);
void data_exit(void *p, size_t bytes);
int main(void) {
  const int nx = 37, ny = 19;
  const size_t n = (nx + 2) * (ny + 2), bytes = n * sizeof(double);
  double *u0 = malloc(bytes), *v0 = malloc(bytes), *u = malloc(bytes), *v = malloc(bytes);
  double *a = malloc(bytes), *b = malloc(bytes);
  for (size_t e = 0; e < n; ++e) {
    u0[e] = (double)((e * 7919) % 1009) / 1009.0;
    v0[e] = (double)((e * 104729) % 997) / 997.0;
  }
  int32_t it = 0, it2 = 0;
  memcpy(u, u0, bytes);
  memcpy(v, v0, bytes);
  ref_loop(nx, ny, 7, 0.1, u, v, &it);
  memcpy(a, u0, bytes);
  memcpy(b, v0, bytes);
  long long t0 = transfers();
  tiled(nx, ny, 7, 0.1, a, b, &it2);
  printf("call %lld same %d\n", transfers() - t0,
         !memcmp(a, u, bytes) && !memcmp(b, v, bytes) && it == it2);
  memcpy(a, u0, bytes);
  memcpy(b, v0, bytes);
  data_enter(a, bytes);
  data_enter(b, bytes);
  t0 = transfers();
  tiled(nx, ny, 7, 0.1, a, b, &it2);
  printf("region %lld host %d\n", transfers() - t0, !memcmp(a, u0, bytes) && !memcmp(b, v0, bytes));
  data_exit(a, bytes);
  data_exit(b, bytes);
  printf("exit same %d\n", !memcmp(a, u, bytes) && !memcmp(b, v, bytes));
  return 0;
}
)";

TEST(CudaTimeTile, GridsCrossOncePerCallAndNotAtAllInsideADataRegion) {
  Lowered low;
  lower({"examples/heat2d_steps/heat2d_steps.f90", "heat_steps", {}, "", {}}, low);
  ASSERT_FALSE(HasFatalFailure());
  test::ScratchDir dir;
  // 7 steps in chunks of 2: 4 launches, the last writing the second version.
  std::string cuda = print_cuda_prelude() +
                     print_cuda_time_tiled_loop(*low.loop, low.plan, low.sweeps,
                                                params({2, {16, 8}, 64}, "tiled")) +
                     "extern \"C\" long long transfers(void) { return f2s_cuda_transfer_count; }\n"
                     "extern \"C\" void data_enter(const void *p, size_t b) { f2s_cuda_enter(p, "
                     "b); }\n"
                     "extern \"C\" void data_exit(void *p, size_t b) { f2s_cuda_exit(p, b, 1); }\n";
  std::string ref_o = (dir.path() / "ref.o").string(), cuda_o = (dir.path() / "cuda.o").string(),
              main_o = (dir.path() / "main.o").string(), bin = (dir.path() / "check").string();
  ASSERT_TRUE(run({c_compiler(), "-O1", "-std=gnu11", "-ffp-contract=off", "-pthread", "-c",
                   dir.write("ref.c", reference_c(low)), "-o", ref_o})
                  .ok());
  ProcessResult r = run({"g++", "-std=c++20", "-O1", "-ffp-contract=off", "-pthread", "-w", "-I",
                         source_path("tests/cuda/emulation"), "-x", "c++",
                         dir.write("tiled.cu", test::emulated(cuda)), "-c", "-o", cuda_o});
  ASSERT_TRUE(r.ok()) << r.err.substr(0, 4000);
  r = run({c_compiler(), "-O1", "-std=gnu11", "-c", dir.write("main.c", kResidencyProgram), "-o",
           main_o});
  ASSERT_TRUE(r.ok()) << r.err;
  ASSERT_TRUE(run({"g++", "-pthread", "-o", bin, main_o, ref_o, cuda_o, "-lm"}).ok());
  r = run({bin});
  EXPECT_EQ(r.out, "call 4 same 1\nregion 0 host 1\nexit same 1\n") << r.err;
}

TEST(CudaTimeTile, CompilesWithNvccForSm90) {
  if (!find_nvcc())
    GTEST_SKIP() << "nvcc not found";
  std::string cuda = print_cuda_prelude();
  int i = 0;
  for (const Loop &l :
       {Loop{"examples/fdtd2d_steps/fdtd2d_steps.f90", "fdtd_steps", {}, "", {}},
        Loop{"examples/heat2d_steps/heat2d_steps.f90", "heat_steps", {}, "", {}},
        Loop{"examples/jacobi3d_pingpong/jacobi3d_pingpong.f", "jacpp", {}, "", {}},
        Loop{"tests/inputs/timeloop/diffk.f", "diffk_steps", {}, "", {}},
        Loop{"tests/inputs/timeloop/ocean3d.f", "ocean_steps", {}, "", {}},
        Loop{"tests/inputs/timeloop/heat3d_face.f90", "heat3d_steps", {}, "", {}}}) {
    Lowered low;
    lower(l, low);
    ASSERT_FALSE(HasFatalFailure());
    // Large enough to opt in to more than 48 KiB.
    CudaTimeTileParams p =
        params({4, std::vector<int64_t>(low.plan.rank, 24), 256}, "tiled" + std::to_string(i++));
    cuda += print_cuda_time_tiled_loop(*low.loop, low.plan, low.sweeps, p);
    if (low.plan.rank < 2)
      continue;
    p.form = CudaTimeTileForm::Streaming;
    p.symbol = "streamed" + std::to_string(i);
    cuda += print_cuda_time_tiled_loop(*low.loop, low.plan, low.sweeps, p);
  }
  test::ScratchDir dir;
  Command c;
  // The library's flags (nvcc_flags()), for sm_90 whatever F2S_CUDA_ARCH says.
  c.argv = {*find_nvcc(),
            "-O3",
            "-arch=sm_90",
            "--fmad=false",
            "-std=c++17",
            "-c",
            dir.write("tiled.cu", cuda),
            "-o",
            (dir.path() / "tiled.o").string()};
  c.timeout_s = 600;
  ProcessResult r = run_process(c);
  EXPECT_TRUE(r.ok()) << r.err.substr(0, 8000) << r.out;
}

} // namespace
} // namespace f2s
