#include "transforms/Chunking.h"

#include "transforms/Names.h"

#include <stdexcept>

namespace f2s {

namespace {

/// Whether a loop inside `nest[d]` starts at its variable: the mark of a
/// core-block loop.
bool starts_a_deeper_loop(const std::vector<const For *> &nest, size_t d) {
  for (size_t e = d + 1; e < nest.size(); ++e)
    if (const Var *v = as<Var>(nest[e]->lo); v && v->name == nest[d]->var)
      return true;
  return false;
}

} // namespace

Kernel chunk_blocks(const Kernel &k) {
  std::vector<const For *> nest = perfect_nest(k.body);
  if (nest.empty())
    throw std::invalid_argument("chunking needs a loop nest in kernel '" + k.name + "'");

  // The core-block loops, as long as their bounds do not depend on an outer
  // one (collapsing numbers the iterations of a rectangular set).
  size_t collapse = 0;
  std::set<std::string> outer;
  while (collapse < nest.size() && starts_a_deeper_loop(nest, collapse)) {
    const For *f = nest[collapse];
    if (names::uses_any(f->lo, outer) || names::uses_any(f->hi, outer) ||
        names::uses_any(f->step, outer))
      break;
    outer.insert(f->var);
    ++collapse;
  }
  if (collapse == 0)
    collapse = 1;
  for (size_t d = 0; d < collapse; ++d)
    if (nest[d]->exec != LoopExec::Serial)
      throw std::invalid_argument("chunking needs serial loops, but loop '" + nest[d]->var +
                                  "' of kernel '" + k.name + "' is " +
                                  loop_exec_name(nest[d]->exec));

  Kernel out = k;
  std::set<std::string> used = names::in_use(k);
  std::string chunk = names::fresh(used, "chunk");
  out.tuning.push_back(Variable{chunk, Type::Int32, {}, k.loc});
  const For *f = nest[0];
  Distribution dist{static_cast<int>(collapse), Var::make(chunk, Type::Int32, f->loc),
                    IntImm::make(1)};
  out.body = For::make(f->var, f->lo, f->hi, f->step, LoopExec::Groups, dist, f->body, f->loc);
  return out;
}

} // namespace f2s
