// Planes at run-time positions (issue 38): subscripts without a loop
// variable that add a region-invariant INTEGER scalar (`u(n1 - 1, i2, i3)`,
// Index::sym), as periodic face copies write them; and, alike to every
// consumer but the plane rule below, offsets at run-time positions: a loop
// variable plus such a scalar (`u(i, j + joff)` in an array the region
// writes, `a(i) = a(i + d)`), which the front end keeps in the subscript
// where it cannot move the offset into the array's bounds. The element such
// a subscript reaches is known only at the call.
//
// Who handles Index::sym, and how (grep `\.sym\b`):
//  - printed by IRPrinter and codegen/CExpr (the scalar argument, times
//    Index::sym_coeff, in the index), so every plain C, pthreads and CUDA
//    nest computes it;
//  - ast/LoopDependences reads the scalar as a parameter of the access
//    maps: a dependence that exists for some value of it is one;
//  - ast/Dependence leaves grids written and accessed at planes to
//    plane_conflict, and everything else (offsets included) to isl;
//  - ast/Analysis counts a plane like a constant subscript (no halo; the
//    element is the same for every point), and an offset like its loop
//    variable's subscript without it;
//  - harness/ProblemSize gives the scalar a value that keeps every plane
//    and offset inside the array's bounds;
//  - strategy/ keeps only the plain parallel nest (CPU) and plain CUDA
//    mappings: blocks, chunks and register blocks would be legal where every
//    point touches its own elements, but they pay nothing for a face copy,
//    and shared-memory staging, z streams, plane sums and the halos of
//    blocks read subscripts as loop variables plus constants;
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
  bool plane = true; ///< a plane (Index::is_plane), else an offset of a loop variable
};
std::optional<PlaneAccess> first_plane(const Kernel &k);

/// A sweep of a time loop (Kernel::time_loop) holds no plane at a run-time
/// position: the time loop's printers and time tiling read every subscript
/// as a loop variable plus a constant. The first such access as a refusal
/// that says to annotate the nests one by one; nullopt when there is none.
std::optional<Diagnostic> find_plane_in_sweep(const Kernel &sweep);

/// The legality of a nest that writes a grid it also accesses at a plane
/// (Index::is_plane; offsets at run-time positions are isl's alone): two iterations of the nest's
/// (parallel) loops touch disjoint elements of such a grid when, in every dimension that some
/// access subscripts by a loop variable, all its accesses (reads and writes)
/// have the same subscript, and the writes cover every loop variable; within
/// one iteration, the statements run in their order. Planes (dimensions
/// without a loop variable) may then be anywhere, even the same element for
/// two accesses of one iteration. A grid that is only read is never a
/// problem. Returns the first access that breaks the rule, naming the grid,
/// both subscripts and the loop, or nullopt.
std::optional<Diagnostic> plane_conflict(const Kernel &k);

} // namespace f2s
