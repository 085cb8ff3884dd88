// Maxima and minima written as IFs, folded into MAX and MIN.
//
// FORTRAN 77 codes keep a running maximum the way the language first allowed:
// `IF (A .GT. RNMU) RNMU = A`. Read as written, the condition reads RNMU
// outside its update, so the scalar looks carried from point to point and the
// region would be refused, though OpenMP takes the same loop with
// `REDUCTION(MAX:RNMU)`. Written as `RNMU = MAX(RNMU, A)` it is the reduction
// ast/Reductions recognises, with the same value at every point.
#pragma once

#include "ast/IR.h"

namespace f2s {

/// `nest` with every `IF (x > s) s = x` (also `>=`, `s < x`, `s <= x`)
/// replaced by `s = max(s, x)`, and every `IF (x < s) s = x` (`<=`,
/// `s > x`, `s >= x`) by `s = min(s, x)`: an IF with no ELSE whose only
/// statement assigns a scalar `s` the expression `x` that the condition
/// compares with `s`, where `x` does not read `s`. The value of `s` after the
/// statement is the same but for a NaN `x` (the IF keeps `s`, MAX is
/// processor dependent) and the sign of a zero when `x` and `s` are both
/// zero. Anything else, the max-with-location form
/// `IF (x > s) THEN; s = x; is = i; END IF` included, stays as written.
Stmt fold_if_extrema(const Stmt &nest);

} // namespace f2s
