// Helpers shared by the per-point passes (register blocking, common
// subexpressions, array indexing, cache bypass, prefetch): finding the loops
// that run over the points of a block, and making names that capture nothing.
#pragma once

#include "ast/IR.h"

#include <set>
#include <string>

namespace f2s {

/// Whether `s` is a nest of point loops: a perfect nest of serial or
/// (plain) parallel loops that step by the literal 1 and whose innermost
/// body holds no loop. Core blocking
/// (and every other loop decomposition) leaves block loops with run-time
/// steps outside, so the point loops are the unit-step loops at the bottom.
bool is_point_nest(const Stmt &s);

/// Whether the statement holds a loop anywhere.
bool contains_loop(const Stmt &s);

/// Whether `e` reads the scalar or loop variable `name`.
bool uses_var(const Expr &e, const std::string &name);

} // namespace f2s
