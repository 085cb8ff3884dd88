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
  /// Parameter combinations the engine considered, and why the ones that are
  /// not candidates were left out (reason -> count).
  size_t considered = 0;
  std::map<std::string, size_t> pruned;

  /// "pthreads/blocked t=4 cx=256 cy=8 cz=16", for reports.
  std::string describe(const Candidate &c) const;
  /// Removes the candidates from index `from` on whose description does not
  /// match the ECMAScript regular expression `pattern` (--candidates),
  /// counting them in `pruned`; returns how many are left from `from`.
  size_t keep_matching(const std::string &pattern, size_t from = 0);
  /// "412 candidates in 9 variants (1020 considered; 608 pruned: 512 block
  /// working set exceeds the cache, 96 degenerate remainder blocks)".
  std::string summary() const;
};

struct CpuModel;

struct CpuEngineOptions {
  std::vector<std::string> targets;  ///< CPU targets asked for: "c", "pthreads"
  const CpuModel *machine = nullptr; ///< the machine to tune for (required for pthreads)
};

/// Enumerates the variants and candidates for `k` at problem extents
/// `extents` (one per loop, x first), in the spirit of Table III of Kamil et
/// al.: the serial code for "c"; for "pthreads", at every sensible thread
/// count (powers of two, the cores of one NUMA node, all cores, all hardware
/// threads), the plain parallel nest and core-blocked nests with every
/// compile-time variant of the point loops. Only legal and sensible
/// combinations are kept: a block's working set must fit the cache a thread
/// has, the outermost blocks must give every thread work, no block may leave
/// a remainder sliver of under a quarter of itself, and blocks that cover a
/// whole axis are kept once. A nest with an ordered loop (Kernel::ordered)
/// gets the plain parallel nest only, whose threads split a free loop.
SearchSpace enumerate_cpu(const Kernel &k, const KernelFacts &facts,
                          const std::vector<int64_t> &extents, const CpuEngineOptions &options);

/// The candidate packaged without tuning for `target`: the serial code, or
/// the plain parallel nest on every processor. Adds its variant if needed.
Candidate default_candidate(SearchSpace &space, const std::string &target);

} // namespace f2s
