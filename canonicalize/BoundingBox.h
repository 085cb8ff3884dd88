// Loops whose bounds depend on outer loop variables (triangular and wedge
// domains, `do i = j, n`, `do i = j + k - 1, n`) made rectangular: the rest of
// the pipeline (threads, blocks, chunks, CUDA launches) needs loop bounds
// fixed for the sweep.
#pragma once

#include "ast/IR.h"

namespace f2s {

/// Rewrites the perfect nest of `k` so that no loop's bounds mention a loop
/// variable: each such loop runs over the bounding box of its range (the
/// smallest lower bound and the largest upper bound over the outer loops'
/// ranges), and the point body runs under a guard that keeps the source's
/// points only:
///
///   for j = 1, n                      for j = 1, n
///     for i = j, n         =>           for i = 1, n
///       body                              if i >= j {
///                                           body
///
/// A bound must change monotonically with each loop variable it mentions
/// (sums and differences, constant multiples, division by a positive
/// constant, MIN and MAX of such terms), so that its extremes over the
/// outer loops lie at their bounds; any other is a user error at the loop.
/// An upper bound MIN(n, e) (a lower bound MAX(n, e)) with n free of the
/// loops is boxed by n, as the arrays are sized. Nests whose bounds are fixed
/// come back unchanged.
Kernel bound_box(const Kernel &k);

} // namespace f2s
