// Cache bypass: a grid that is written and not read costs a write-allocate
// read of every cache line it stores to (a third of the Laplacian's traffic,
// more than half of the Gradient's). Non-temporal stores skip it.
#pragma once

#include "ast/IR.h"

namespace f2s {

struct CacheBypassOptions {
  bool enabled = true; ///< option "bypass" (0/1)
};

/// Marks every grid that the kernel writes and never reads as streamed
/// (Kernel::streamed). The C printer then makes each innermost loop store
/// such a grid's rows into per-thread row buffers (64-byte aligned, as long
/// as the grid's x extent, allocated once per call and thread, never aliased
/// with a grid), and after the loop copies each row to the grid with
/// streaming stores (SSE2/AVX/AVX-512 by what the compiler targets, plain
/// stores for the unaligned head and tail); the call ends with a store fence
/// so the streamed data is visible when it returns. A store that does not
/// fit that shape (x subscript not the loop variable, rows with gaps) is
/// printed as an ordinary store, so the result is the same for any nest.
Kernel bypass_cache(const Kernel &k, const CacheBypassOptions &options);

} // namespace f2s
