// A two-target library's objects for the CPU stand-in of CUDA
// (tests/cuda/emulation): its CUDA source compiled as C++ for the emulator
// and its C source, ready to link with a Fortran program, for the end-to-end
// tests of data regions (DataRegionsTest, CallerRegionsTest); and a test
// input built that way with its checking program, run on the GPU
// (PlanesTest, PointArraysTest).
#pragma once

#include "e2e/E2E.h"
#include "harness/CudaToolkit.h"
#include "harness/Process.h"

#include "tests/cuda/Emulation.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

namespace f2s::test {

/// Compiles `out`/<lib>_cuda.cu for the emulator into `emu_o` and
/// `out`/<lib>.c into `c_o`; the emulated source is written into `dir`.
inline void build_emulated_library(const ScratchDir &dir, const std::filesystem::path &out,
                                   const std::string &lib, const std::string &emu_o,
                                   const std::string &c_o) {
  ProcessResult r =
      run({"g++", "-std=c++20", "-O1", "-ffp-contract=off", "-pthread", "-w", "-I",
           source("tests/cuda/emulation"), "-x", "c++",
           dir.write("emu.cu", emulated(read_file(out / (lib + "_cuda.cu")))), "-c", "-o", emu_o});
  ASSERT_TRUE(r.ok()) << r.err.substr(0, 4000);
  r = run({c_compiler(), "-O1", "-std=gnu11", "-ffp-contract=off", "-pthread", "-c",
           (out / (lib + ".c")).string(), "-o", c_o});
  ASSERT_TRUE(r.ok()) << r.err.substr(0, 4000);
}

/// Builds tests/inputs/e2e/<name><ext> into f2s_<name> for pthreads and
/// cuda (untuned), its CUDA emulated with the grid capped so that blocks
/// stride, linked with <name>_main.f90; returns the program, or "" after a
/// failure. Also compiles the CUDA with nvcc when there is one.
inline std::string build_emulated(const std::filesystem::path &dir, const std::string &name,
                                  const std::string &ext) {
  std::filesystem::path out = dir / "out";
  std::string input = source("tests/inputs/e2e/" + name + ext);
  ProcessResult r = f2stencil({"--emit=sources", "--no-tune", "-q", "--target=pthreads,cuda",
                               "--lib=f2s_" + name, "-o", out.string(), input});
  EXPECT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  if (!r.ok())
    return "";
  std::string cuda = read_file(out / ("f2s_" + name + "_cuda.cu"));
  if (auto nvcc = find_nvcc()) {
    r = run({*nvcc, "-std=c++17", "-c", (out / ("f2s_" + name + "_cuda.cu")).string(), "-o",
             (dir / "nvcc.o").string()});
    EXPECT_TRUE(r.ok()) << r.err.substr(0, 4000);
  }
  std::filesystem::path emu = dir / "emu.cu";
  std::ofstream(emu) << emulated(cuda, /*tiny_grid=*/true);
  std::string emu_o = (dir / "cuda.o").string(), c_o = (dir / "lib.o").string();
  r = run({"g++", "-std=c++20", "-O1", "-ffp-contract=off", "-pthread", "-w", "-I",
           source("tests/cuda/emulation"), "-x", "c++", emu.string(), "-c", "-o", emu_o});
  EXPECT_TRUE(r.ok()) << r.err.substr(0, 4000);
  r = run({c_compiler(), "-O1", "-std=gnu11", "-ffp-contract=off", "-pthread", "-c",
           (out / ("f2s_" + name + ".c")).string(), "-o", c_o});
  EXPECT_TRUE(r.ok()) << r.err.substr(0, 4000);
  std::string exe = (dir / "check").string();
  r = run({"gfortran", "-O1", "-o", exe, "-J" + dir.string(),
           (out / ("f2s_" + name + ".f90")).string(), input,
           source("tests/inputs/e2e/" + name + "_main.f90"), c_o, emu_o, "-lstdc++", "-lpthread"});
  EXPECT_TRUE(r.ok()) << r.err.substr(0, 4000);
  return r.ok() ? exe : "";
}

/// Runs a program that build_emulated made at `size` with every call on the
/// GPU, and expects PASSED and each of `kernels` run there.
inline void expect_gpu_passes(const std::string &exe, const std::vector<std::string> &kernels,
                              std::vector<std::string> size) {
  size.insert(size.begin(), exe);
  ProcessResult r = run(size, {{"F2S_TARGET", "cuda"}, {"F2S_VERBOSE", "1"}});
  EXPECT_TRUE(r.ok() && r.out.find("PASSED") != std::string::npos)
      << "size " << (size.size() > 1 ? size[1] : "default") << ": " << r.out << r.err;
  for (const std::string &k : kernels)
    EXPECT_TRUE(
        std::regex_search(r.err, std::regex("f2stencil: '" + k + "' ran cuda/[^ ]+ on the GPU")))
        << k << "\n"
        << r.err;
}

} // namespace f2s::test
