// Line buffers forward-substituted into the loop that reads them.
//
// Classic multigrid residual, smoother and prolongation routines fill local
// 1D arrays in a first inner loop over a slightly wider range, and read them
// at neighbouring indices in the next one:
//
//   do i = 1, n                      ! fills the buffers
//     u1(i) = u(i,j-1,k) + u(i,j+1,k)
//   end do
//   do i = 2, n - 1                  ! reads them
//     r(i,j,k) = v(i,j,k) - c*(u1(i-1) + u1(i+1))
//   end do
//
// The buffer is a cache of sums the compiler could not see as shared. The
// point that reads `u1(i+c)` computes the buffer's definition at i + c from
// the grids directly: the same operations in the same order, so the same
// bits, and a perfect nest for the rest of the pipeline. Several consumer
// loops over one range become one loop when that keeps every access where
// the source had it.
#pragma once

#include "ast/IR.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace f2s {

/// A DO loop side by side with others, as the source writes it: what its
/// lowered loop no longer says (a step of 2 became a counter from 0, a step
/// of -1 a reversed loop) and where the source says it, for the refusals.
struct SourceLoop {
  SourceLoc loc;               ///< the DO statement, the lowered loop's loc
  SourceLoc var_loc;           ///< its variable
  std::optional<int64_t> step; ///< the step as written, folded; 1 when omitted
  SourceLoc step_loc;          ///< the step, when written
};

struct ForwardedBuffers {
  Stmt nest;                        ///< one inner loop where the source had several
  std::vector<std::string> buffers; ///< the line buffers removed, in source order
};

/// Finds, in the innermost loop body of `nest` that holds several sibling
/// loops (all over the same variable, unit step, after any scalar
/// assignments), the leading loops that only fill buffers (`b(i) = e`, with
/// `b` one of `candidates`: 1D arrays local to the procedure), substitutes
/// each read `b(i + c)` in the loops after them by `e` with i shifted by c,
/// and fuses those loops into one. Refused with a UserError saying why (a
/// loop over another variable than the last, or with a step other than 1 in
/// the source, as `source` says; a read outside the filled range, a buffer
/// filled from an array the nest writes, consumers that cannot be fused,
/// ...). A nest without sibling loops comes back as it was. Loops over
/// `inner_loops` (loops inside the point with run-time trip counts,
/// ast/InnerLoops) are statements of the point, never sibling loops of the
/// nest.
ForwardedBuffers forward_line_buffers(const Stmt &nest, const std::set<std::string> &candidates,
                                      const std::vector<SourceLoop> &source = {},
                                      const std::set<std::string> &inner_loops = {});

} // namespace f2s
