#include "ast/Reductions.h"

#include "ast/IRVisitor.h"

namespace f2s {

namespace {

const char *const kRegion = "'!$f2s stencil' region";

/// Reads of one variable in an expression or statement, in source order.
struct VarReads : IRVisitor {
  explicit VarReads(std::string n) : name(std::move(n)) {}
  std::string name;
  std::vector<const Var *> reads;
  void visit_var(const Var *v) override {
    if (v->name == name)
      reads.push_back(v);
  }
};

size_t count_reads(const Expr &e, const std::string &var) {
  VarReads r(var);
  r.visit(e);
  return r.reads.size();
}

/// What lies on the path from an expression down to its one read of the
/// variable: `leaf` when the expression is that read, else the operator every
/// node on the path applies.
struct PathOp {
  bool leaf = false;
  ReduceOp op = ReduceOp::Sum;
};

std::optional<PathOp> path_op(const Expr &e, const std::string &var) {
  if (const Var *v = as<Var>(e); v && v->name == var)
    return PathOp{true, ReduceOp::Sum};
  auto below = [&](const Expr &child, ReduceOp op) -> std::optional<PathOp> {
    auto p = path_op(child, var);
    if (!p || (!p->leaf && p->op != op))
      return std::nullopt;
    return PathOp{false, op};
  };
  if (const Binary *b = as<Binary>(e)) {
    bool in_a = count_reads(b->a, var) > 0;
    if (b->op == BinaryOp::Add)
      return below(in_a ? b->a : b->b, ReduceOp::Sum);
    if (b->op == BinaryOp::Sub && in_a)
      return below(b->a, ReduceOp::Sum);
    return std::nullopt;
  }
  if (const Call *c = as<Call>(e); c && (c->fn == Intrinsic::Max || c->fn == Intrinsic::Min)) {
    for (const Expr &arg : c->args)
      if (count_reads(arg, var) > 0)
        return below(arg, c->fn == Intrinsic::Max ? ReduceOp::Max : ReduceOp::Min);
  }
  return std::nullopt;
}

/// Every assignment to `var` and every read of it outside those
/// assignments' values, in source order.
struct Uses : IRVisitor {
  explicit Uses(std::string n) : reads(std::move(n)) {}
  VarReads reads;
  std::vector<const Assign *> assigns;
  std::vector<const Var *> other_reads;
  void visit_assign(const Assign *a) override {
    if (a->var == reads.name) {
      assigns.push_back(a);
      // A reduction update reads its variable once, itself; any other read
      // inside the value is a use of the partial result.
      if (reduction_update(*a))
        return;
    }
    visit(a->value);
  }
  void visit_store(const Store *s) override { visit(s->value); }
  void visit_if(const IfThenElse *c) override {
    visit(c->cond);
    visit(c->then_case);
    if (c->else_case)
      visit(c->else_case);
  }
  void visit_for(const For *f) override { visit(f->body); }
  void visit_var(const Var *v) override {
    if (v->name == reads.name)
      other_reads.push_back(v);
  }
};

std::string op_text(ReduceOp op) {
  return op == ReduceOp::Sum ? "+" : op == ReduceOp::Max ? "MAX" : "MIN";
}

std::string position(const SourceLoc &l) {
  return std::to_string(l.line) + ":" + std::to_string(l.column);
}

} // namespace

std::optional<ReduceOp> reduction_update(const Assign &a) {
  if (count_reads(a.value, a.var) != 1)
    return std::nullopt;
  auto p = path_op(a.value, a.var);
  if (!p || p->leaf)
    return std::nullopt;
  return p->op;
}

std::vector<Reduction> find_reductions(const Kernel &k) {
  std::vector<Reduction> found;
  for (const Variable &t : k.temps) {
    Uses uses(t.name);
    uses.visit(k.body);
    if (uses.assigns.empty() || !uses.other_reads.empty())
      continue;
    auto op = reduction_update(*uses.assigns.front());
    bool all = op.has_value();
    for (const Assign *a : uses.assigns)
      all = all && reduction_update(*a) == op;
    if (all)
      found.push_back(Reduction{t.name, *op, t.type, uses.assigns.front()->loc});
  }
  return found;
}

std::optional<Diagnostic> why_not_reduction(const Kernel &k, const std::string &temp) {
  Uses uses(temp);
  uses.visit(k.body);
  const Assign *first = nullptr;
  std::optional<ReduceOp> op;
  for (const Assign *a : uses.assigns)
    if ((op = reduction_update(*a))) {
      first = a;
      break;
    }
  if (!first)
    return std::nullopt;
  std::string head = "'" + temp + "' is accumulated with " + op_text(*op) + " at " +
                     position(first->loc) + " of the " + kRegion;
  for (const Assign *a : uses.assigns) {
    auto other = reduction_update(*a);
    if (other && *other != *op)
      return Diagnostic{a->loc, head + " and with " + op_text(*other) +
                                    " here; a reduction variable needs one operator"};
    if (!other)
      return Diagnostic{a->loc, head + " and also assigned here, so it is not a reduction and "
                                       "its value is carried between iterations"};
  }
  if (!uses.other_reads.empty())
    return Diagnostic{uses.other_reads.front()->loc,
                      head + " and also read here, so the partial result it would see depends on "
                             "the loop order; a reduction variable may appear only in its updates"};
  return std::nullopt;
}

} // namespace f2s
