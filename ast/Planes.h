// Planes at run-time positions (issue 38): subscripts without a loop
// variable that add a region-invariant INTEGER scalar (`u(n1 - 1, i2, i3)`,
// Index::sym), as periodic face copies write them. The element such a
// subscript reaches is known only at the call, so the dependence analysis's
// equations over the subscripts cannot decide whether two accesses meet;
// this file holds the rule that decides it instead, and the predicate that
// passes and printers ask before they apply.
//
// Who handles Index::sym, and how (grep `\.sym\b`):
//  - printed by IRPrinter and codegen/CExpr (the scalar argument in the
//    index), so every plain C, pthreads and CUDA nest computes it;
//  - ast/Dependence leaves grids accessed at planes to plane_conflict;
//  - ast/Analysis counts a plane like a constant subscript (no halo; the
//    element is the same for every point);
//  - harness/ProblemSize gives the scalar a value that keeps every plane
//    inside the array's bounds;
//  - strategy/ keeps only the plain parallel nest (CPU) and plain CUDA
//    mappings: blocks, chunks and register blocks would be legal, as every
//    point touches its own elements, but they pay nothing for a face copy,
//    and shared-memory staging, z streams and plane sums read subscripts as
//    loop variables plus constants;
//  - time loops, time tiling and MPI halo exchanges refuse such kernels.
#pragma once

#include "ast/IR.h"

#include <optional>
#include <set>
#include <string>

namespace f2s {

/// Whether some access of the kernel is at a run-time position.
bool has_planes(const Kernel &k);

/// The grids with an access at a run-time position.
std::set<std::string> grids_at_planes(const Kernel &k);

/// The first access at a run-time position, for messages: its grid,
/// subscript as printed and position; nullopt when there is none.
struct PlaneAccess {
  std::string grid, subscript;
  SourceLoc loc;
};
std::optional<PlaneAccess> first_plane(const Kernel &k);

/// A sweep of a time loop (Kernel::time_loop) holds no plane at a run-time
/// position: the time loop's printers and time tiling read every subscript
/// as a loop variable plus a constant. The first such access as a refusal
/// that says to annotate the nests one by one; nullopt when there is none.
std::optional<Diagnostic> find_plane_in_sweep(const Kernel &sweep);

/// The legality of a nest that writes a grid it also accesses at a
/// run-time position: two iterations of the nest's (parallel) loops touch
/// disjoint elements of such a grid when, in every dimension that some
/// access subscripts by a loop variable, all its accesses (reads and writes)
/// have the same subscript, and the writes cover every loop variable; within
/// one iteration, the statements run in their order. Planes (dimensions
/// without a loop variable) may then be anywhere, even the same element for
/// two accesses of one iteration. A grid that is only read is never a
/// problem. Returns the first access that breaks the rule, naming the grid,
/// both subscripts and the loop, or nullopt.
std::optional<Diagnostic> plane_conflict(const Kernel &k);

} // namespace f2s
