#include "transforms/Parallelize.h"

#include <cassert>

namespace f2s {

namespace {

/// The nest at `s` with its first loop that is not `ordered` marked Parallel.
Stmt parallelize_first_free(const Stmt &s, const std::string &ordered) {
  const For *f = as<For>(s);
  assert(f && "an ordered nest has a free loop");
  if (f->var != ordered)
    return For::make(f->var, f->lo, f->hi, f->step, LoopExec::Parallel, f->body, f->loc);
  return For::reversed(For::make(f->var, f->lo, f->hi, f->step, f->exec,
                                 parallelize_first_free(f->body, ordered), f->loc),
                       f->reverse);
}

} // namespace

Kernel parallelize_outer(const Kernel &k) {
  assert(as<For>(k.body) && "a kernel's body is its loop nest");
  Kernel out = k;
  out.body = parallelize_first_free(k.body, k.ordered ? k.ordered->var : std::string());
  return out;
}

} // namespace f2s
