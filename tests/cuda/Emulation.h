// Running generated CUDA on the CPU stand-in of tests/cuda/emulation/, for
// the tests that build every kind of mapping (CudaEmulationTest.cpp) and the
// per-size libraries (CudaPerSizeTest.cpp).
#pragma once

#include <regex>
#include <string>

namespace f2s::test {

/// `k<I, C><<<grid, block, shared, stream>>>(args);` (or `k<4>`, or a kernel `k` that
/// is no template) as a call of the emulator, and dynamic shared memory
/// (`extern __shared__ __align__(16) unsigned char name[];`) as the
/// emulator's buffer. With `tiny_grid`, the launcher's caps on the grid become 1 block
/// along x and 2 along y and z, so that blocks take several tiles of every
/// axis: the grid-stride form a very long axis needs, at a test's size.
inline std::string emulated(const std::string &cuda, bool tiny_grid = false) {
  static const std::regex launch(
      R"(([A-Za-z_][A-Za-z0-9_]*(?:<[A-Za-z0-9_, ]+>)?)<<<([^>]*)>>>\(([^;]*)\);)");
  static const std::regex dynamic_shared(
      R"(extern __shared__ __align__\(16\) unsigned char ([A-Za-z_][A-Za-z0-9_]*)\[\];)");
  std::string text = std::regex_replace(cuda, launch, "f2s_emu_launch($2, [&] { $1($3); });");
  text =
      std::regex_replace(text, dynamic_shared, "unsigned char *const $1 = f2s_emu_dynamic_shared;");
  if (tiny_grid) {
    text = std::regex_replace(text, std::regex("2147483647L"), "1L");
    text = std::regex_replace(text, std::regex("65535L"), "2L");
  }
  return text;
}

} // namespace f2s::test
