// --mpi (docs/mpi.md): each kernel's halo exchange, and its overlapped form,
// called by a decomposed program under mpirun, give the grid one rank
// computes, bit for bit.
#include "e2e/E2E.h"

#include "tests/cuda/Emulation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

namespace f2s {
namespace {

namespace fs = std::filesystem;
using test::f2stencil;
using test::run;
using test::source;

TEST(Mpi, ExchangeAndKernelOnEveryDecompositionEqualOneRank) {
  test::ScratchDir dir;
  fs::path lib = dir.path() / "lib";
  ProcessResult r =
      f2stencil({"--target=pthreads,c", "--mpi", "--no-tune", "-q", "--lib=f2s_smooth2d", "-o",
                 lib.string(), source("tests/inputs/mpi/smooth2d.f90")});
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  EXPECT_TRUE(fs::exists(lib / "f2s_smooth2d_mpi.c"));
  std::string exe = (dir.path() / "check").string();
  r = run({"mpif90", "-O2", "-o", exe, source("tests/inputs/mpi/smooth2d_main.f90"),
           "-I" + lib.string(), (lib / "libf2s_smooth2d.a").string(), "-lpthread"});
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  for (const char *periodic : {"0", "1"}) {
    std::string one = (dir.path() / (std::string("one") + periodic)).string();
    r = run({"mpirun", "-np", "1", exe, "1", "1", periodic, one, "exchange"},
            test::mpirun_env(dir));
    ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.out << r.err;
    std::string grid = test::read_file(one);
    ASSERT_EQ(grid.size(), 37u * 23u * 8u);
    // No garbage (1e30, what a halo holds until the exchange fills it) got in.
    for (size_t at = 0; at < grid.size(); at += 8) {
      double x;
      std::memcpy(&x, grid.data() + at, 8);
      ASSERT_LT(std::abs(x), 1e3) << "cell " << at / 8;
    }
    for (auto [px, py] :
         std::vector<std::pair<int, int>>{{1, 1}, {2, 1}, {1, 3}, {2, 2}, {3, 2}, {4, 2}})
      for (const char *mode : {"exchange", "overlap"}) {
        if (px * py == 1 && std::string(mode) == "exchange")
          continue;
        SCOPED_TRACE(std::to_string(px) + "x" + std::to_string(py) + " periodic " + periodic + " " +
                     mode);
        std::string many = (dir.path() / "many").string();
        r = run({"mpirun", "-np", std::to_string(px * py), exe, std::to_string(px),
                 std::to_string(py), periodic, many, mode},
                test::mpirun_env(dir));
        ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.out << r.err;
        EXPECT_TRUE(test::read_file(many) == test::read_file(one))
            << "the grid differs from one rank's";
      }
  }
}

/// Links `main` (Fortran) into `exe` with library `name`, whose sources
/// f2stencil wrote to `lib` (--emit=sources): its C, its MPI part and its
/// CUDA under the emulation, compiled here.
void build_emulated(const test::ScratchDir &dir, const fs::path &lib, const std::string &name,
                    const std::string &main, const std::string &exe) {
  std::string emu_o = (dir.path() / "cuda.o").string(), c_o = (dir.path() / "lib.o").string(),
              mpi_o = (dir.path() / "mpi.o").string();
  ProcessResult r =
      run({"g++", "-std=c++20", "-O1", "-ffp-contract=off", "-pthread", "-w", "-I",
           source("tests/cuda/emulation"), "-x", "c++",
           dir.write("emu.cu", test::emulated(test::read_file(lib / (name + "_cuda.cu")))), "-c",
           "-o", emu_o});
  ASSERT_TRUE(r.ok()) << r.err.substr(0, 4000);
  r = run({c_compiler(), "-O1", "-std=gnu11", "-ffp-contract=off", "-pthread", "-c",
           (lib / (name + ".c")).string(), "-o", c_o});
  ASSERT_TRUE(r.ok()) << r.err.substr(0, 4000);
  r = run({"mpicc", "-O1", "-std=gnu11", "-c", (lib / (name + "_mpi.c")).string(), "-o", mpi_o});
  ASSERT_TRUE(r.ok()) << r.err.substr(0, 4000);
  r = run({"mpif90", "-O2", "-o", exe, "-J" + dir.path().string(), (lib / (name + ".f90")).string(),
           main, c_o, mpi_o, emu_o, "-lstdc++", "-lpthread"});
  ASSERT_TRUE(r.ok()) << r.err.substr(0, 4000);
}

// The CUDA library with the grids in a data region (docs/mpi.md, "On the
// GPU"), its CUDA run under the CPU emulation (tests/cuda/emulation, whose
// device memory is apart from the host's): smooth_exchange + smooth and
// smooth_mpi exchange the device copies, packed and unpacked by kernels,
// with no update by the program and no copy of a whole grid. Every rank is
// on this host, so by default a block goes from one rank's device buffer
// into the other's (CUDA IPC, which the emulation does with shared memory
// files) and MPI carries an empty message; with F2S_MPI_CUDA_IPC=0 it is
// staged through host buffers (what this MPI, Debian's, not CUDA-aware, is
// found to need); and device buffers are handed to MPI directly
// (F2S_MPI_CUDA_AWARE=1: the emulation's device memory is host memory, as
// a CUDA-aware MPI's would be reachable). On 1D and 2D splits, periodic and
// not, with uneven parts, the gathered grid is the one rank computes on the
// CPU, byte for byte. An exchange of the host arrays would leave the
// device's halo stale and the grid different.
TEST(Mpi, DeviceGridsExchangedOnTheDeviceEqualOneRank) {
  test::ScratchDir dir;
  fs::path lib = dir.path() / "lib";
  const std::string name = "f2s_smooth2d";
  ProcessResult r =
      f2stencil({"--target=pthreads,cuda", "--mpi", "--emit=sources", "-q", "--lib=" + name, "-o",
                 lib.string(), source("tests/inputs/mpi/smooth2d.f90")});
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  std::string exe = (dir.path() / "check").string();
  build_emulated(dir, lib, name, source("tests/inputs/mpi/smooth2d_gpu_main.f90"), exe);
  if (HasFatalFailure())
    return;
  auto env = test::mpirun_env(dir);
  struct Way {
    const char *aware, *ipc;
    bool gpu_to_gpu; // what rank 0 says of its first exchange (F2S_MPI_VERBOSE=1)
  };
  const Way ways[] = {{"", "", true}, {"", "0", false}, {"1", "", false}};
  for (const char *periodic : {"0", "1"}) {
    // One rank on the CPU, no data region.
    std::string one = (dir.path() / (std::string("one") + periodic)).string();
    r = run({"mpirun", "-np", "1", exe, "1", "1", periodic, one, "host"}, env);
    ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.out << r.err;
    ASSERT_EQ(test::read_file(one).size(), 37u * 23u * 8u);
    for (auto [px, py] : std::vector<std::pair<int, int>>{{1, 1}, {2, 1}, {1, 3}, {2, 2}, {3, 2}})
      for (const char *mode : {"exchange", "overlap"})
        for (const Way &way : ways) {
          // Staged, and device buffers handed to MPI: on the 2D splits.
          if (&way != &ways[0] && (px == 1 || py == 1))
            continue;
          SCOPED_TRACE(std::to_string(px) + "x" + std::to_string(py) + " periodic " + periodic +
                       " " + mode + " F2S_MPI_CUDA_AWARE=" + way.aware +
                       " F2S_MPI_CUDA_IPC=" + way.ipc);
          std::string many = (dir.path() / "many").string();
          auto with = env;
          with.push_back({"F2S_MPI_CUDA_AWARE", way.aware});
          with.push_back({"F2S_MPI_CUDA_IPC", way.ipc});
          with.push_back({"F2S_MPI_VERBOSE", "1"});
          r = run({"mpirun", "-np", std::to_string(px * py), "-x", "F2S_MPI_CUDA_AWARE", "-x",
                   "F2S_MPI_CUDA_IPC", "-x", "F2S_MPI_VERBOSE", exe, std::to_string(px),
                   std::to_string(py), periodic, many, mode},
                  with);
          ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.out << r.err;
          EXPECT_NE(r.out.find("transfers 0\n"), std::string::npos) << r.out;
          EXPECT_TRUE(test::read_file(many) == test::read_file(one))
              << "the grid differs from one rank's";
          // Every split of more than one rank gives rank 0 a neighbour other
          // than itself.
          if (px * py > 1) {
            size_t at = r.err.find("f2stencil: rank 0, ");
            ASSERT_NE(at, std::string::npos) << r.err;
            std::string said = r.err.substr(at, r.err.find('\n', at) - at);
            EXPECT_NE(said.find("halo blocks sent GPU to GPU"), std::string::npos) << said;
            EXPECT_EQ(said.find(": 0 halo blocks sent GPU to GPU") == std::string::npos,
                      way.gpu_to_gpu)
                << said;
          }
        }
  }
}

// examples/mpi_heat3d/heat_gpu.f90 with the CUDA library under the emulation:
// heat_exchange + heat and heat_mpi on the device, on 8 ranks (a 3D split)
// with the largest change reduced, give the grid and the change of one rank
// on the CPU, and copy no grid; for the 7-point kernel and the 27-point one
// (whose exchange moves edges and corners). heat_mpi's launches defer their
// reductions to its end (docs/mpi.md), which must not change the change.
TEST(Mpi, HeatModelOnTheDeviceMatchesOneRankOnTheCpu) {
  test::ScratchDir dir;
  fs::path lib = dir.path() / "lib";
  const std::string name = "f2s_heat3d";
  ProcessResult r =
      f2stencil({"--target=pthreads,cuda", "--mpi", "--emit=sources", "-q", "--lib=" + name, "-o",
                 lib.string(), source("examples/mpi_heat3d/heat3d.f90")});
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  std::string exe = (dir.path() / "heat_gpu").string();
  build_emulated(dir, lib, name, source("examples/mpi_heat3d/heat_gpu.f90"), exe);
  if (HasFatalFailure())
    return;
  auto env = test::mpirun_env(dir);
  for (const char *points : {"7", "27"}) {
    SCOPED_TRACE(std::string(points) + "-point");
    std::string one = (dir.path() / "one").string();
    r = run({"mpirun", "-np", "1", exe, "8", "3", "host", one, points}, env);
    ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.out << r.err;
    std::string change = r.out.substr(r.out.find(" change "));
    change = change.substr(0, change.find(" transfers"));
    ASSERT_EQ(test::read_file(one).size(), 8u * 8u * 8u * 8u);
    for (const char *mode : {"exchange", "overlap"}) {
      SCOPED_TRACE(mode);
      std::string many = (dir.path() / "many").string();
      r = run({"mpirun", "-np", "8", exe, "4", "3", mode, many, points}, env);
      ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.out << r.err;
      EXPECT_NE(r.out.find(std::string("points ") + points + " grid 8x8x8"), std::string::npos)
          << r.out;
      EXPECT_NE(r.out.find(change + " transfers 0\n"), std::string::npos) << r.out << change;
      EXPECT_TRUE(test::read_file(many) == test::read_file(one))
          << "the grid differs from one rank's";
    }
    // No device on any rank (no driver): the data regions keep nothing and
    // every procedure, the overlapped one included, runs its CPU code, with
    // a note and the same grid.
    std::string many = (dir.path() / "many").string();
    auto without = env;
    without.push_back({"F2S_EMU_DEVICES", "0"});
    without.push_back({"F2S_VERBOSE", "1"});
    r = run({"mpirun", "-np", "8", "-x", "F2S_EMU_DEVICES", "-x", "F2S_VERBOSE", exe, "4", "3",
             "overlap", many, points},
            without);
    ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.out << r.err;
    EXPECT_NE(r.out.find(change + " transfers 0\n"), std::string::npos) << r.out << change;
    EXPECT_NE(r.err.find("f2stencil: no CUDA device"), std::string::npos) << r.err;
    EXPECT_TRUE(test::read_file(many) == test::read_file(one))
        << "without a device, the grid differs from one rank's";
  }
}

// examples/mpi_heat3d built with its Makefile: the overlapped procedure, the
// exchange with the tuned-library kernel, and the original Fortran kernel
// give one grid, on one rank and on eight.
TEST(Mpi, HeatModelMatchesTheOriginalOnOneAndEightRanks) {
  test::ScratchDir dir;
  fs::path app = dir.path() / "mpi_heat3d";
  fs::copy(source("examples/mpi_heat3d"), app, fs::copy_options::recursive);
  fs::remove_all(app / "lib");
  ProcessResult r = run({"make", "-C", app.string(),
                         "F2STENCIL=" + std::string(F2S_BINARY_DIR) + "/driver/f2stencil",
                         "F2S_FLAGS=--target=pthreads --mpi --no-tune -q"});
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.out << r.err;
  std::string reference;
  for (const char *mode : {"plain", "exchange", "overlap"})
    for (auto [ranks, n] : std::vector<std::pair<int, int>>{{1, 14}, {8, 7}}) {
      SCOPED_TRACE(std::string(mode) + " on " + std::to_string(ranks));
      std::string out = (dir.path() / "grid").string();
      r = run({"mpirun", "-np", std::to_string(ranks), (app / "heat").string(), std::to_string(n),
               "6", mode, out},
              test::mpirun_env(dir));
      ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.out << r.err;
      EXPECT_NE(r.out.find("grid 14x14x14"), std::string::npos) << r.out;
      std::string grid = test::read_file(out);
      ASSERT_EQ(grid.size(), 14u * 14u * 14u * 8u);
      if (reference.empty())
        reference = grid;
      EXPECT_TRUE(grid == reference) << "the grid differs from the original's on one rank";
    }
}

// What ranks cannot split is refused before anything is built, with the
// reason and the way out.
TEST(Mpi, RefusesAKernelWithALoopInOrder) {
  test::ScratchDir dir;
  std::string file = source("tests/inputs/mpi/sweep.f90");
  ProcessResult r =
      f2stencil({"--mpi", "--no-tune", "-q", "-o", (dir.path() / "out").string(), file});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(
      r.err.find("sweep.f90:4:3: error: Kernel 'sweep_1' cannot have an MPI halo exchange: its "
                 "loop over 'k' runs in order"),
      std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("or build without --mpi"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir.path() / "out"));
}

} // namespace
} // namespace f2s
