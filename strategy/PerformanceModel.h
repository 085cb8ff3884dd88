// A coarse performance model for ranking CPU candidates before measuring
// them: the roofline of a memory-bound stencil. Its figures are relative
// (seconds at an assumed unit bandwidth); only their order is used.
#pragma once

#include "ast/Analysis.h"
#include "strategy/CpuEngine.h"
#include "strategy/MachineModel.h"

#include <vector>

namespace f2s {

/// Bytes one core block keeps in cache while it streams along its outermost
/// axis: (2h+1) planes of (cx+2h)x(cy+2h) points of every grid read, one
/// plane of every grid written. `block` is x first (2 or 3 sizes).
int64_t block_working_set(const Kernel &k, const KernelFacts &facts,
                          const std::vector<int64_t> &block);

/// The cache a thread's block should fit in: its core's private L2 or its
/// share of the last-level cache, whichever is larger.
int64_t cache_per_thread(const CpuModel &machine);

/// Predicted time of a candidate (relative units): compulsory traffic (less
/// the write-allocate share when the variant bypasses the cache), plus
/// re-reads of halo planes when the block does not fit in cache, over the
/// bandwidth its thread count can draw (growing up to one thread per core),
/// with penalties for short inner loops, threads left without work, and
/// software prefetch.
double predict_seconds(const Kernel &k, const KernelFacts &facts, const CpuModel &machine,
                       const std::vector<int64_t> &extents, const SearchSpace &space,
                       const Candidate &c);

} // namespace f2s
