#include "transforms/ThreadBlocking.h"

#include "transforms/Names.h"

#include <stdexcept>

namespace f2s {

namespace {

Expr plus(const Expr &a, const Expr &b) {
  return Binary::make(BinaryOp::Add, a, b);
}
Expr minus(const Expr &a, const Expr &b) {
  return Binary::make(BinaryOp::Sub, a, b);
}
Expr times(const Expr &a, const Expr &b) {
  const IntImm *one = as<IntImm>(b);
  return one && one->value == 1 ? a : Binary::make(BinaryOp::Mul, a, b);
}

/// Rebuilds the loops nest[0..count) around `body`, keeping each loop's
/// annotation except that loop `changed` gets distribution `dist`.
Stmt rewrap(const std::vector<const For *> &nest, size_t count, Stmt body, size_t changed,
            const Distribution &dist) {
  for (size_t d = count; d-- > 0;) {
    const For *f = nest[d];
    body = For::make(f->var, f->lo, f->hi, f->step, f->exec, d == changed ? dist : f->dist, body,
                     f->loc);
  }
  return body;
}

} // namespace

Kernel block_threads(const Kernel &k) {
  std::vector<const For *> nest = perfect_nest(k.body);
  size_t g = 0;
  while (g < nest.size() && nest[g]->exec != LoopExec::Groups)
    ++g;
  if (g == nest.size())
    throw std::invalid_argument("thread blocking deals the blocks of a thread group: kernel '" +
                                k.name + "' has no chunked loop (apply chunking first)");
  size_t first = g + static_cast<size_t>(nest[g]->dist.collapse);
  if (first >= nest.size())
    throw std::invalid_argument("thread blocking needs loops inside the chunked ones in kernel '" +
                                k.name + "'");
  for (size_t d = first; d < nest.size(); ++d)
    if (nest[d]->exec != LoopExec::Serial)
      throw std::invalid_argument("thread blocking needs serial loops, but loop '" + nest[d]->var +
                                  "' of kernel '" + k.name + "' is " +
                                  loop_exec_name(nest[d]->exec));

  Kernel out = k;
  std::set<std::string> used = names::in_use(k);
  std::string group = names::fresh(used, "group");
  const size_t depth = nest.size() - first;
  std::vector<std::string> tb_var(depth), size_var(depth);
  for (size_t d = 0; d < depth; ++d) {
    tb_var[d] = names::fresh(used, nest[first + d]->var + "_tb");
    size_var[d] = names::fresh(used, "t" + names::axis(d, depth));
  }
  out.tuning.push_back(Variable{group, Type::Int32, {}, k.loc});
  for (size_t a = 0; a < depth; ++a) // x first, like the core block sizes
    out.tuning.push_back(Variable{size_var[depth - 1 - a], Type::Int32, {}, k.loc});

  // Point loops, each limited to its thread block.
  Stmt body = nest.back()->body;
  for (size_t d = depth; d-- > 0;) {
    const For *f = nest[first + d];
    Expr start = Var::make(tb_var[d], Type::Int32, f->loc);
    Expr size = Var::make(size_var[d], Type::Int32, f->loc);
    Expr last = minus(plus(start, times(size, f->step)), f->step);
    Expr hi = Call::make(Intrinsic::Min, {last, f->hi}, f->loc);
    body = For::make(f->var, start, hi, f->step, LoopExec::Serial, body, f->loc);
  }
  // Thread-block loops over the same ranges; those whose bounds depend on an
  // outer thread-block loop end the collapsed set.
  size_t collapse = 0;
  std::set<std::string> outer;
  while (collapse < depth) {
    const For *f = nest[first + collapse];
    if (names::uses_any(f->lo, outer) || names::uses_any(f->hi, outer) ||
        names::uses_any(f->step, outer))
      break;
    outer.insert(f->var);
    ++collapse;
  }
  for (size_t d = depth; d-- > 0;) {
    const For *f = nest[first + d];
    Expr step = times(Var::make(size_var[d], Type::Int32, f->loc), f->step);
    if (d == 0)
      body = For::make(tb_var[d], f->lo, f->hi, step, LoopExec::Members,
                       Distribution{static_cast<int>(collapse), IntImm::make(1), nullptr}, body,
                       f->loc);
    else
      body = For::make(tb_var[d], f->lo, f->hi, step, LoopExec::Serial, body, f->loc);
  }
  // The Groups loop gets the group size; the loops around it are kept.
  Distribution dist = nest[g]->dist;
  dist.group = Var::make(group, Type::Int32, nest[g]->loc);
  out.body = rewrap(nest, first, body, g, dist);
  return out;
}

} // namespace f2s
