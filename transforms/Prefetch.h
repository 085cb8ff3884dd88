// Software prefetch: each grid stream the innermost loops read is fetched a
// tunable distance ahead along x.
#pragma once

#include "ast/IR.h"

namespace f2s {

struct PrefetchOptions {
  bool enabled = true; ///< option "prefetch" (0/1)
};

/// Adds the run-time tuning parameter "pf" (a fresh name if the kernel uses
/// that one) and names it Kernel::prefetch_distance: the distance in
/// elements along x, 0 for none. The C printer then issues, at the top of
/// every innermost loop's body and for every row the loop reads, a
/// read prefetch with no temporal locality of the element `pf` past the
/// farthest one the iteration reads, clamped to the row's declared upper
/// bound so that the address stays inside the grid.
Kernel add_prefetch(const Kernel &k, const PrefetchOptions &options);

} // namespace f2s
