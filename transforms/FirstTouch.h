// NUMA-aware first touch (Kamil et al. 2010, section IV-C-1): a kernel that
// writes zero to every element of every grid, run with the same decomposition
// as the stencil, so that each page is first touched, and therefore placed on
// the NUMA node of, the thread that will compute it.
#pragma once

#include "ast/IR.h"

namespace f2s {

/// The first-touch kernel of `k`: named `<k.name>_first_touch`, with k's
/// arguments (every grid written), temporaries and loop nest (same
/// variables, bounds and annotations), whose point body touches, for each
/// grid, the elements the point owns. Point (i, j, k) owns element (i, j, k)
/// of a grid whose dimensions those loops index (elements 2*i + o0 and
/// 2*i + o0 + 1 where every subscript is 2*i + o, o0 the smallest o, and
/// likewise for other positive factors); the first and last points of
/// a loop also own the elements below and above it (the halo planes go to the
/// thread of the nearest interior plane); a dimension no loop indexes belongs
/// wholly to each point, and a loop that indexes no dimension of the grid
/// touches it at its first point only, so every element is written once:
///
///   for k = 1, nz                       for k = 1, nz
///     for j = 1, ny             =>        for j = 1, ny
///       for i = 1, nx                       for i = 1, nx
///         u1(i,j,k) = u0(i+1,j,k)...          for u1_d3 = 0 + min(k - 1, 1)*(max(k, 0) - 0),
///                                                       nz + 1 - min(nz - k, 1)*(nz + 1 - min(k,
///                                                       nz + 1))
///                                               ... u1(u1_d1, u1_d2, u1_d3) = 0.0d0
///
/// Applying the same decomposition passes to it (core blocking, chunks, thread
/// blocks, parallel loops) then gives the touch the stencil's decomposition
/// by construction. A grid is left untouched when the iteration space is
/// empty.
Kernel first_touch_kernel(const Kernel &k);

} // namespace f2s
