#include "transforms/RestrictToBox.h"

#include "transforms/Names.h"

namespace f2s {

Kernel restrict_to_box(const Kernel &k) {
  Kernel out = k;
  out.name = k.name + "_box";
  std::vector<const For *> loops = perfect_nest(k.body); // outermost first
  std::set<std::string> used = names::in_use(k);
  const size_t depth = loops.size();
  std::vector<std::string> lo_names(depth), hi_names(depth);
  for (size_t a = 0; a < depth; ++a) { // a: axis, innermost first
    std::string axis = names::axis(depth - 1 - a, depth);
    lo_names[a] = names::fresh(used, "box_lo" + axis);
    hi_names[a] = names::fresh(used, "box_hi" + axis);
  }
  for (size_t a = 0; a < depth; ++a)
    for (const std::string &n : {lo_names[a], hi_names[a]}) {
      Variable v;
      v.name = n;
      v.type = Type::Int32;
      v.loc = k.loc;
      out.args.push_back(v);
    }
  // Rebuild the nest from the inside out.
  Stmt body = loops.back()->body;
  for (size_t d = depth; d-- > 0;) {
    const For *f = loops[d];
    size_t a = depth - 1 - d;
    Expr lo = f->lo, hi = f->hi;
    if (!f->reverse) {
      Expr box_lo = Var::make(lo_names[a], Type::Int32),
           box_hi = Var::make(hi_names[a], Type::Int32);
      const IntImm *unit = as<IntImm>(f->step);
      if (unit && unit->value == 1) {
        lo = Call::make(Intrinsic::Max, {f->lo, box_lo});
      } else {
        // lo + ceil(max(0, box_lo - lo) / s) * s for a positive step s.
        Expr s = f->step;
        Expr gap = Call::make(Intrinsic::Max,
                              {IntImm::make(0), Binary::make(BinaryOp::Sub, box_lo, f->lo)});
        Expr steps = Binary::make(
            BinaryOp::Div,
            Binary::make(BinaryOp::Sub, Binary::make(BinaryOp::Add, gap, s), IntImm::make(1)), s);
        lo = Binary::make(BinaryOp::Add, f->lo, Binary::make(BinaryOp::Mul, steps, s));
      }
      hi = Call::make(Intrinsic::Min, {f->hi, box_hi});
    }
    auto loop = std::make_shared<For>(*f);
    loop->lo = lo;
    loop->hi = hi;
    loop->body = body;
    body = loop;
  }
  out.body = body;
  return out;
}

} // namespace f2s
