// Core blocking: the nest is cut into blocks whose sizes are run-time
// tuning parameters, so one compiled variant serves every block size.
#pragma once

#include "ast/IR.h"

namespace f2s {

/// Strip-mines every loop of the nest and moves the block loops outside:
///
///   for k = 1, nz                 for k_blk = 1, nz, f2s_cz
///     for j = 1, ny        =>       for j_blk = 1, ny, f2s_cy
///       for i = 1, nx                 for i_blk = 1, nx, f2s_cx
///                                       for k = k_blk, min(k_blk + f2s_cz - 1, nz)
///                                         ...
///
/// The block sizes become the kernel's tuning parameters f2s_cx, f2s_cy
/// (and f2s_cz), x being the innermost loop. Blocking is always legal for the
/// nests the front end accepts: every point is independent.
Kernel block_loops(const Kernel &k);

} // namespace f2s
