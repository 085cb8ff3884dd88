#include "canonicalize/IfExtrema.h"

#include "ast/IRPrinter.h"
#include "ast/IRVisitor.h"

namespace f2s {

namespace {

/// The one assignment an IF's THEN holds, directly or as a block of one.
const Assign *only_assign(const Stmt &s) {
  if (const Assign *a = as<Assign>(s))
    return a;
  if (const Block *b = as<Block>(s); b && b->stmts.size() == 1)
    return only_assign(b->stmts.front());
  return nullptr;
}

bool same(const Expr &a, const Expr &b) {
  return a->type == b->type && print_expr(a) == print_expr(b);
}

bool reads(const Expr &e, const std::string &var) {
  struct Reads : IRVisitor {
    const std::string &name;
    bool found = false;
    explicit Reads(const std::string &n) : name(n) {}
    void visit_var(const Var *v) override { found = found || v->name == name; }
  } r(var);
  r.visit(e);
  return r.found;
}

struct Fold : IRMutator {
  Stmt visit_if(const IfThenElse *op, const Stmt &self) override {
    Stmt folded = IRMutator::visit_if(op, self);
    const auto *c = as<IfThenElse>(folded);
    if (!c || c->else_case)
      return folded;
    const Assign *a = only_assign(c->then_case);
    const Binary *cmp = as<Binary>(c->cond);
    if (!a || !cmp || reads(a->value, a->var))
      return folded;
    bool greater = cmp->op == BinaryOp::Gt || cmp->op == BinaryOp::Ge;
    bool less = cmp->op == BinaryOp::Lt || cmp->op == BinaryOp::Le;
    if (!greater && !less)
      return folded;
    auto is_s = [&](const Expr &e) {
      const Var *v = as<Var>(e);
      return v && v->name == a->var && v->type == a->value->type;
    };
    // `x > s` raises s to x (a maximum), `s > x` lowers it (a minimum).
    if (same(cmp->a, a->value) && is_s(cmp->b))
      return Assign::make(
          a->var, Call::make(greater ? Intrinsic::Max : Intrinsic::Min, {cmp->b, a->value}, a->loc),
          a->loc);
    if (is_s(cmp->a) && same(cmp->b, a->value))
      return Assign::make(
          a->var, Call::make(greater ? Intrinsic::Min : Intrinsic::Max, {cmp->a, a->value}, a->loc),
          a->loc);
    return folded;
  }
};

} // namespace

Stmt fold_if_extrema(const Stmt &nest) {
  return Fold().mutate(nest);
}

} // namespace f2s
