#include "transforms/CoreBlocking.h"

#include "transforms/Names.h"

#include <cassert>

namespace f2s {

Kernel block_loops(const Kernel &k) {
  std::vector<const For *> loops = perfect_nest(k.body);
  assert(!loops.empty() && "a kernel's body is its loop nest");
  Stmt inner_body = loops.back()->body;

  Kernel out = k;
  std::set<std::string> used = names::in_use(k);
  static const char *const axis = "xyz";
  const size_t depth = loops.size();
  std::vector<std::string> block_var(depth), size_var(depth);
  for (size_t d = 0; d < depth; ++d) {
    // Loop d (outermost first) is axis depth-1-d: x is the innermost.
    size_t a = depth - 1 - d;
    std::string axis_name = a < 3 ? std::string(1, axis[a]) : std::to_string(a);
    block_var[d] = names::fresh(used, loops[d]->var + "_blk");
    size_var[d] = names::fresh(used, "c" + axis_name);
  }
  // Tuning parameters are listed x first, like tune_size.
  for (size_t a = 0; a < depth; ++a)
    out.tuning.push_back(Variable{size_var[depth - 1 - a], Type::Int32, {}, k.loc});

  // Point loops, innermost first, each limited to its block.
  Stmt body = inner_body;
  for (size_t d = depth; d-- > 0;) {
    const For *f = loops[d];
    Expr start = Var::make(block_var[d], Type::Int32, f->loc);
    Expr size = Var::make(size_var[d], Type::Int32, f->loc);
    Expr last =
        Binary::make(BinaryOp::Sub, Binary::make(BinaryOp::Add, start, size), IntImm::make(1));
    Expr hi = Call::make(Intrinsic::Min, {last, f->hi}, f->loc);
    body = For::make(f->var, start, hi, IntImm::make(1), LoopExec::Serial, body, f->loc);
  }
  // Block loops around them, in the original order.
  for (size_t d = depth; d-- > 0;) {
    const For *f = loops[d];
    Expr size = Var::make(size_var[d], Type::Int32, f->loc);
    body = For::make(block_var[d], f->lo, f->hi, size, f->exec, body, f->loc);
  }
  out.body = body;
  return out;
}

} // namespace f2s
