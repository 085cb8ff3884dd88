// The value a variable holds after its region, where the library and the
// source's loop differ: the library keeps every scalar temporary and every
// work array of the point private to each point, so after the call the
// caller's variable still holds what it held before, where Fortran's loop
// leaves the value of the last iteration in it; and it computes a line
// buffer or a column's work array where the region reads it, never filling
// the procedure's array. The difference is invisible only when nothing
// outside the region reads the variable. What the procedure does outside the
// region is recorded by the front end (Kernel::outside_uses, from the parse
// tree); this pass decides.
#pragma once

#include "ast/IR.h"

#include <vector>

namespace f2s {

/// The refusals of `k`'s private variables that the procedure may see after
/// the region, one per variable, each at the variable's first assignment in
/// the region (a line buffer's and a column work array's at the directive):
///  - a line buffer or a column's work array used anywhere outside the
///    regions that keep it (OutsideUse::used);
///  - a scalar temporary or a work array of the point that the caller sees
///    (OutsideUse::visible), or that the procedure may read afterwards
///    (OutsideUse::read_after).
/// Nothing when the dependence analysis refuses the region (find_ordering):
/// a scalar carried between points is a temporary too, and is refused for
/// being carried.
std::vector<Diagnostic> find_values_after_region(const Kernel &k);

} // namespace f2s
