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
    // One kernel per mapping in the CUDA source, one C variant calling it.
    std::regex kernel("__global__[^\\n]*" + name + "_kernel\\(");
    EXPECT_EQ(std::distance(
                  std::sregex_iterator(files.cuda_source.begin(), files.cuda_source.end(), kernel),
                  std::sregex_iterator()),
              1)
        << name;
    EXPECT_NE(files.c_source.find("static void " + name + "(const struct"), std::string::npos);
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

} // namespace
} // namespace f2s
