// A two-target library's objects for the CPU stand-in of CUDA
// (tests/cuda/emulation): its CUDA source compiled as C++ for the emulator
// and its C source, ready to link with a Fortran program, for the end-to-end
// tests of data regions (DataRegionsTest, CallerRegionsTest).
#pragma once

#include "e2e/E2E.h"
#include "harness/Process.h"

#include "tests/cuda/Emulation.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

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

} // namespace f2s::test
