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
/// and a UserError at the assignment says which one fails. A statement after
/// the inner loop, or anything else before it, is refused too. `hidden`, if
/// any, is more of the point that `nest` does not show (a column's
/// statements): what it assigns and writes counts as the point's, and so do
/// the arrays `written` names (line buffers the nest filled before
/// canonicalize/ForwardLineBuffers substituted them). A nest that is already
/// perfect comes back as it was. A loop over one of `inner_loops` (a loop
/// inside the point with a run-time trip count, ast/InnerLoops) is part of
/// the point: the nest ends at the loop whose body holds it.
Stmt sink_scalars(const Stmt &nest, const Stmt &hidden = nullptr,
                  const std::vector<std::string> &written = {},
                  const std::set<std::string> &inner_loops = {});

} // namespace f2s
