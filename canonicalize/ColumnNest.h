// The nest of a column solve brought into the form the pipeline expects.
//
// Column physics codes solve one tridiagonal system per column: a nest over
// the horizontal loops whose body is the column, statements and DO loops over
// the vertical in order (forward elimination, back substitution). The front
// end lowers such a nest with that body as the point (Kernel::column); this
// pass makes the loops around it perfect, as canonicalize() does for other
// nests.
#pragma once

#include "ast/IR.h"

#include <string>

namespace f2s {

/// The loops of `nest` down to the one whose body holds DO loops over
/// `column_var` (the column), with every scalar assigned between them moved
/// to the start of the column as canonicalize/SinkScalars moves it (and
/// refused where that pass refuses it), and constants folded as gfortran
/// folds them (canonicalize/FoldConstants). The column's statements and
/// loops stay as written, in order.
Stmt canonicalize_column(const Stmt &nest, const std::string &column_var);

} // namespace f2s
