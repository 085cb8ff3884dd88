// libFuzzer target over the front end: bytes -> a source file -> lower_files.
// Every input must end in kernels or a UserError; anything else (a crash, an
// assertion, a sanitizer report, another exception, a hang) is a bug. The
// first byte picks the source form (odd: fixed form, .f; even: free form,
// .f90), the rest is the file. Built with -DF2S_FUZZ=ON and clang; run by
// tests/fuzz/fuzz_frontend.sh.
#include "frontend/Frontend.h"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

namespace {

std::string scratch_file(bool fixed) {
  static const std::string dir = [] {
    std::string d =
        (std::filesystem::temp_directory_path() / ("f2s_fuzz_" + std::to_string(::getpid())))
            .string();
    std::filesystem::create_directories(d);
    return d;
  }();
  return dir + (fixed ? "/input.f" : "/input.f90");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  bool fixed = data[0] & 1;
  std::string path = scratch_file(fixed);
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char *>(data + 1), static_cast<std::streamsize>(size - 1));
  }
  try {
    f2s::lower_files({path});
  } catch (const f2s::UserError &) {
    // A refusal with a reason: the expected end of most inputs.
  }
  return 0;
}
