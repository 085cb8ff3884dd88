// Canonicalization: from the loop nest as the source writes it to the perfect
// nest that the rest of the pipeline expects (MLIR's canonicalize stage: the
// front end lowers faithfully, small passes bring the IR into one form).
#pragma once

#include "ast/IR.h"

namespace f2s {

/// Runs the canonicalization passes on a region's lowered loop nest, in
/// order: scalars assigned between the loops sink into the point
/// (canonicalize/SinkScalars). Returns the perfect nest, or throws a
/// UserError naming the statement that keeps the nest from being one.
Stmt canonicalize(const Stmt &nest);

} // namespace f2s
