// Work arrays of the point, made scalars of each point's own.
//
// Block-tridiagonal, ADI and other multi-component codes fill small local
// arrays per point with loops of constant bounds, and read them a few
// statements later:
//
//   do m = 1, 5
//     tv(m) = rhs(m,i,j) + 0.25d0*(uold(m,i-1,j) + uold(m,i,j-1))
//   end do
//   do m = 1, 5
//     u(m,i,j) = tv(m)*0.5d0
//   end do
//
// The loops over m run inside the point, where the front end unrolls them
// (frontend/OffsetLoops), so every access to `tv` has constant subscripts:
// `tv(1)` .. `tv(5)`. Fortran's `tv` is one array shared by every point; the
// library gives each point its own copy, as OpenMP's PRIVATE would. Each
// element becomes a scalar temporary of the point (`tv_1` .. `tv_5`), which
// every target keeps in registers, and the nest no longer touches the
// array. That is the source's meaning only when each point assigns every
// element before it reads it: otherwise a point would read what the point
// before it left (a dependence carried by the nest's loops, which privacy
// would hide), so such a read is refused. Whether the procedure reads the
// array after the region is ast/ValuesAfterRegion's question.
#pragma once

#include "ast/IR.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace f2s {

struct PrivateArrays {
  Stmt nest;                      ///< without a Store or GridRef of the arrays
  std::vector<Variable> temps;    ///< one per element, in the order first assigned
  std::vector<PointArray> arrays; ///< the arrays privatized, by name
};

/// Replaces every Store to and GridRef of the arrays of `arrays` (each with
/// its element type) in `nest` by an Assign to and a Var of a temporary per
/// element: `<array>_<subscript>[_<subscript>...]` (a negative subscript
/// spelt `m1` for -1), followed by `_2`, `_3`, ... when that name is in
/// `taken` or in the nest. Throws a UserError at the access for an access
/// whose subscripts are not all constants, and at the read for an element
/// read before the point assigns it on every path through the statements
/// before (the branches of IFs; a loop inside the point may run no trip).
PrivateArrays privatize_point_arrays(const Stmt &nest, const std::map<std::string, Type> &arrays,
                                     const std::set<std::string> &taken);

} // namespace f2s
