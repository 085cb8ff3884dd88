#include "canonicalize/Canonicalize.h"

#include "canonicalize/FoldConstants.h"
#include "canonicalize/ForwardLineBuffers.h"
#include "canonicalize/IfExtrema.h"
#include "canonicalize/SinkScalars.h"

namespace f2s {

Canonical canonicalize(const Stmt &nest, const std::set<std::string> &buffer_candidates) {
  ForwardedBuffers forwarded = forward_line_buffers(nest, buffer_candidates);
  // A scalar between the loops read from a buffer would see the last row's.
  return {fold_if_extrema(fold_constants(sink_scalars(forwarded.nest, nullptr, forwarded.buffers))),
          std::move(forwarded.buffers)};
}

} // namespace f2s
