#include "transforms/CudaMapping.h"

#include "transforms/Names.h"

#include <algorithm>
#include <cassert>
#include <set>

namespace f2s {

namespace {

bool mentions(const Expr &e, const std::set<std::string> &vars) {
  if (const Var *v = as<Var>(e))
    return vars.count(v->name) > 0;
  if (const Unary *u = as<Unary>(e))
    return mentions(u->a, vars);
  if (const Binary *b = as<Binary>(e))
    return mentions(b->a, vars) || mentions(b->b, vars);
  if (const Call *c = as<Call>(e)) {
    for (const Expr &a : c->args)
      if (mentions(a, vars))
        return true;
  }
  if (const Select *m = as<Select>(e))
    return mentions(m->cond, vars) || mentions(m->a, vars) || mentions(m->b, vars);
  return false;
}

/// e*n, folded when e is a constant, so unit-step loops print plainly.
Expr times(const Expr &e, int64_t n) {
  if (n == 1)
    return e;
  if (const IntImm *i = as<IntImm>(e))
    return IntImm::make(i->value * n, e->loc);
  return Binary::make(BinaryOp::Mul, e, IntImm::make(n), e->loc);
}

Expr plus(const Expr &a, const Expr &b) {
  if (const IntImm *i = as<IntImm>(b); i && i->value == 0)
    return a;
  return Binary::make(BinaryOp::Add, a, b, a->loc);
}

/// One mapped axis: the original loop and the names of its block origin and
/// thread index.
struct Axis {
  const For *loop = nullptr;
  std::string block, thread;
  int threads = 1, points = 1;
  Expr block_var() const { return Var::make(block, Type::Int32, loop->loc); }
  /// The points of one tile along this axis, as a loop inside the thread.
  Stmt point_loop(const Stmt &body) const {
    Expr first = plus(block_var(), times_var(thread, loop->step));
    // With one point per thread the loop runs at most once: say so (hi is
    // min(first, hi)), so the printer can emit an if.
    Expr last =
        points == 1 ? first : plus(block_var(), times(loop->step, int64_t(threads) * points - 1));
    Expr hi = Call::make(Intrinsic::Min, {last, loop->hi}, loop->loc);
    return For::make(loop->var, first, hi, times(loop->step, threads), LoopExec::Unrolled, body,
                     loop->loc);
  }
  Stmt thread_loop(LoopExec e, const Stmt &body) const {
    return For::make(thread, IntImm::make(0), IntImm::make(threads - 1), IntImm::make(1), e, body,
                     loop->loc);
  }
  Stmt block_loop(LoopExec e, const Stmt &body) const {
    return For::make(block, loop->lo, loop->hi, times(loop->step, int64_t(threads) * points), e,
                     body, loop->loc);
  }

private:
  Expr times_var(const std::string &v, const Expr &step) const {
    Expr t = Var::make(v, Type::Int32, loop->loc);
    if (const IntImm *i = as<IntImm>(step); i && i->value == 1)
      return t;
    return Binary::make(BinaryOp::Mul, t, step, loop->loc);
  }
};

} // namespace

Kernel map_cuda(const Kernel &k, const CudaMappingOptions &o) {
  assert(o.block_x > 0 && o.block_y > 0 && o.points_x > 0 && o.points_y > 0 && o.stream_z >= 0 &&
         "CUDA mapping sizes must be positive");
  std::vector<const For *> loops = perfect_nest(k.body);
  assert(!loops.empty() && "a kernel's body is its loop nest");
  const For *innermost = loops.back();
  if (loops.size() > 3)
    throw UserError(loops.front()->loc, "The CUDA target maps nests of at most 3 loops; this one "
                                        "has " +
                                            std::to_string(loops.size()));
  std::set<std::string> loop_vars;
  for (const For *f : loops)
    loop_vars.insert(f->var);
  for (const For *f : loops)
    if (mentions(f->lo, loop_vars) || mentions(f->hi, loop_vars) || mentions(f->step, loop_vars))
      throw UserError(f->loc, "The CUDA target needs loop bounds that do not depend on another "
                              "loop's variable (loop '" +
                                  f->var + "')");

  // An ordered loop runs serially inside each thread, around its points; the
  // free loops are the ones mapped.
  const For *ordered = nullptr;
  if (k.ordered) {
    auto it = std::find_if(loops.begin(), loops.end(),
                           [&](const For *f) { return f->var == k.ordered->var; });
    assert(it != loops.end() && loops.size() > 1 && o.stream_z == 0 &&
           "the ordered loop is a loop of the nest, beside a free one, and not streamed");
    ordered = *it;
    loops.erase(it);
  }
  std::set<std::string> used = names::in_use(k);
  const size_t depth = loops.size();
  Axis x, y, z;
  x.loop = loops[depth - 1];
  x.threads = o.block_x;
  x.points = o.points_x;
  x.block = names::fresh(used, x.loop->var + "_b");
  x.thread = names::fresh(used, x.loop->var + "_t");
  if (depth >= 2) {
    y.loop = loops[depth - 2];
    y.threads = o.block_y;
    y.points = o.points_y;
    y.block = names::fresh(used, y.loop->var + "_b");
    y.thread = names::fresh(used, y.loop->var + "_t");
  }
  if (depth >= 3) {
    z.loop = loops[0];
    z.points = o.stream_z > 0 ? o.stream_z : 1;
    z.block = o.stream_z > 0 ? names::fresh(used, z.loop->var + "_b") : z.loop->var;
  }

  // Inside a thread, innermost first: x points, y points, the z stream.
  Stmt body = x.point_loop(innermost->body);
  if (y.loop)
    body = y.point_loop(body);
  if (ordered)
    body = For::reversed(For::make(ordered->var, ordered->lo, ordered->hi, ordered->step,
                                   LoopExec::Serial, body, ordered->loc),
                         ordered->reverse);
  if (z.loop && o.stream_z > 0) {
    Expr last = plus(z.block_var(), times(z.loop->step, o.stream_z - 1));
    Expr hi = Call::make(Intrinsic::Min, {last, z.loop->hi}, z.loop->loc);
    body = For::make(z.loop->var, z.block_var(), hi, z.loop->step, LoopExec::Serial, body,
                     z.loop->loc);
  }
  // The threads of a block, then the blocks of the grid.
  body = x.thread_loop(LoopExec::CudaThreadX, body);
  if (y.loop)
    body = y.thread_loop(LoopExec::CudaThreadY, body);
  body = x.block_loop(LoopExec::CudaBlockX, body);
  if (y.loop)
    body = y.block_loop(LoopExec::CudaBlockY, body);
  if (z.loop)
    body = z.block_loop(LoopExec::CudaBlockZ, body);

  Kernel out = k;
  out.body = body;
  return out;
}

} // namespace f2s
