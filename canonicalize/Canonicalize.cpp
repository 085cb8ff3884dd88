#include "canonicalize/Canonicalize.h"

#include "canonicalize/FoldConstants.h"
#include "canonicalize/ForwardLineBuffers.h"
#include "canonicalize/SinkScalars.h"

namespace f2s {

Canonical canonicalize(const Stmt &nest, const std::set<std::string> &buffer_candidates) {
  ForwardedBuffers forwarded = forward_line_buffers(nest, buffer_candidates);
  return {fold_constants(sink_scalars(forwarded.nest)), std::move(forwarded.buffers)};
}

} // namespace f2s
