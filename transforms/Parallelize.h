// Plain auto-parallelisation, as in the seed's first step: the outermost
// loop's iterations are divided among threads in contiguous ranges.
#pragma once

#include "ast/IR.h"

namespace f2s {

/// Marks the outermost loop LoopExec::Parallel. The caller has checked that
/// the nest is legal to run in parallel (find_dependence in ast/Dependence.h).
/// In a nest with an ordered loop, the outermost of the other loops is the
/// parallel one: each thread runs the ordered loop around (or inside) its own
/// range of columns, in order, and columns never touch each other's elements,
/// so the threads need no barrier between the ordered loop's iterations:
///
///   for k = 2, nz      (ordered k)        for k = 2, nz
///     for j = 1, ny               =>        parallel for j = 1, ny
///       for i = 1, nx                         for i = 1, nx
Kernel parallelize_outer(const Kernel &k);

} // namespace f2s
