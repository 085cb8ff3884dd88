#include "canonicalize/BoundingBox.h"

#include "ast/IRVisitor.h"

namespace f2s {

namespace {

/// How an integer expression changes as one variable grows.
enum class Trend { Flat, Up, Down, Unknown };

Trend flip(Trend t) {
  return t == Trend::Up ? Trend::Down : t == Trend::Down ? Trend::Up : t;
}

/// The trend of a sum (or MIN, MAX) of terms with trends a and b.
Trend combine(Trend a, Trend b) {
  if (a == Trend::Flat)
    return b;
  if (b == Trend::Flat || a == b)
    return a;
  return Trend::Unknown;
}

Trend trend(const Expr &e, const std::string &v) {
  if (const Var *x = as<Var>(e))
    return x->name == v ? Trend::Up : Trend::Flat;
  if (as<IntImm>(e))
    return Trend::Flat;
  if (const Unary *u = as<Unary>(e))
    return u->op == UnaryOp::Neg ? flip(trend(u->a, v)) : Trend::Unknown;
  if (const Call *c = as<Call>(e)) {
    if (c->fn != Intrinsic::Min && c->fn != Intrinsic::Max)
      return Trend::Unknown;
    Trend t = Trend::Flat;
    for (const Expr &a : c->args)
      t = combine(t, trend(a, v));
    return t;
  }
  const Binary *b = as<Binary>(e);
  if (!b)
    return Trend::Unknown;
  Trend x = trend(b->a, v), y = trend(b->b, v);
  switch (b->op) {
  case BinaryOp::Add:
    return combine(x, y);
  case BinaryOp::Sub:
    return combine(x, flip(y));
  case BinaryOp::Mul: {
    // A constant factor keeps the trend or turns it round.
    const IntImm *c = as<IntImm>(b->a);
    Trend t = y;
    if (!c) {
      c = as<IntImm>(b->b);
      t = x;
    }
    if (x == Trend::Flat && y == Trend::Flat)
      return Trend::Flat;
    if (!c)
      return Trend::Unknown;
    return c->value == 0 ? Trend::Flat : c->value > 0 ? t : flip(t);
  }
  case BinaryOp::Div: {
    // Division by a positive constant truncates, which keeps the order.
    const IntImm *c = as<IntImm>(b->b);
    if (y != Trend::Flat || (x != Trend::Flat && (!c || c->value <= 0)))
      return Trend::Unknown;
    return x;
  }
  default:
    return x == Trend::Flat && y == Trend::Flat ? Trend::Flat : Trend::Unknown;
  }
}

/// `e` with the variable `v` replaced by `by`, constants folded where both
/// sides of an addition, subtraction or product are constants.
class Substitute : public IRMutator {
public:
  Substitute(std::string v, Expr by) : v_(std::move(v)), by_(std::move(by)) {}

protected:
  Expr visit_var(const Var *op, const Expr &self) override { return op->name == v_ ? by_ : self; }
  Expr visit_binary(const Binary *op, const Expr &self) override {
    Expr e = IRMutator::visit_binary(op, self);
    const Binary *b = as<Binary>(e);
    const IntImm *x = b ? as<IntImm>(b->a) : nullptr;
    const IntImm *y = b ? as<IntImm>(b->b) : nullptr;
    if (!x || !y || b->type != Type::Int32)
      return e;
    switch (b->op) {
    case BinaryOp::Add:
      return IntImm::make(x->value + y->value, e->loc);
    case BinaryOp::Sub:
      return IntImm::make(x->value - y->value, e->loc);
    case BinaryOp::Mul:
      return IntImm::make(x->value * y->value, e->loc);
    default:
      return e;
    }
  }

private:
  std::string v_;
  Expr by_;
};

bool mentions(const Expr &e, const std::string &v) {
  struct Finder : IRVisitor {
    const std::string &v;
    bool found = false;
    explicit Finder(const std::string &name) : v(name) {}
    void visit_var(const Var *x) override { found = found || x->name == v; }
  } f(v);
  f.visit(e);
  return f.found;
}

} // namespace

Kernel bound_box(const Kernel &k) {
  std::vector<const For *> nest = perfect_nest(k.body);
  bool fixed = true;
  for (size_t l = 1; l < nest.size(); ++l)
    for (size_t o = 0; o < l; ++o)
      fixed = fixed && !mentions(nest[l]->lo, nest[o]->var) && !mentions(nest[l]->hi, nest[o]->var);
  if (fixed)
    return k;

  // The extreme of a bound over the outer loops: substituting the outer
  // variables innermost first, each by the end of its own (source) range
  // where the bound is smallest or largest, so that the ends of a loop whose
  // range depends on further loops are substituted in turn.
  auto extreme = [&](Expr e, size_t level, bool largest) {
    // MIN(n, j + 2) never exceeds n, nor MAX(1, j - 2) falls below 1: the
    // argument free of the loops bounds the box as the source's sizes do.
    if (const Call *c = as<Call>(e); c && c->fn == (largest ? Intrinsic::Min : Intrinsic::Max)) {
      for (const Expr &a : c->args) {
        bool free = true;
        for (size_t o = 0; o < level; ++o)
          free = free && !mentions(a, nest[o]->var);
        if (free)
          return a;
      }
    }
    for (size_t o = level; o-- > 0;) {
      const For *outer = nest[o];
      Trend t = trend(e, outer->var);
      if (t == Trend::Flat)
        continue;
      if (t == Trend::Unknown)
        throw UserError(nest[level]->loc, "The bounds of the DO loop over '" + nest[level]->var +
                                              "' must change monotonically with loop variable '" +
                                              outer->var +
                                              "' (sums, constant multiples, MIN and MAX of it); "
                                              "run it over a range that holds every point and "
                                              "skip the others with an IF around its body");
      bool at_hi = (t == Trend::Up) == largest;
      e = Substitute(outer->var, at_hi ? outer->hi : outer->lo).mutate(e);
    }
    return e;
  };

  std::vector<Expr> guards;
  std::vector<std::pair<Expr, Expr>> box; // per loop, outermost first
  for (size_t l = 0; l < nest.size(); ++l) {
    const For *f = nest[l];
    Expr lo = extreme(f->lo, l, false), hi = extreme(f->hi, l, true);
    Expr x = Var::make(f->var, Type::Int32, f->loc);
    if (lo != f->lo)
      guards.push_back(Binary::make(BinaryOp::Ge, x, f->lo, f->loc));
    if (hi != f->hi)
      guards.push_back(Binary::make(BinaryOp::Le, x, f->hi, f->loc));
    box.emplace_back(lo, hi);
  }
  Stmt body = nest.back()->body;
  Expr cond;
  for (const Expr &g : guards)
    cond = cond ? Binary::make(BinaryOp::And, cond, g, g->loc) : g;
  body = IfThenElse::make(cond, body, nullptr, nest.back()->loc);
  for (size_t l = nest.size(); l-- > 0;) {
    const For *f = nest[l];
    body = For::reversed(
        For::make(f->var, box[l].first, box[l].second, f->step, f->exec, body, f->loc), f->reverse);
  }
  Kernel out = k;
  out.body = body;
  return out;
}

} // namespace f2s
