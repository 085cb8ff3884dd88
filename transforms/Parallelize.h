// Plain auto-parallelisation, as in the seed's first step: the outermost
// loop's iterations are divided among threads in contiguous ranges.
#pragma once

#include "ast/IR.h"

namespace f2s {

/// Marks the outermost loop LoopExec::Parallel. The caller has checked that
/// the nest is legal to run in parallel (find_dependence in ast/Dependence.h).
Kernel parallelize_outer(const Kernel &k);

} // namespace f2s
