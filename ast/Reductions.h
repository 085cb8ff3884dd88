// Reductions over the nest: which scalars a kernel sums, maximises or
// minimises over its points (issue 5), and why a scalar that looks like one is
// not.
#pragma once

#include "ast/IR.h"

#include <optional>
#include <vector>

namespace f2s {

/// The operator of `a` when it is a reduction update of its own variable s:
/// the value reads s exactly once, and the path from the value's root down to
/// that read is made only of `+` (either side) and `-` (s on the left), giving
/// Sum (`s = s + e`, `s = e + s`, `s = s - e`, `s = s + e1 - e2`), or only of
/// MAX or only of MIN (`s = max(s, e)`, `s = min(e1, s, e2)`).
std::optional<ReduceOp> reduction_update(const Assign &a);

/// The temporaries of `k` that are reductions, in the order of `k.temps`:
/// every assignment to one is a reduction update, all with one operator, and
/// nothing else in the point reads it, so its per-point updates may be applied
/// to per-thread partials in any order and the partials combined afterwards.
std::vector<Reduction> find_reductions(const Kernel &k);

/// For temporary `temp` of `k`, which has a reduction update but is not a
/// reduction: the first use that stops it being one, with the reason (a read
/// outside its updates, another assignment, a second operator). Nothing when
/// `temp` has no reduction update.
std::optional<Diagnostic> why_not_reduction(const Kernel &k, const std::string &temp);

} // namespace f2s
