// Dependence analysis: may the points of a kernel's nest be computed in any
// order, and so in parallel? The driver runs it on every kernel before any
// target sees it; a kernel it cannot prove safe is refused with the reason.
#pragma once

#include "ast/IR.h"

#include <optional>

namespace f2s {

/// Proves that each point of the nest depends on no other point's results in
/// the same sweep, or says why it cannot, at the offending use:
///  - a grid element that one point writes and another point may read or
///    write: subscripts are affine (`2*i - 1`), and two accesses meet when
///    every dimension's equation c1*x + o1 = c2*y + o2 has an integer
///    solution, unless they are the same access (the same point), or every
///    write of the grid is guarded by one colour test
///    (`mod(i+j+k+c, 2) == 0`) and the other access, under the same test, is
///    at a point of the other colour (red-black Gauss-Seidel);
///  - a scalar temporary read before it is assigned on some path through
///    the point's statements, whose value would be carried from the
///    previous iteration; when it is updated like a reduction
///    (ast/Reductions), the use that stops it being one is named.
/// The updates of the kernel's recognised reductions are not carried values:
/// their variables are arguments, not temporaries.
/// Subscripts that are not affine, unknown procedures and undeclared names
/// never reach the IR: the front end refuses them where they are written.
/// Any order, with the same reason as find_ordering's for the nest that
/// needs one loop ordered.
std::optional<Diagnostic> find_dependence(const Kernel &k);

/// The order the points of a nest need: any (both fields empty), one loop
/// in source order with the others free (`ordered`), or none that f2stencil
/// can run in parallel (`refusal`, at the offending use). One loop is ordered
/// when every pair of accesses that may meet at different points (see
/// find_dependence) reaches the same element only from points that agree in
/// every other loop's variable: `p(i,k)` written and `p(i,k-1)` read meet
/// only along k. A carried scalar temporary, two loops carrying, or a nest of
/// one loop that carries is refused.
struct Ordering {
  std::optional<Diagnostic> refusal;
  std::optional<OrderedLoop> ordered;
};
Ordering find_ordering(const Kernel &k);

} // namespace f2s
