// Dependence analysis: may the points of a kernel's nest be computed in any
// order, and so in parallel? The driver runs it on every kernel before any
// target sees it; a kernel it cannot prove safe is refused with the reason.
#pragma once

#include "ast/IR.h"

#include <optional>

namespace f2s {

/// Proves that each point of the nest depends on no other point's results in
/// the same sweep, or says why it cannot, at the offending use. The answer
/// comes from the exact dependences of ast/LoopDependences (isl), of which
/// only those that a loop of the nest carries count:
///  - a grid element that one point writes and another point reads or
///    writes (a flow, anti or output dependence on a shared array), named by
///    both subscripts as the source writes them; red-black colour tests and
///    stride loops are part of the statements' domains, so points of the
///    other colour never meet;
///  - a scalar temporary or a column's work array read where its value comes
///    from another point or from nowhere in the point (on some path through
///    the point's statements); when it is updated like a reduction
///    (ast/Reductions), the use that stops it being one is named.
/// The updates of the kernel's recognised reductions are not carried values:
/// their variables are arguments, not temporaries.
/// Subscripts that are not affine, unknown procedures and undeclared names
/// never reach the IR: the front end refuses them where they are written.
/// Any order, with the same reason as find_ordering's for the nest that
/// needs one loop ordered.
std::optional<Diagnostic> find_dependence(const Kernel &k);

/// Points of the nest that write one element of an array the region
/// writes, for a store (of Kernel::store_sources) that leaves a loop
/// variable of the nest out of its subscripts (every point along that loop
/// writes the element: an output dependence of the store on itself, which
/// no order of the points makes the source's), or that subscripts two
/// dimensions by one loop variable: the first such store, innermost loop
/// first, as a refusal at the array's name that names the store as written.
/// Column work arrays (each column's own) and the loops inside a column are
/// exempt.
std::optional<Diagnostic> find_store_overlap(const Kernel &k);

/// The order the points of a nest need: any (both fields empty), one loop
/// in source order with the others free (`ordered`), or none that f2stencil
/// can run in parallel (`refusal`, at the offending use). One loop is ordered
/// when every dependence between different points (see find_dependence)
/// relates points that agree in every other loop's variable: `p(i,k)`
/// written and `p(i,k-1)` read meet only along k. A carried scalar
/// temporary, two loops carrying, or a nest of one loop that carries is
/// refused; so is any carried dependence in a column nest (Kernel::column),
/// whose columns run in any order, and a column nest the targets cannot run
/// (ast/ColumnShape).
struct Ordering {
  std::optional<Diagnostic> refusal;
  std::optional<OrderedLoop> ordered;
};
Ordering find_ordering(const Kernel &k);

} // namespace f2s
