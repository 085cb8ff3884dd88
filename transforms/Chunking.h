// Chunks: the seed's dealing of core blocks to threads (Kamil et al. 2010,
// section IV-C-1 and Fig. 3a). Consecutive core blocks are handed out in runs
// of a run-time size, round robin, to the thread groups.
#pragma once

#include "ast/IR.h"

namespace f2s {

/// Marks the core-block loops of a core-blocked nest (transforms/CoreBlocking:
/// the leading loops whose variable starts a deeper loop) as one Groups loop
/// that collapses them, with the run length as the new run-time tuning
/// parameter `chunk`:
///
///   for k_blk = 1, nz, cz          groups [collapse 3, chunk chunk, group 1] for k_blk = 1, nz, cz
///     for j_blk = 1, ny, cy    =>    for j_blk = 1, ny, cy
///       for i_blk = 1, nx, cx          for i_blk = 1, nx, cx
///
/// Blocks are numbered in loop order (i_blk fastest), so a chunk is a run of
/// neighbouring blocks. A nest that is not core-blocked has its outermost
/// loop dealt in chunks of planes. The group size stays 1 (every thread its
/// own group) until transforms/ThreadBlocking shares blocks within groups.
///
/// The loops must be Serial and legal to run in parallel (the caller checked
/// find_dependence in ast/Dependence.h); throws std::invalid_argument otherwise. Loops
/// whose bounds depend on an outer block loop end the collapsed set.
Kernel chunk_blocks(const Kernel &k);

} // namespace f2s
