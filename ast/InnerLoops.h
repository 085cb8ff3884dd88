// Loops inside the point with run-time trip counts (issue 38): `do jj = -r,
// r` around `s = s + w(jj)*u(i + jj, j)` with the radius an argument stays a
// serial For inside the point (frontend/OffsetLoops unrolls only loops of
// constant bounds), and its variable is a term of the subscripts it reaches
// (Index::inner). Each point then reads a window whose width only the call
// knows; this file holds the predicate that passes and targets ask before
// they apply. The loops of a nest deeper than three beyond the kernel's
// three take the same form (frontend/NestLoops): a component loop `do m =
// 1, nvar` runs inside each point, and the point then also stores at
// subscripts in its variable (`q(i,j,k,m)`, several elements per point),
// which every user below takes as it takes a read: the C and CUDA printers
// index with it, the dependence analysis models the store over the loop's
// trips, harness/ProblemSize sizes the grid for them, and the passes that
// would read the store as one element per point are the ones the tuning
// leaves out.
//
// Who handles Index::inner, and how (grep `\.inner\b`):
//  - printed by IRPrinter and codegen/CExpr (the loop's variable in the
//    index), so every plain C, pthreads and CUDA nest computes it, with the
//    loop printed as a loop of the point by every target;
//  - ast/LoopDependences models the loop and the term exactly where the
//    loop's bounds are affine in the kernel's INTEGER arguments and the
//    loop variables, so the nest's loops are free or carried for what the
//    window really touches; a bound that reads the point's values
//    (`kmt(i, j)`, a temporary) is dropped, over-approximating the loop's
//    trips, and read as an access where the loop starts;
//  - ast/Analysis counts the window as its centre (offset alone): the
//    footprint is a model of traffic, not of legality;
//  - harness/ProblemSize gives the arguments of the loop's bounds a small
//    value (or, where another loop's bounds read the point's values, the
//    largest value the harness stores in an INTEGER array) and sizes the
//    grids for the window, over the interval that a bound reading array
//    elements or temporaries may take;
//  - transforms/CommonSubexpressions keys an access by the term too;
//  - strategy/ keeps only the plain parallel nest (CPU) and plain CUDA
//    mappings: blocks and register blocks read a point's reach from the
//    offsets, and shared-memory staging, z streams and plane sums read
//    subscripts as loop variables plus constants;
//  - time loops, time tiling and MPI halo exchanges refuse such kernels
//    (their halos are constant widths).
#pragma once

#include "ast/IR.h"

#include <optional>

namespace f2s {

/// Whether the point holds a loop that is neither one of the nest's nor a
/// column's (Kernel::column): a loop inside the point with a run-time trip
/// count.
bool has_inner_loops(const Kernel &k);

/// Whether such a loop's bounds read what the point computes or reads: an
/// array element (`do k = 1, kmt(i, j)`, a column's depth at each point) or
/// a temporary of the point (`do k = 1, nk`). Its trips then differ from
/// point to point: ast/LoopDependences over-approximates its domain, and
/// the tuning harness bounds it by the values of its own data
/// (harness/ProblemSize).
bool has_point_bounds(const Kernel &k);

/// The first such loop, for messages: its variable and position.
struct InnerLoop {
  std::string var;
  SourceLoc loc;
};
std::optional<InnerLoop> first_inner_loop(const Kernel &k);

} // namespace f2s
