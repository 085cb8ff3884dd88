// The nest restricted to a box given at run time, so that one rank of an MPI
// run can compute its interior while its halo travels and its boundary
// strips after (codegen/CMpiPrinter's overlapped procedure).
#pragma once

#include "ast/IR.h"

namespace f2s {

/// `k` named `<k.name>_box`, with 2 x depth INTEGER arguments appended
/// (`box_lo<a>`, `box_hi<a>` per axis a = x, y, z, innermost first, fresh
/// names) and each loop of its nest clipped to them:
///
///   do i = lo, hi, s     =>   do i = lo + s*ceil(max(0, box_lox - lo)/s), min(hi, box_hix), s
///
/// so a point runs exactly when the original loop runs it and it lies in
/// the box (a stride keeps its parity). The caller has checked that no loop
/// bound depends on another loop (codegen/CMpiPrinter's plan does). A loop
/// that runs from hi down (an ordered loop) is not clipped: ranks never
/// split one.
Kernel restrict_to_box(const Kernel &k);

} // namespace f2s
