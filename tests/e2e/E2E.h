// Running the f2stencil binary and the programs built against its output.
#pragma once

#include "harness/Process.h"

#include "common/TestUtil.h"

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace f2s::test {

inline ProcessResult run(std::vector<std::string> argv,
                         std::vector<std::pair<std::string, std::string>> env = {}) {
  Command c;
  c.argv = std::move(argv);
  c.env = std::move(env);
  c.timeout_s = 600;
  return run_process(c);
}

/// Runs f2stencil with a tuning cache of its own, empty, so that no test
/// depends on what another (or an earlier run of the suite) measured; a
/// test of the cache passes --tuning-db itself.
inline ProcessResult f2stencil(std::vector<std::string> args) {
  args.insert(args.begin(), std::string(F2S_BINARY_DIR) + "/driver/f2stencil");
  std::string cache = (std::filesystem::temp_directory_path() / "f2s-cache-XXXXXX").string();
  if (!mkdtemp(cache.data())) {
    ADD_FAILURE() << "cannot create a directory like " << cache;
    return run(args);
  }
  ProcessResult r = run(args, {{"XDG_CACHE_HOME", cache}});
  std::filesystem::remove_all(cache);
  return r;
}

inline std::string source(const std::string &relative) {
  return std::string(F2S_SOURCE_DIR) + "/" + relative;
}

} // namespace f2s::test
