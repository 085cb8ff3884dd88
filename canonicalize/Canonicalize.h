// Canonicalization: from the loop nest as the source writes it to the perfect
// nest that the rest of the pipeline expects (MLIR's canonicalize stage: the
// front end lowers faithfully, small passes bring the IR into one form).
#pragma once

#include "ast/IR.h"
#include "canonicalize/ForwardLineBuffers.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace f2s {

/// What the front end knows of a region's local arrays.
struct LocalArrays {
  /// 1D arrays local to the procedure, stored in inner loops side by side:
  /// line buffers, if they can be substituted.
  std::set<std::string> buffer_candidates;
  /// Arrays local to the procedure that the point assigns at constant
  /// subscripts, with their element types: work arrays of the point.
  std::map<std::string, Type> point_arrays;
  /// Names a new temporary must not take (every name the procedure knows).
  std::set<std::string> taken;
  /// The DO loops side by side as the source writes them
  /// (canonicalize/ForwardLineBuffers refuses those it cannot substitute).
  std::vector<SourceLoop> loops;
  /// The variables of the loops inside the point that stay loops (run-time
  /// trip counts, ast/InnerLoops): the nest ends above them.
  std::set<std::string> inner_loops = {};
};

struct Canonical {
  Stmt nest;                             ///< the perfect nest
  std::vector<std::string> line_buffers; ///< local arrays that no longer appear in it
  std::vector<PointArray> point_arrays;  ///< local arrays now temporaries of each point
  std::vector<Variable> point_temps;     ///< those temporaries, one per element
  /// The statements of outer levels moved into the point (SinkScalars).
  std::vector<OuterStatement> outer_statements;
};

/// Runs the canonicalization passes on a region's lowered loop nest, in
/// order: the work arrays of the point become temporaries of each point
/// (canonicalize/PointArrays), line buffers are substituted into the loop
/// that reads them (canonicalize/ForwardLineBuffers), then scalars assigned
/// between the loops sink into the point, and the other statements of outer
/// levels run there once per outer iteration (canonicalize/SinkScalars), constant
/// subexpressions are folded as gfortran folds them
/// (canonicalize/FoldConstants), and maxima and minima written as IFs become
/// MAX and MIN (canonicalize/IfExtrema), so that ast/Reductions sees them as
/// the reductions they are. Returns the perfect nest, or throws a UserError
/// naming the statement that keeps the nest from being one.
Canonical canonicalize(const Stmt &nest, const LocalArrays &locals);

} // namespace f2s
