// Plane sums along a CUDA z stream: for a stencil that is a weighted sum of
// one grid's neighbours, each thread walks its column plane by plane, loads
// each plane's in-plane neighbours once, and adds the plane's weighted sums to
// the outputs of every plane that reads it (the "forward accumulation" of
// hand-tuned 3D finite-difference kernels; seed 000's 2.5D blocking carried
// from shared memory into registers). A 27-point box then loads 9 values a
// point instead of 27.
//
// The sums are reassociated: an output is the sum of its planes' partial
// sums, in plane order, not the source's order of terms. Results agree with
// the serial code to rounding, not bitwise; the tuner verifies them against
// the serial reference with the usual tolerance like every candidate.
#pragma once

#include "ast/IR.h"

namespace f2s {

/// Whether plane sums apply to `k` (the front end's nest or a CUDA mapping
/// of it) and pay: a 3-deep nest whose point is scalar temporaries and one
/// store at the point, no IF and no reduction, whose stored value is a sum
/// of terms `c * g(x+dx, y+dy, z+dz)` of one read-only grid g plus a part
/// that does not read g, each weight c free of grid reads; and the distinct
/// (dx, dy) of those terms are fewer than the terms a z register pipeline
/// would still load (so a 27-point box pays, a 7-point star does not).
bool plane_sums_pay(const Kernel &k);

/// Rewrites a kernel mapped by map_cuda with a z stream and one point per
/// thread, for which plane_sums_pay holds, into
///
///   for y (one point), for x (one point):
///     s0 = 0, ..., s(n-1) = 0          n = planes a point reads (z offsets)
///     for p = z_first + dz_lo, z_last + dz_hi:
///       s_j = s_j + (sum over the terms at dz = dz_hi - j of c * g(x+dx, y+dy, p))
///       if (p >= z_first + dz_hi) out(x, y, p - dz_hi) = s0 + rest
///       s0 = s1, ..., s(n-1) = 0
///
/// so that s_j holds the output of plane p - dz_hi + j. Returns `k`
/// unchanged when it does not apply.
Kernel sum_planes(const Kernel &k);

} // namespace f2s
