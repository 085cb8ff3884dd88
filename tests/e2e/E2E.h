// Running the f2stencil binary and the programs built against its output.
#pragma once

#include "harness/Process.h"

#include "common/TestUtil.h"

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

inline ProcessResult f2stencil(std::vector<std::string> args) {
  args.insert(args.begin(), std::string(F2S_BINARY_DIR) + "/driver/f2stencil");
  return run(args);
}

inline std::string source(const std::string &relative) {
  return std::string(F2S_SOURCE_DIR) + "/" + relative;
}

} // namespace f2s::test
