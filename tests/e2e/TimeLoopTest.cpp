// Time loops (`!$f2s stencil timesteps`) through the whole path: the library
// procedure that runs every step, linked by a Fortran program that runs the
// gfortran-compiled loop beside it at trip counts 0, 1, even and odd.
#include "e2e/E2E.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <set>

#include <fstream>
#include <sstream>

namespace f2s {
namespace {

namespace fs = std::filesystem;
using test::f2stencil;
using test::run;
using test::source;

struct TimeLoopInput {
  std::string name, ext;
  std::vector<std::vector<std::string>> sizes; ///< besides the program's default
  bool example =
      true; ///< examples/<name>/ (main.f90), else tests/inputs/timeloop/ (<name>_main.f90)

  std::string source_file() const {
    return example ? source("examples/" + name + "/" + name + ext)
                   : source("tests/inputs/timeloop/" + name + ext);
  }
  std::string main_file() const {
    return example ? source("examples/" + name + "/main.f90")
                   : source("tests/inputs/timeloop/" + name + "_main.f90");
  }
};

std::ostream &operator<<(std::ostream &out, const TimeLoopInput &in) {
  return out << in.name;
}

/// Builds the loop's source for the CPU targets (untuned, or tuned with one
/// repetition) and runs its checking program against it at every size, with
/// the threads of the tuning and with 3. Returns the record.
nlohmann::json expect_matches(const TimeLoopInput &in, bool tuned,
                              const std::vector<std::string> &options = {}) {
  test::ScratchDir dir;
  fs::path out = dir.path() / "out";
  std::string src = in.source_file();
  std::vector<std::string> args = {tuned ? "--reps=1" : "--no-tune",
                                   "-q",
                                   "--target=c,pthreads",
                                   "--lib=f2s_" + in.name,
                                   "-o",
                                   out.string(),
                                   src};
  args.insert(args.begin(), options.begin(), options.end());
  ProcessResult r = f2stencil(args);
  EXPECT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  if (!r.ok())
    return {};
  std::string exe = (dir.path() / in.name).string();
  r = run({"gfortran", "-O2", "-w", "-o", exe, src, in.main_file(), "-I" + out.string(),
           (out / ("libf2s_" + in.name + ".a")).string(), "-lpthread"});
  EXPECT_TRUE(r.ok()) << r.err;
  std::vector<std::vector<std::string>> sizes = in.sizes;
  sizes.insert(sizes.begin(), std::vector<std::string>{});
  for (std::vector<std::string> size : sizes)
    for (const char *threads : {"", "3"}) {
      std::vector<std::pair<std::string, std::string>> env;
      if (*threads)
        env.push_back({"F2S_NUM_THREADS", threads});
      size.insert(size.begin(), exe);
      ProcessResult c = run(size, env);
      size.erase(size.begin());
      EXPECT_TRUE(c.ok() && c.out.find("PASSED") != std::string::npos)
          << in.name << " at " << (size.empty() ? "its default size" : size[0] + "...")
          << (*threads ? " on 3 threads" : "") << ": " << c.describe() << "\n"
          << c.out << c.err;
    }
  return nlohmann::json::parse(std::ifstream(out / ("f2s_" + in.name + ".json")));
}

class TimeLoop : public ::testing::TestWithParam<TimeLoopInput> {};

TEST_P(TimeLoop, UntunedLibraryRunsEveryStepAsTheOriginal) {
  nlohmann::json record = expect_matches(GetParam(), false);
  ASSERT_TRUE(record.contains("time_loops")) << record.dump();
  EXPECT_FALSE(record["time_loops"].at(0)["sweeps"].empty());
}

// Tiled in time (--time-tile=N: N steps per tile, the model's tile), the
// loops that can be: the same results, bitwise, for trip counts that N does
// and does not divide, on the tuning's threads and on 3; the record says so.
TEST_P(TimeLoop, TiledInTimeRunsEveryStepAsTheOriginal) {
  // An EXIT stops after any step, and pointer swaps are not followed by
  // tiles: those loops run step by step, and the record says why.
  const std::string &name = GetParam().name;
  bool tileable = name != "solve2d" && name != "swap2d" && name != "swap1d_pairs";
  for (const char *n : {"2", "3"}) {
    nlohmann::json record = expect_matches(GetParam(), false, {std::string("--time-tile=") + n});
    ASSERT_TRUE(record.contains("time_loops")) << record.dump();
    const nlohmann::json &tiling = record["time_loops"].at(0)["time_tiling"];
    if (!tileable) {
      EXPECT_FALSE(tiling["possible"].get<bool>()) << tiling.dump();
      EXPECT_FALSE(tiling["reason"].get<std::string>().empty());
      break;
    }
    ASSERT_TRUE(tiling["possible"].get<bool>()) << tiling.dump();
    ASSERT_EQ(tiling["choices"].size(), 1u) << tiling.dump();
    EXPECT_TRUE(tiling["choices"][0]["tiled"].get<bool>());
    EXPECT_EQ(tiling["choices"][0]["time_tile"], std::stol(n));
  }
}

// The streaming form (--time-tile-form=streaming: tiles of all but the
// slowest dimension walked along it, codegen/CTimeStream.h) on the CPU: the
// same results, bitwise; the record's choice names the form. Loops of rank 1
// keep the overlapped form.
TEST_P(TimeLoop, StreamingInTimeRunsEveryStepAsTheOriginal) {
  const std::string &name = GetParam().name;
  if (name == "solve2d" || name == "swap2d" || name == "swap1d_pairs")
    GTEST_SKIP() << "runs step by step (TiledInTimeRunsEveryStepAsTheOriginal)";
  nlohmann::json record =
      expect_matches(GetParam(), false, {"--time-tile=3", "--time-tile-form=streaming"});
  ASSERT_TRUE(record.contains("time_loops")) << record.dump();
  const nlohmann::json &choice = record["time_loops"].at(0)["time_tiling"]["choices"].at(0);
  EXPECT_TRUE(choice["tiled"].get<bool>()) << choice.dump();
  EXPECT_EQ(choice["time_tile"], 3);
  EXPECT_EQ(choice["form"], "streaming") << choice.dump();
}

const std::vector<std::vector<std::string>> k2D = {{"1", "1"}, {"2", "77"}, {"130", "3"}};

INSTANTIATE_TEST_SUITE_P(
    Loops, TimeLoop,
    ::testing::Values(
        TimeLoopInput{"heat2d_steps", ".f90", k2D}, TimeLoopInput{"fdtd2d_steps", ".f90", k2D},
        TimeLoopInput{"solve2d", ".f90", k2D, false}, TimeLoopInput{"swap2d", ".f90", k2D, false},
        TimeLoopInput{"swap1d_pairs", ".f90", {{"1"}, {"2"}, {"130"}}, false},
        TimeLoopInput{"jacobi3d_pingpong", ".f", {{"1", "1", "1"}, {"7", "2", "33"}}},
        TimeLoopInput{"box27_steps", ".f90", {{"1", "1", "1"}, {"9", "4", "6"}}},
        // The benchmark's other rows (bench/time_loops.list): a 9-point ping-pong
        // under OpenMP, and single precision for each stencil.
        TimeLoopInput{"jacobi2d9_steps", ".f90", k2D},
        TimeLoopInput{"jacobi2d9_steps_sp", ".f90", k2D},
        TimeLoopInput{"jacobi3d_pingpong_sp", ".f90", {{"1", "1", "1"}, {"7", "2", "33"}}},
        TimeLoopInput{"box27_steps_sp", ".f90", {{"1", "1", "1"}, {"9", "4", "6"}}},
        TimeLoopInput{"fdtd2d_steps_sp", ".f90", k2D},
        // Fixed form, (i,k,j) storage, OpenMP around the sweeps, shared labels, a
        // surface sweep at a constant level, 1D and 2D coefficients read only.
        TimeLoopInput{
            "ocean3d", ".f", {{"1", "1", "1"}, {"9", "2", "4"}, {"40", "3", "2"}}, false}));

// Tuned sweeps (each its own search) make the same loop: the ping-pong
// Jacobi's two sweeps are verified candidates, and the record lists the loop
// with both.
TEST(TimeLoops, TunedPingPongMatchesTheOriginal) {
  nlohmann::json record =
      expect_matches({"jacobi3d_pingpong", ".f", {{"1", "1", "1"}, {"7", "2", "33"}}}, true);
  ASSERT_TRUE(record.contains("time_loops"));
  EXPECT_EQ(record["time_loops"][0]["sweeps"], nlohmann::json({"jacpp_1", "jacpp_2"}));
  EXPECT_EQ(record["time_loops"][0]["writes_scalars"], nlohmann::json({"it"}));
  for (const nlohmann::json &k : record["kernels"]) {
    EXPECT_TRUE(k["tuned"].get<bool>());
    for (const nlohmann::json &c : k["candidates"])
      EXPECT_EQ(c["status"], "verified") << c.dump();
  }
  // Tuning measured the steps and the time tiles, each checked against the
  // serial steps, and the library runs the faster (the checks above).
  const nlohmann::json &choice = record["time_loops"][0]["time_tiling"]["choices"].at(0);
  EXPECT_EQ(choice["target"], "pthreads");
  ASSERT_TRUE(choice.contains("candidates")) << choice.dump();
  EXPECT_GE(choice["candidates"].size(), 2u);
  bool streamed = false;
  for (const nlohmann::json &c : choice["candidates"]) {
    EXPECT_EQ(c["status"], "verified") << c.dump();
    streamed = streamed || c["variant"] == "streamed";
  }
  EXPECT_TRUE(streamed) << "no candidate of the streaming form: " << choice.dump();
  EXPECT_GT(choice["measured"]["steps_s"].get<double>(), 0);
  EXPECT_GT(choice["measured"]["tiled_s"].get<double>(), 0);
  // 40x30x20 fits any last-level cache: the choice says what that means.
  EXPECT_NE(choice["why"].get<std::string>().find("fit the last-level cache"), std::string::npos)
      << choice.dump();
}

// A budget the sweeps' tuning spends before the time tiles are reached (at
// 512^3 one serial reference run takes seconds) still measures the steps
// and the likeliest tile of each form, and the choice says how many it left.
// Which forms have a tile at all depends on the cache a thread has (no
// overlapped tile of this loop fits half of a 256 KiB L2, and a CI machine
// with one failed here): the machine is pinned, through hwloc's synthetic
// topology, to one on which both forms have tiles.
TEST(TimeLoops, ABudgetStillMeasuresATileOfEachForm) {
  struct PinnedMachine {
    PinnedMachine() {
      setenv("HWLOC_SYNTHETIC",
             "pack:1 l3:1(size=32MB) l2:2(size=1MB) l1d:1(size=48KB) core:1 pu:1", 1);
    }
    ~PinnedMachine() { unsetenv("HWLOC_SYNTHETIC"); }
  } pinned;
  nlohmann::json record =
      expect_matches({"jacobi3d_pingpong", ".f", {}}, true,
                     {"--budget=0.01", "--candidates", "^(c/serial|pthreads/parallel.*)$"});
  ASSERT_TRUE(record.contains("time_loops"));
  const nlohmann::json &choice = record["time_loops"][0]["time_tiling"]["choices"].at(0);
  std::set<std::string> measured;
  for (const nlohmann::json &c : choice["candidates"]) {
    EXPECT_EQ(c["status"], "verified") << c.dump();
    measured.insert(c["variant"].get<std::string>());
  }
  EXPECT_EQ(measured, (std::set<std::string>{"steps", "streamed", "tiled"})) << choice.dump();
  EXPECT_GT(choice["measured"]["tiled_s"].get<double>(), 0) << choice.dump();
  EXPECT_NE(choice["why"].get<std::string>().find(" more not measured within --budget"),
            std::string::npos)
      << choice.dump();
}

/// The numbers a program prints, in order.
std::vector<double> numbers(const std::string &text) {
  std::istringstream in(text);
  std::vector<double> out;
  for (double v; in >> v;)
    out.push_back(v);
  return out;
}

// A main program's time loop over allocatable module arrays, rewritten into
// a call (the OpenMP pair around its sweep removed with it), prints what the
// original prints: the fields bitwise, the energy (a sum the threads
// reassociate) to rounding.
TEST(TimeLoops, WaveInAMainProgramRewrittenPrintsWhatTheOriginalPrints) {
  test::ScratchDir dir;
  fs::path out = dir.path() / "out";
  std::string src = source("tests/inputs/timeloop/wave2d.f90");
  ProcessResult r = f2stencil({"--no-tune", "-q", "--rewrite", "--target=pthreads",
                               "--lib=f2s_wave", "-o", out.string(), src});
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  std::string text = test::read_file(out / "src" / "wave2d.f90");
  EXPECT_NE(text.find("  call wave_steps(p, pold, pnew, c2, nx, ny, n, nsteps, dt, t, energy)\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("!$omp"), std::string::npos) << text;
  // The report has the loop's section, naming its sweeps in step order.
  std::string page = test::read_file(out / "f2s_wave.html");
  EXPECT_NE(page.find("<h2>Time loop <code>wave_steps</code></h2>"), std::string::npos);
  EXPECT_NE(page.find("<tr><th>each step runs</th><td><code>wave_steps_1</code>, "
                      "<code>wave_steps_2</code>, <code>wave_steps_3</code>, "
                      "<code>wave_steps_4</code> (each a kernel below)</td></tr>"),
            std::string::npos);
  std::string original = (dir.path() / "original").string(),
              rewritten = (dir.path() / "rewritten").string();
  ASSERT_TRUE(run({"gfortran", "-O2", "-o", original, src}).ok());
  r = run({"gfortran", "-O2", "-o", rewritten, "-I" + out.string(),
           (out / "src" / "wave2d.f90").string(), (out / "libf2s_wave.a").string(), "-lpthread"});
  ASSERT_TRUE(r.ok()) << r.err;
  for (const char *threads : {"1", "3"}) {
    std::vector<double> want = numbers(run({original}).out),
                        got = numbers(run({rewritten}, {{"F2S_NUM_THREADS", threads}}).out);
    ASSERT_EQ(want.size(), 3u);
    ASSERT_EQ(got.size(), 3u);
    EXPECT_EQ(got[0], want[0]);
    EXPECT_EQ(got[1], want[1]);
    EXPECT_NEAR(got[2], want[2], 1e-12 * want[2]);
  }
}

// A pointer swap's loop rewritten into a call: the program around it sees
// the fields, the pointers' targets and their bounds as the original leaves
// them, at trip counts 0, 1, even and odd.
TEST(TimeLoops, PointerSwapRewrittenLeavesThePointersAsTheOriginal) {
  test::ScratchDir dir;
  fs::path out = dir.path() / "out";
  std::string src = source("tests/inputs/timeloop/swap2d.f90");
  ProcessResult r = f2stencil({"--no-tune", "-q", "--rewrite", "--target=c,pthreads",
                               "--lib=f2s_swap2d", "-o", out.string(), src});
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  std::string text = test::read_file(out / "src" / "swap2d.f90");
  EXPECT_NE(text.find("  call relax_steps(nt, w, u, v, nx, ny, it)\n"), std::string::npos) << text;
  std::string main = dir.write("main.f90", R"(program main
  use relax_fields
  implicit none
  integer, parameter :: trips(4) = [0, 1, 2, 7]
  real(8), pointer :: a(:,:), b(:,:)
  integer :: i, j, k
  nx = 29; ny = 13
  do k = 1, size(trips)
    allocate(u(0:nx+1, 0:ny+1), v(-1:nx+2, 0:ny+1))
    do j = 0, ny + 1
      do i = 0, nx + 1
        u(i, j) = sin(0.3d0*i + 0.7d0*j)
      end do
    end do
    v = 0.5d0
    a => u
    b => v
    call relax(trips(k), 0.7d0)
    print '(4es24.16, 3i4)', sum(a), sum(b), u(1,1), v(nx,ny), lbound(u,1), lbound(v,1), &
        merge(1, 0, associated(u, a))
    deallocate(a, b)
  end do
end program main
)");
  std::string original = (dir.path() / "original").string(),
              rewritten = (dir.path() / "rewritten").string();
  r = run({"gfortran", "-O2", "-o", original, src, main});
  ASSERT_TRUE(r.ok()) << r.err;
  r = run({"gfortran", "-O2", "-o", rewritten, "-I" + out.string(),
           (out / "src" / "swap2d.f90").string(), main, (out / "libf2s_swap2d.a").string(),
           "-lpthread"});
  ASSERT_TRUE(r.ok()) << r.err;
  ProcessResult want = run({original});
  ASSERT_TRUE(want.ok()) << want.err;
  EXPECT_EQ(numbers(want.out).size(), 4u * 7u);
  for (const char *threads : {"1", "3"}) {
    ProcessResult got = run({rewritten}, {{"F2S_NUM_THREADS", threads}});
    EXPECT_TRUE(got.ok()) << got.err;
    EXPECT_EQ(got.out, want.out) << "on " << threads << " threads";
  }
}

// --emit=ir says, after each loop's plan, what each target that tiles in time
// does with it before anything is measured, and the model's traffic: the
// tile --time-tile=N forces and its bytes a point and step against the
// steps', or that tuning decides.
TEST(TimeLoops, EmitIrSaysEachTargetsTileAndTheModelsBytes) {
  const std::string heat = source("examples/heat2d_steps/heat2d_steps.f90");
  ProcessResult r = f2stencil({"--emit=ir", "--target=pthreads,cuda", "--time-tile=4", heat});
  ASSERT_TRUE(r.ok()) << r.err;
  // heat_steps: u and unew in double; the sweep reads u and writes unew
  // (8 + 3 x 8 bytes), the copy back reads unew and writes u (the same).
  EXPECT_NE(r.out.find("  pthreads: tiled in time (--time-tile=4, overlapped), T=4 tile "),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("  cuda: tiled in time (--time-tile=4, overlapped, "), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("; model bytes a point and step: the steps 64, the tile "),
            std::string::npos)
      << r.out;
  // The single-precision loop moves half the bytes.
  EXPECT_NE(r.out.find("; model bytes a point and step: the steps 32, the tile "),
            std::string::npos)
      << r.out;

  r = f2stencil({"--emit=ir", "--target=pthreads,cuda", heat});
  ASSERT_TRUE(r.ok()) << r.err;
  EXPECT_NE(r.out.find("  pthreads: tuning measures the steps against tiles of both forms "
                       "(untuned: the steps); model bytes a point and step: the steps 64\n"),
            std::string::npos)
      << r.out;
  r = f2stencil({"--emit=ir", "--target=cuda", "--time-tile=off", heat});
  ASSERT_TRUE(r.ok()) << r.err;
  EXPECT_NE(r.out.find("  cuda: step by step (--time-tile=off); model bytes a point and step: "
                       "the steps 64\n"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("  pthreads:"), std::string::npos) << r.out;
}

} // namespace
} // namespace f2s
