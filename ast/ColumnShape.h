// The shape of a column nest (Kernel::column) that the targets run: what
// they can do, not whether the columns are independent, which is
// ast/Dependence's question, answered from ast/LoopDependences.
#pragma once

#include "ast/IR.h"

#include <optional>

namespace f2s {

/// Says why the column nest `k` is not one the targets can run, at the
/// offending statement, or nothing:
///  - every DO loop in a column runs over Kernel::column's variable, and no
///    such loop is inside another (the targets run the column's loops one
///    after the other, each over the column);
///  - no scalar is reduced over a column nest.
std::optional<Diagnostic> check_column_shape(const Kernel &k);

} // namespace f2s
