// Thread blocks: the seed's sharing of a core block among the threads of a
// group that share a cache (Kamil et al. 2010, section IV-C-1, Fig. 3b).
#pragma once

#include "ast/IR.h"

namespace f2s {

/// In a chunked nest (transforms/Chunking), strip-mines the loops inside the
/// Groups loop's collapsed set by the run-time sizes tx, ty (, tz) (x the
/// innermost) and deals the thread blocks, numbered in loop order, round
/// robin to the members of the group, one at a time; the group size becomes
/// the run-time tuning parameter `group`:
///
///   groups [collapse 3, chunk chunk, group group] for k_blk = 1, nz, cz
///     ... i_blk
///       members [collapse 3, chunk 1] for k_tb = k_blk, min(k_blk + cz - 1, nz), tz
///         for j_tb ...
///           for i_tb ...
///             for k = k_tb, min(k_tb + tz - 1, min(k_blk + cz - 1, nz))
///               ...
///
/// Thread blocks larger than the core block give the whole block to one
/// member; remainders are cut by min() like core blocks. Throws
/// std::invalid_argument when the nest has no Groups loop or no loop inside
/// the ones it collapses.
Kernel block_threads(const Kernel &k);

} // namespace f2s
