// Dependence analysis: may the points of a kernel's nest be computed in any
// order, and so in parallel? The driver runs it on every kernel before any
// target sees it; a kernel it cannot prove safe is refused with the reason.
#pragma once

#include "ast/IR.h"

#include <optional>

namespace f2s {

/// Proves that each point of the nest depends on no other point's results in
/// the same sweep, or says why it cannot, at the offending use:
///  - a grid written at the loop point and read at another point, unless
///    every write of it is guarded by one colour test
///    (`mod(i+j+k+c, 2) == 0`) and every such read, under the same test, is
///    at a point of the other colour (red-black Gauss-Seidel);
///  - a scalar temporary read before it is assigned on some path through
///    the point's statements, whose value would be carried from the
///    previous iteration.
/// Subscripts that are not affine, unknown procedures and undeclared names
/// never reach the IR: the front end refuses them where they are written.
std::optional<Diagnostic> find_dependence(const Kernel &k);

} // namespace f2s
