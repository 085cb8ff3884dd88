// The CUDA strategy engine: which CUDA variants to build and time for a
// kernel on a given GPU. Every CUDA parameter changes the code (launch
// shape, points per thread, streaming chunk), so each candidate is its own
// variant with no run-time tuning values.
#pragma once

#include "ast/Analysis.h"
#include "strategy/CpuEngine.h"
#include "strategy/GpuModel.h"

#include <map>
#include <string>
#include <vector>

namespace f2s {

constexpr size_t kAllCandidates = static_cast<size_t>(-1);

struct GpuEngineOptions {
  const GpuModel *gpu = nullptr;
  /// How many candidates the model lets through to be built and timed;
  /// kAllCandidates: every legal one (--search=exhaustive, compare).
  size_t max_candidates = 12;
  /// Whether candidates may reassociate sums (plane sums): results then agree
  /// with the serial code to rounding instead of bitwise.
  bool reassociate = true;
};

/// Appends target "cuda" variants and candidates for `k` at problem extents
/// `extents` (x first) to `space`. Enumerated: block shapes bx*by (bx a
/// multiple of the warp, so a warp's loads along x coalesce; at most 1024
/// threads and the device's limit; at least two warps), points per thread in
/// x and y, and either the plain mapping (one thread per point) or streaming
/// along z in chunks, with shared-memory planes or (where plane_sums_pay and
/// options.reassociate) plane sums; with an ordered loop (Kernel::ordered),
/// the plain mapping of the free loops only, the ordered loop serial in each
/// thread. Pruned as illegal or senseless: too few blocks to give
/// every multiprocessor two, tiles far wider than the axis, more registers
/// than a multiprocessor has. The rest are ranked by a model (compulsory
/// traffic inflated by halo re-reads of the tile and of the z chunk, divided
/// by the efficiency of the last wave of blocks) and the best
/// `max_candidates` are kept, with the default plain mapping always among
/// them. Returns the counts considered and pruned, with reasons.
/// How many parameter combinations were considered, and why those left out were.
struct CudaEnumeration {
  size_t considered = 0;
  std::map<std::string, size_t> pruned; ///< reason -> count
  std::string summary(size_t candidates) const;
};

CudaEnumeration enumerate_cuda(SearchSpace &space, const Kernel &k, const KernelFacts &facts,
                               const std::vector<int64_t> &extents,
                               const GpuEngineOptions &options);

/// The CUDA candidate packaged without tuning: the plain mapping with
/// 32x8 threads. Adds its variant if needed.
Candidate default_cuda_candidate(SearchSpace &space);

} // namespace f2s
