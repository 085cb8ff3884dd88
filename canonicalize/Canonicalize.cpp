#include "canonicalize/Canonicalize.h"

#include "canonicalize/SinkScalars.h"

namespace f2s {

Stmt canonicalize(const Stmt &nest) {
  return sink_scalars(nest);
}

} // namespace f2s
