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
  /// "ir" or "c": printed; "sources": the library's sources written to the
  /// output directory, nothing compiled; "": the library built.
  std::string emit;
  std::vector<std::string> include_dirs;
  std::vector<std::string> defines; ///< -D NAME or NAME=VALUE
  std::string form;                 ///< "free", "fixed", or "": by each file's extension
  int default_real_kind = 4;        ///< 8: -fdefault-real-8 or -r8
  int double_precision_kind = 8;    ///< 16: -fdefault-real-8 without -fdefault-double-8
  /// Overrides every tune_size clause when set: one size, or several (a
  /// library that dispatches by the call's size), each x first.
  std::vector<std::vector<int64_t>> tune_sizes;
  int jobs = 0; ///< 0: one per processor
  int reps = 5;
  double timeout_s = 60;
  std::string search = "model"; ///< "model", "exhaustive" or "compare"
  /// --candidates: an ECMAScript regular expression; only candidates whose
  /// description matches it are tuned (empty: all).
  std::string candidates;
  double budget_s = 0; ///< seconds of measuring per kernel; 0: no limit
  /// Time loops on the pthreads target (docs/time-loops.md): "auto" tiles
  /// in time where tuning measured it faster, "off" never, a number N always
  /// (N steps per chunk, the model's tile).
  std::string time_tile = "auto";
  /// How the GPU tiles a time loop in time (docs/time-tiling-gpu.md):
  /// "overlapped" (tiles of every dimension) or "streaming" (tiles of all
  /// but the slowest, walked along it; grids of rank 2 or more).
  std::string time_tile_form = "overlapped";
  /// Also write each file, with its regions replaced by calls, to
  /// <output>/src/<file name> (rewrite/Rewrite.h).
  bool rewrite = false;
  /// With --rewrite and a GPU target: keep the arrays the calls pass on the
  /// device around them (rewrite/DataRegions.h); --no-data-regions: not.
  bool data_regions = true;
  /// Also export, per kernel, K_exchange: the halo exchange over an MPI
  /// Cartesian communicator (docs/mpi.md); the library is built with mpicc.
  bool mpi = false;
  bool keep_work = false;
  std::string tuning_db; ///< the tuning cache's file; empty: default_tuning_db_path()
  bool retune = false;   ///< measure again what the tuning cache holds, replacing it
  bool quiet = false;
  bool exact = false; ///< CUDA: no candidate that reassociates sums
  std::vector<std::string> cflags = {"-march=native"};
};

/// Runs the pipeline; returns the process exit status. User errors are
/// printed as file:line:column diagnostics and give 1. Files that --rewrite
/// wrote, with no region left in any file, are nothing to do: said, and 0.
int run_pipeline(const DriverOptions &options);

} // namespace f2s
