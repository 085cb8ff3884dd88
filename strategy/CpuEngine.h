// The CPU strategy engine: which code variants to build for the CPU targets,
// and which run-time parameters to time each with.
#pragma once

#include "ast/Analysis.h"
#include "ast/IR.h"

#include <map>
#include <string>
#include <vector>

namespace f2s {

/// One transformation of a variant's recipe. The strategy only names passes;
/// the harness applies them (strategy/ knows machines, not transformations).
enum class Pass : uint8_t {
  BlockLoops,       ///< transforms/CoreBlocking: adds cx, cy (, cz)
  ParallelizeOuter, ///< transforms/Parallelize
  // The seed's decomposition, after BlockLoops, instead of ParallelizeOuter:
  Chunking,       ///< transforms/Chunking: adds chunk
  ThreadBlocking, ///< transforms/ThreadBlocking (after Chunking): adds group, tx, ty (, tz)
  // The per-point passes, after blocking and parallelisation:
  RegisterBlock,        ///< transforms/RegisterBlocking: options rx, ry, rz
  CommonSubexpressions, ///< transforms/CommonSubexpressions: option cse
  ArrayIndexing,        ///< transforms/ArrayIndexing: option indexing
  CacheBypass,          ///< transforms/CacheBypass: option bypass
  Prefetch,             ///< transforms/Prefetch: option prefetch; adds pf
};

/// A code shape: what gets compiled once and timed with many parameters.
struct Variant {
  std::string target; ///< "c" or "pthreads"
  std::string name;   ///< unique within a kernel: "serial", "parallel", "blocked", ...
  std::vector<Pass> passes;
  /// Compile-time parameters the passes read (a register block factor, say);
  /// a pass uses its default for a name that is absent.
  std::map<std::string, int> options;
};

/// One point of the search: a variant and its run-time parameters.
struct Candidate {
  size_t variant = 0; ///< index into SearchSpace::variants
  int threads = 1;    ///< 0: all processors at run time
  /// Values of the variant's tuning parameters (Kernel::tuning), by name.
  std::map<std::string, long> tune;
};

struct SearchSpace {
  std::vector<Variant> variants;
  std::vector<Candidate> candidates;
  /// "Candidate pthreads/blocked t=4 cx=256 cy=8 cz=16", for reports.
  std::string describe(const Candidate &c) const;
};

struct CpuEngineOptions {
  std::vector<std::string> targets; ///< CPU targets asked for: "c", "pthreads"
  int max_threads = 1;              ///< hardware threads the tuner may use
};

/// Enumerates the variants and candidates for `k` at problem extents
/// `extents` (one per loop, x first): the serial code for "c"; for
/// "pthreads" the plain parallel nest at every thread count (powers of two up
/// to max_threads, and max_threads), and core-blocked nests whose block sizes
/// divide the work into at least one block per thread. Blocks that cover a
/// whole dimension are kept once, not once per size that exceeds it.
SearchSpace enumerate_cpu(const Kernel &k, const KernelFacts &facts,
                          const std::vector<int64_t> &extents, const CpuEngineOptions &options);

/// The candidate packaged without tuning for `target`: the serial code, or
/// the plain parallel nest on every processor. Adds its variant if needed.
Candidate default_candidate(SearchSpace &space, const std::string &target);

} // namespace f2s
