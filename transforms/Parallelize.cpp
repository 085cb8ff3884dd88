#include "transforms/Parallelize.h"

#include <cassert>

namespace f2s {

Kernel parallelize_outer(const Kernel &k) {
  const For *outer = as<For>(k.body);
  assert(outer && "a kernel's body is its loop nest");
  Kernel out = k;
  out.body = For::make(outer->var, outer->lo, outer->hi, outer->step, LoopExec::Parallel,
                       outer->body, outer->loc);
  return out;
}

} // namespace f2s
