// Running the programs the harness depends on: compilers, and candidate
// binaries that may crash or hang. Each runs in its own child process with a
// time limit, so a misbehaving candidate costs only itself.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace f2s {

struct Command {
  std::vector<std::string> argv;                        ///< argv[0] is looked up in PATH
  double timeout_s = 0;                                 ///< 0: no limit
  std::string cwd;                                      ///< empty: the current directory
  std::vector<std::pair<std::string, std::string>> env; ///< added to the environment
};

struct ProcessResult {
  int exit_code = -1;     ///< valid when the process exited normally
  int signal = 0;         ///< the signal that ended it, else 0
  bool timed_out = false; ///< killed (with its process group) at the limit
  bool spawn_failed = false;
  std::string out;    ///< everything it wrote to stdout
  std::string err;    ///< everything it wrote to stderr
  double seconds = 0; ///< wall time
  bool ok() const { return !spawn_failed && !timed_out && signal == 0 && exit_code == 0; }
  /// One line for a report: "exit code 2", "killed by signal 11 (SIGSEGV)", "timed out after 10 s".
  std::string describe() const;
};

ProcessResult run_process(const Command &cmd);

/// Runs the commands with at most `jobs` running at once; results come back
/// in the order of `cmds`.
std::vector<ProcessResult> run_parallel(const std::vector<Command> &cmds, int jobs);

/// The full path of a program found in PATH.
std::optional<std::string> find_program(const std::string &name);

/// The first line of `text`, at most 300 characters: a process's output in
/// a one-line report.
std::string first_line(const std::string &text);

/// The system C compiler: $CC if set, else cc.
std::string c_compiler();

/// c_compiler() as a command's first words: $CC may carry words of its own
/// ("ccache gcc", "gcc -m64"), split on blanks as make would.
std::vector<std::string> compiler_words();

/// The flags every C the library and its harnesses compile from must have,
/// so that it rounds as the Fortran does: no contraction into FMAs, and the
/// inexact libm functions (sin, exp, log, pow, ...) always called, never
/// folded by the compiler when a constant reaches them through a store. The
/// compiler folds with MPFR, correctly rounded, where glibc may differ in
/// the last bit, and gfortran calls glibc there (it folds only constant
/// expressions as written, as canonicalize/FoldConstants does too). Also
/// -fopenmp-simd, which honours the `omp simd` that max and min reductions
/// are printed with (exact in any order; no OpenMP run time is linked).
const std::vector<std::string> &c_rounding_flags();

} // namespace f2s
