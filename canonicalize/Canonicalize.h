// Canonicalization: from the loop nest as the source writes it to the perfect
// nest that the rest of the pipeline expects (MLIR's canonicalize stage: the
// front end lowers faithfully, small passes bring the IR into one form).
#pragma once

#include "ast/IR.h"

#include <set>
#include <string>
#include <vector>

namespace f2s {

struct Canonical {
  Stmt nest;                             ///< the perfect nest
  std::vector<std::string> line_buffers; ///< local arrays that no longer appear in it
};

/// Runs the canonicalization passes on a region's lowered loop nest, in
/// order: line buffers are substituted into the loop that reads them
/// (canonicalize/ForwardLineBuffers; `buffer_candidates` are the 1D arrays
/// local to the procedure), then scalars assigned between the loops sink
/// into the point (canonicalize/SinkScalars), constant subexpressions
/// are folded as gfortran folds them (canonicalize/FoldConstants), and
/// maxima and minima written as IFs become MAX and MIN (canonicalize/IfExtrema),
/// so that ast/Reductions sees them as the reductions they are. Returns
/// the perfect nest, or
/// throws a UserError naming the statement that keeps the nest from being
/// one.
Canonical canonicalize(const Stmt &nest, const std::set<std::string> &buffer_candidates);

} // namespace f2s
