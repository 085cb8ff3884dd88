// The CUDA library of a kernel with per-size variants: each size's GPU
// choice is packaged once, the CUDA entry point dispatches by the call's
// size, the library compiles with nvcc, and under the CPU emulation of CUDA
// (tests/cuda/emulation) every call runs its size's GPU kernel and matches
// the gfortran-compiled original bit for bit.
#include "codegen/CPrinter.h"
#include "harness/CudaPackage.h"
#include "harness/CudaToolkit.h"
#include "harness/CudaVariants.h"
#include "harness/Package.h"
#include "harness/Process.h"
#include "tests/common/TestUtil.h"
#include "tests/cuda/CudaShape.h"
#include "tests/cuda/Emulation.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <regex>

namespace f2s {
namespace {

namespace fs = std::filesystem;

std::string read(const std::string &path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// The kernel at one size, choosing the default pthreads variant and the
/// CUDA mapping `gpu` (the default entry point's choice, as CUDA tuning makes
/// it).
KernelBuild build_at(const Kernel &k, std::vector<int64_t> size, const Variant &gpu) {
  Kernel at = k;
  at.tune_size = std::move(size);
  at.tune_sizes.clear();
  SearchSpace space;
  Candidate cpu = default_candidate(space, "pthreads");
  std::vector<VariantCode> code = generate_variants(at, space);
  KernelBuild b{at, {}, 0, std::nullopt, {}};
  b.choices.push_back({code[cpu.variant], cpu});
  b.choices.push_back({cuda_variant_code(at, gpu), Candidate{}});
  b.default_choice = 1;
  return b;
}

using test::emulated;

TEST(CudaPerSize, EachSizeRunsItsGpuVariantUnderEmulation) {
  if (!find_nvcc())
    GTEST_SKIP() << "nvcc not found";
  test::ScratchDir dir;
  const std::string source = std::string(F2S_SOURCE_DIR) + "/tests/inputs/e2e/relax_levels.f90";
  Kernel k = test::lower_text(dir, read(source), "relax_levels.f90");
  // Sizes 0 and 2 chose one mapping: one case, one kernel in the CUDA source.
  Variant plain = test::cuda_shape("plain", 32, 8, 1, 1, 0);
  Variant stream = test::cuda_shape("stream", 32, 4, 1, 2, 5);
  KernelBuild b = build_at(k, {6, 6, 6}, plain);
  b.other_sizes.push_back(build_at(k, {14, 12, 10}, stream));
  b.other_sizes.push_back(build_at(k, {40, 36, 32}, plain));
  PackageInfo info{"f2s_relax_levels", {source}, "test", {"-O1"}, {}};
  LibraryFiles files = package_library(info, {b});
  add_cuda_to_library(files, info, {b}, "", {});

  const std::string plain_name = "f2s_relax_level_cuda_" + plain.name,
                    stream_name = "f2s_relax_level_cuda_" + stream.name;
  for (const std::string &name : {plain_name, stream_name}) {
    // One kernel per mapping in the CUDA source, its run function declared in the C.
    std::regex kernel("__global__[^\\n]*" + name + "_kernel\\(");
    EXPECT_EQ(std::distance(
                  std::sregex_iterator(files.cuda_source.begin(), files.cuda_source.end(), kernel),
                  std::sregex_iterator()),
              1)
        << name;
    EXPECT_NE(files.c_source.find("void " + name + "_run(const struct"), std::string::npos);
  }
  // The CUDA entry point: sizes 0 and 2 in one case.
  size_t entry = files.c_source.find("void f2s_relax_levels_relax_level_cuda(");
  ASSERT_NE(entry, std::string::npos);
  std::string body = files.c_source.substr(entry, files.c_source.find("\n}\n", entry) - entry);
  EXPECT_NE(body.find("  case 0: case 2: /* tuned at 6x6x6, 40x36x32: cuda/plain"),
            std::string::npos)
      << body;
  EXPECT_NE(body.find("  default: /* tuned at 14x12x10: cuda/stream"), std::string::npos) << body;

  // nvcc compiles the library.
  fs::path out = dir.path() / "out";
  build_library(files, out);

  // Under the emulation, with the GPU path forced, each size's kernel runs.
  const std::string emu_o = (dir.path() / "lib_cuda.o").string(),
                    c_o = (dir.path() / "lib.o").string();
  Command cxx;
  cxx.argv = {"g++",
              "-std=c++20",
              "-O1",
              "-ffp-contract=off",
              "-pthread",
              "-w",
              "-I",
              std::string(F2S_SOURCE_DIR) + "/tests/cuda/emulation",
              "-x",
              "c++",
              dir.write("lib_emu.cu", emulated(files.cuda_source)),
              "-c",
              "-o",
              emu_o};
  cxx.timeout_s = 300;
  ProcessResult r = run_process(cxx);
  ASSERT_TRUE(r.ok()) << r.err.substr(0, 4000);
  Command cc;
  cc.argv = {c_compiler(),
             "-O1",
             "-std=gnu11",
             "-ffp-contract=off",
             "-pthread",
             "-c",
             dir.write("lib.c", files.c_source),
             "-o",
             c_o};
  r = run_process(cc);
  ASSERT_TRUE(r.ok()) << r.err.substr(0, 4000);
  std::string exe = (dir.path() / "check").string();
  // The checking program of PerSizeTest.cpp, less the first touch, which a
  // library whose default choice is CUDA does not have.
  std::string program =
      read(std::string(F2S_SOURCE_DIR) + "/tests/inputs/e2e/relax_levels_main.f90");
  for (auto [from, to] : std::vector<std::pair<std::string, std::string>>{
           {", relax_level_first_touch", ""},
           {"call relax_level_first_touch(n1, n2, n3, 0.8d0, 0.25d0, c, f, u, unew)",
            "c = 0; f = 0; u = 0; unew = 0"},
           // Copies to and from the device show that the GPU code ran.
           {"print '(a)', 'PASSED'",
            "print '(a, i0)', 'transfers ', f2s_relax_levels_data_transfers()\n  print '(a)', "
            "'PASSED'"},
           {"only: relax_level,", "only: f2s_relax_levels_data_transfers, relax_level,"}}) {
    size_t at = program.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    program.replace(at, from.size(), to);
  }
  Command link;
  link.argv = {
      "gfortran",          "-O2", "-o",  exe,        source,     dir.write("check.f90", program),
      "-I" + out.string(), c_o,   emu_o, "-lstdc++", "-lpthread"};
  r = run_process(link);
  ASSERT_TRUE(r.ok()) << r.err.substr(0, 4000);
  Command check;
  check.argv = {exe, "5", "6", "7", "14", "12", "10", "33", "31", "29"};
  check.env = {{"F2S_TARGET", "cuda"}};
  check.timeout_s = 300;
  r = run_process(check);
  EXPECT_TRUE(r.ok() && r.out.find("PASSED") != std::string::npos) << r.out << r.err;
  EXPECT_NE(r.out.find("size    5    6    7 runs tuned size 0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("size   14   12   10 runs tuned size 1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("size   33   31   29 runs tuned size 2"), std::string::npos) << r.out;
  // Three calls of the CUDA entry point (the default), each copying c, f, u
  // and unew in and unew out.
  EXPECT_NE(r.out.find("transfers 15\n"), std::string::npos) << r.out;
}

// K_mpi on the device of a kernel tuned at 8x8 (one point per thread) and at
// 37x23 (two points per thread along x): the box it launches for the
// interior and the strips follows the call's size, as smooth does. By working
// set the bound is sqrt(64 * 851) = 233 points: one rank (37x23) and the 2x1
// split (18 or 19 x 23) launch the second mapping, the 3x2 split (12 or 13 x
// 11 or 12) the first. Under the emulation, in a data region, the gathered
// grid equals one rank's on the CPU bit for bit.
TEST(CudaPerSize, MpiBoxOnTheDeviceFollowsTheCallsSize) {
  if (!find_nvcc())
    GTEST_SKIP() << "nvcc not found";
  test::ScratchDir dir;
  const std::string source = std::string(F2S_SOURCE_DIR) + "/tests/inputs/mpi/smooth2d.f90";
  Kernel k = test::lower_text(dir, read(source), "smooth2d.f90");
  Variant one = test::cuda_shape("one", 32, 8, 1, 1, 0);
  Variant two = test::cuda_shape("two", 32, 4, 2, 1, 0);
  KernelBuild b = build_at(k, {8, 8}, one);
  b.other_sizes.push_back(build_at(k, {37, 23}, two));
  const std::string name = "f2s_smooth2d";
  PackageInfo info{name, {source}, "test", {"-O1"}, {}, true};
  LibraryFiles files = package_library(info, {b});
  add_cuda_to_library(files, info, {b}, "", {});

  const std::string &cu = files.cuda_source;
  EXPECT_NE(cu.find("static int f2s_smooth_box_nearest_size(const struct f2s_smooth_box_args *a)"),
            std::string::npos);
  size_t entry = cu.find("int f2s_smooth2d_smooth_box_cuda(int f2s_stream,");
  ASSERT_NE(entry, std::string::npos) << cu;
  std::string body = cu.substr(entry, cu.find("\n}\n", entry) - entry);
  size_t at0 = body.find("case 0:"), at1 = body.find("default:");
  ASSERT_TRUE(at0 < at1 && at1 != std::string::npos) << body;
  EXPECT_NE(body.substr(at0, at1 - at0).find("f2s_smooth_box_cuda_" + one.name + "_launch(&d"),
            std::string::npos)
      << body;
  EXPECT_NE(body.substr(at1).find("f2s_smooth_box_cuda_" + two.name + "_launch(&d"),
            std::string::npos)
      << body;
  // The boxes have a kernel and a launcher each, and no run function.
  EXPECT_EQ(cu.find("f2s_smooth_box_cuda_" + one.name + "_run("), std::string::npos);

  // nvcc compiles the library.
  fs::path lib = dir.path() / "lib";
  build_library(files, lib);

  // Under the emulation: the .cu with g++, the C, the MPI part with mpicc.
  const std::string emu_o = (dir.path() / "cuda.o").string(), c_o = (dir.path() / "lib.o").string(),
                    mpi_o = (dir.path() / "mpi.o").string();
  auto compile = [&](std::vector<std::string> argv) {
    Command c;
    c.argv = std::move(argv);
    c.timeout_s = 300;
    ProcessResult r = run_process(c);
    EXPECT_TRUE(r.ok()) << r.err.substr(0, 4000);
    return r.ok();
  };
  ASSERT_TRUE(compile({"g++", "-std=c++20", "-O1", "-ffp-contract=off", "-pthread", "-w", "-I",
                       std::string(F2S_SOURCE_DIR) + "/tests/cuda/emulation", "-x", "c++",
                       dir.write("emu.cu", emulated(cu)), "-c", "-o", emu_o}));
  ASSERT_TRUE(compile({c_compiler(), "-O1", "-std=gnu11", "-ffp-contract=off", "-pthread", "-c",
                       dir.write("lib.c", files.c_source), "-o", c_o}));
  ASSERT_TRUE(compile(
      {"mpicc", "-O1", "-std=gnu11", "-c", dir.write("lib_mpi.c", files.mpi_source), "-o", mpi_o}));
  std::string exe = (dir.path() / "check").string();
  ASSERT_TRUE(compile({"mpif90", "-O2", "-o", exe, "-I" + lib.string(),
                       std::string(F2S_SOURCE_DIR) + "/tests/inputs/mpi/smooth2d_gpu_main.f90", c_o,
                       mpi_o, emu_o, "-lstdc++", "-lpthread"}));
  auto mpirun = [&](int px, int py, const std::string &out, const char *mode) {
    Command c;
    c.argv = {
        "mpirun", "-np", std::to_string(px * py), exe, std::to_string(px), std::to_string(py), "0",
        out,      mode};
    c.env = test::mpirun_env(dir);
    c.timeout_s = 300;
    return run_process(c);
  };
  std::string one_rank = (dir.path() / "one").string();
  ProcessResult r = mpirun(1, 1, one_rank, "host");
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.out << r.err;
  ASSERT_EQ(test::read_file(one_rank).size(), 37u * 23u * 8u);
  for (auto [px, py] : std::vector<std::pair<int, int>>{{1, 1}, {2, 1}, {3, 2}}) {
    SCOPED_TRACE(std::to_string(px) + "x" + std::to_string(py));
    std::string many = (dir.path() / "many").string();
    r = mpirun(px, py, many, "overlap");
    ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.out << r.err;
    EXPECT_NE(r.out.find("transfers 0\n"), std::string::npos) << r.out;
    EXPECT_TRUE(test::read_file(many) == test::read_file(one_rank))
        << "the grid differs from one rank's";
  }
}

} // namespace
} // namespace f2s
