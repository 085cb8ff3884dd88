// Legality of a column nest (Kernel::column): may its columns run in any
// order, each column's statements in order? The driver asks through
// ast/Dependence's find_ordering, which hands column nests here.
#pragma once

#include "ast/IR.h"

#include <optional>

namespace f2s {

/// Proves that the columns of `k` (the points of its perfect nest, whose
/// body holds DO loops over Kernel::column's variable) are independent when
/// each has its own copy of the work arrays and of the scalar temporaries,
/// or says why not, at the offending access:
///  - every access to a grid the nest writes is at the column's own
///    element: each loop variable of the nest subscripts one dimension of
///    that grid, alone with coefficient 1 and offset 0, the same dimension
///    in every access (other subscripts: constants, loop-invariant scalars,
///    the column's loop variable);
///  - every element of a work array that the column reads was written
///    earlier in the same column: bounds are compared as c*n + o of one
///    scalar n, using the lower bounds of dimensions where an unconditional
///    statement of the column subscripts a grid or work array by n + o (`t(i,j,nz)` in a
///    grid declared from 1 says nz >= 1; in a branch of an IF, the branch's
///    statements too); a read in a DO loop over the
///    column's variable at offset o is covered by that loop's unconditional
///    store at offset p from an earlier trip (o < p forward, o > p backward)
///    or the same trip before it (o = p), and the trips before the store's
///    first must read elements written before the loop; a store under an
///    IF defines nothing;
///  - work arrays are subscripted by the column's variable, constants and
///    scalars only, and DO loops over the column's variable are not nested
///    in one another;
///  - no scalar is reduced over a column nest.
/// Scalar temporaries read before their assignment in the column are
/// ast/Dependence's to refuse.
std::optional<Diagnostic> check_column(const Kernel &k);

} // namespace f2s
