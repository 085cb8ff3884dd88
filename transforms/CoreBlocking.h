// Core blocking: the nest is cut into blocks whose sizes are run-time
// tuning parameters, so one compiled variant serves every block size.
#pragma once

#include "ast/IR.h"

namespace f2s {

/// Strip-mines every loop of the nest and moves the block loops outside:
///
///   for k = 1, nz                 for k_blk = 1, nz, cz
///     for j = 1, ny        =>       for j_blk = 1, ny, cy
///       for i = 1, nx                 for i_blk = 1, nx, cx
///                                       for k = k_blk, min(k_blk + cz - 1, nz)
///                                         ...
///
/// The block sizes become the kernel's tuning parameters cx, cy (and cz),
/// x being the innermost loop; a name the kernel already uses gets a number. Blocking is always
/// legal for the nests the front end accepts: every point is independent.
Kernel block_loops(const Kernel &k);

} // namespace f2s
