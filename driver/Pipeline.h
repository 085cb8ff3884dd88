// The f2stencil pipeline, as one function a reader can follow: parse, lower,
// analyse, enumerate, transform, emit, build, time, pick, package.
#pragma once

#include <string>
#include <vector>

namespace f2s {

struct DriverOptions {
  std::vector<std::string> files;
  std::vector<std::string> targets = {"pthreads"};
  std::string output_dir; ///< empty: the library name
  std::string lib_name;   ///< empty: f2s_<stem of the first file>
  bool tune = true;
  std::string emit; ///< "", "ir" or "c"
  std::vector<std::string> include_dirs;
  std::vector<std::string> defines; ///< -D NAME or NAME=VALUE
  std::string form;                 ///< "free", "fixed", or "": by each file's extension
  int default_real_kind = 4;        ///< 8: -fdefault-real-8 or -r8
  int double_precision_kind = 8;    ///< 16: -fdefault-real-8 without -fdefault-double-8
  std::vector<int64_t> tune_size;   ///< overrides every tune_size clause when set
  int jobs = 0;                     ///< 0: one per processor
  int reps = 5;
  double timeout_s = 60;
  std::string search = "model"; ///< "model", "exhaustive" or "compare"
  double budget_s = 0;          ///< seconds of measuring per kernel; 0: no limit
  /// Also write each file, with its regions replaced by calls, to
  /// <output>/src/<file name> (rewrite/Rewrite.h).
  bool rewrite = false;
  bool keep_work = false;
  bool quiet = false;
  bool exact = false; ///< CUDA: no candidate that reassociates sums
  std::vector<std::string> cflags = {"-march=native"};
};

/// Runs the pipeline; returns the process exit status. User errors are
/// printed as file:line:column diagnostics and give 1. Files that --rewrite
/// wrote, with no region left in any file, are nothing to do: said, and 0.
int run_pipeline(const DriverOptions &options);

} // namespace f2s
