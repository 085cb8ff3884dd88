// The last upper bound of an assumed-size array (`v(5, ldx, ldy, *)`, as F77
// codes pass arrays): the procedure does not know it, but the region's loops
// say how far the region reaches into it, and that is all the library needs
// (the elements a GPU call copies, the extent tuning allocates). The
// library's Fortran interface then declares the array explicit-shape with
// that bound, which sequence association lets the caller's array (or an
// element of it, `call smooth(v(1, k), ...)`) be passed to, as before.
#pragma once

#include "ast/IR.h"

#include <optional>
#include <string>

namespace f2s {

/// The largest subscript in dimension `dim` (0-based) of `grid` that `body`
/// (a region's nest whose loops have bounds fixed for the sweep, as
/// canonicalize/BoundingBox leaves them) reads or writes, as an INTEGER
/// expression of the kernel's scalars: for a subscript c*v + o (+ sym), the
/// value at the end of v's loop where c grows it (c*hi + o) and at its start
/// otherwise (c*lo + o), and the MAX over the accesses. None when no access
/// has that dimension or a loop's bounds mention another loop's variable
/// (a loop inside the point over a range that moves with the point).
std::optional<Expr> largest_subscript(const Stmt &body, const std::string &grid, size_t dim);

} // namespace f2s
