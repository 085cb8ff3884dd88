// Common subexpressions: a value that several statements of a straight-line
// block compute (the jammed points of register blocking share many) is
// computed once into a temporary.
#pragma once

#include "ast/IR.h"

namespace f2s {

struct CommonSubexpressionOptions {
  bool enabled = true; ///< option "cse" (0/1)
};

/// Within each run of statements between loops (and in a loop body that is a
/// single statement), a floating-point subexpression that occurs more than
/// once and is more than a literal, a variable or a grid element is assigned
/// to a new temporary (cse0, cse1, ..., added to Kernel::temps) before the
/// first statement that uses it, and every occurrence reads the temporary.
/// Occurrences are the same when their trees are equal (same operations,
/// grid elements, literals with their kinds) and no variable or grid they
/// read is assigned in between (so two identical updates `s = s + h` of a
/// reduction, as register blocking makes, stay two: the first assigns s).
/// Only whole subtrees are shared, never
/// reassociated, so the results are bitwise those of the input; the
/// largest shared subtrees are taken first.
Kernel eliminate_common_subexpressions(const Kernel &k, const CommonSubexpressionOptions &options);

} // namespace f2s
