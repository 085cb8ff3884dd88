#include "canonicalize/Canonicalize.h"

#include "canonicalize/FoldConstants.h"
#include "canonicalize/ForwardLineBuffers.h"
#include "canonicalize/IfExtrema.h"
#include "canonicalize/PointArrays.h"
#include "canonicalize/SinkScalars.h"

namespace f2s {

Canonical canonicalize(const Stmt &nest, const LocalArrays &locals) {
  PrivateArrays point = privatize_point_arrays(nest, locals.point_arrays, locals.taken);
  ForwardedBuffers forwarded =
      forward_line_buffers(point.nest, locals.buffer_candidates, locals.loops, locals.inner_loops);
  // A scalar between the loops read from a buffer would see the last row's.
  std::vector<OuterStatement> outer;
  Stmt sunk = sink_scalars(forwarded.nest, nullptr, forwarded.buffers, locals.inner_loops, &outer);
  return {fold_if_extrema(fold_constants(sunk)), std::move(forwarded.buffers),
          std::move(point.arrays), std::move(point.temps), std::move(outer)};
}

} // namespace f2s
