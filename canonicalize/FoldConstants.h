// Folding constant subexpressions as gfortran folds them.
//
// gfortran evaluates every operation and intrinsic call whose operands are
// constants while it compiles, even at -O0 and in ordinary statements: each
// operation with MPFR, correctly rounded to the precision of its kind
// (`log(0.1)**3` is the correctly rounded logarithm, then the exact cube
// rounded once). Left to the generated code, the same expression would be
// folded or not depending on the C or CUDA compiler and its flags, and
// computed at run time it rounds differently (the cube of `x*x*x` twice; the
// GPU's logf is not correctly rounded). Folding here, the way gfortran does,
// makes every target agree with the original whatever compiles it.
#pragma once

#include "ast/IR.h"

namespace f2s {

/// `e` with every constant subtree replaced by its value: INTEGER arithmetic
/// exactly (nothing folded that leaves the 32-bit range or divides by zero),
/// REAL arithmetic, `**` and the intrinsics (the elementary functions,
/// MIN, MAX, ABS, SIGN, MOD and the conversions) each rounded to nearest in
/// its own kind, as gfortran's MPFR arithmetic does. A subtree whose value or an intermediate
/// value is not a finite normal number (or zero) in its kind stays as
/// written, to be evaluated at run time as gfortran would then do too.
Expr fold_constants(const Expr &e);

/// Every expression of `s` folded.
Stmt fold_constants(const Stmt &s);

} // namespace f2s
