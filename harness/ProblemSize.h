// The argument values that make a kernel's loops run over a given size.
#pragma once

#include "ast/IR.h"

#include <map>
#include <string>
#include <vector>

namespace f2s {

struct ProblemSize {
  std::vector<int64_t> extents;           ///< trips of each loop, x first
  std::map<std::string, int64_t> ints;    ///< values of the INTEGER scalar arguments
  std::vector<std::string> scalar_values; ///< every scalar argument's value, argument order
  int64_t points() const;
};

/// Chooses values of the kernel's integer arguments so that each loop runs
/// `extents` trips (x first): a variable in a lower bound is set to 1, the
/// variable in an upper bound is solved for, and an integer that only sizes
/// grids gets the smallest value that holds every access. REAL arguments get fixed values
/// in [0.5, 1.5). Throws UserError when no values can be derived, or when a
/// grid would be accessed outside its declared bounds at this size (the
/// harness would crash there, and so would the original).
ProblemSize problem_size_for(const Kernel &k, const std::vector<int64_t> &extents);

} // namespace f2s
