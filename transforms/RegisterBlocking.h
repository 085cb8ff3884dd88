// Register blocking: several neighbouring points computed in one iteration,
// so values they share stay in registers (Kamil et al., Table III: RX, RY, RZ).
#pragma once

#include "ast/IR.h"

namespace f2s {

struct RegisterBlockingOptions {
  int rx = 1; ///< points along x (the innermost loop), 1..8
  int ry = 1; ///< points along y, 1..2
  int rz = 1; ///< points along z, 1..2 (no effect on a 2D nest)
};

/// Strip-mines the point loops (the unit-step loops at the bottom of the
/// nest, see is_point_nest) by the factors and jams the copies into the
/// innermost body, with a remainder loop after each main loop so every
/// extent is covered, including extents smaller than the factor:
///
///   for i = lo, hi {          for i = lo, hi - 1, 2 {
///     t = a(i)          =>      t_0 = a(i)
///     b(i) = t*t                b(i) = t_0*t_0
///   }                           t_1 = a(i + 1)
///                               b(i + 1) = t_1*t_1
///                             }
///                             for i = lo + (hi - lo + 1)/2*2, hi {
///                               t = a(i)
///                               b(i) = t*t
///                             }
///
/// The points of a jammed body come one after another, z slowest and x
/// fastest, and each has its own copy of every temporary (t_0, t_1, ...,
/// added to Kernel::temps), so points never clobber each other. Jamming is
/// legal for every nest the front end accepts: the points are independent.
/// A reduction's variable (Kernel::reductions) is not a temporary and is not
/// copied: each jammed point applies its update to the one accumulator in
/// turn, so only the order of a sum's terms changes (tests/harness/
/// PassesCorrectnessTest verifies it).
/// A loop keeps its execution annotation (a parallel loop's main and
/// remainder loops are both parallel). Factors out of range throw
/// std::invalid_argument.
Kernel register_block(const Kernel &k, const RegisterBlockingOptions &options);

} // namespace f2s
