// Scalars assigned between the loops of a nest, moved into the point.
//
// Legacy sweeps compute per-row values between the loops: the colour offset
// of a red-black sweep (`joff = mod(j + k, 2)` between the `j` and `i`
// loops) or a constant (`dt2 = 1` between `k` and `j`). The front end lowers
// them where they are, as Assigns before the inner loop in an outer loop's
// body; the rest of the pipeline wants a perfect nest whose innermost body
// is the point.
#pragma once

#include "ast/IR.h"

#include <set>
#include <string>
#include <vector>

namespace f2s {

/// Moves every Assign that precedes the inner loop in an outer loop's body,
/// and every IF around such Assigns, to the start of the innermost body, in
/// source order. The value is the same at every point as long as it reads
/// only outer loop variables, scalars that the nest does not change and
/// arrays that it does not write, and the scalar is assigned nowhere else in
/// the nest (but between the same two loops): those conditions are checked,
/// and a UserError at the assignment says which one fails. `hidden`, if
/// any, is more of the point that `nest` does not show (a column's
/// statements): what it assigns and writes counts as the point's, and so do
/// the arrays `written` names (line buffers the nest filled before
/// canonicalize/ForwardLineBuffers substituted them). A nest that is already
/// perfect comes back as it was. A loop over one of `inner_loops` (a loop
/// inside the point with a run-time trip count, ast/InnerLoops) is part of
/// the point: the nest ends at the loop whose body holds it.
///
/// Every other statement of an outer level (an assignment to an array
/// element, an IF around one; anything after the inner loop) runs once per
/// iteration of the loops around it, as the source runs it: with `outer`
/// given, it moves into the point under a guard that holds at the first
/// point of the loops inside its level (before the inner loop) or at their
/// last point (after it), and `outer` receives each assignment in it
/// (Kernel::outer_statements). Where an inner loop may run no trip (its
/// bounds are not constants), the source still runs the statements of the
/// levels around it: that loop then runs at least one trip, `hi` becoming
/// MAX(hi, lo), and the statements of its own level and below run under
/// `var <= hi`. Whether the moved statements may run in parallel with the
/// points is ast/LoopDependences' to decide, as for any statement of the
/// point. Without `outer` (a column's nest), such statements are refused.
Stmt sink_scalars(const Stmt &nest, const Stmt &hidden = nullptr,
                  const std::vector<std::string> &written = {},
                  const std::set<std::string> &inner_loops = {},
                  std::vector<OuterStatement> *outer = nullptr);

} // namespace f2s
