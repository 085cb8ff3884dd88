// Lowering the loops of the nest: their bounds (evaluated once, before the
// nest), steps (a stride loop becomes a loop over its trip counter), the
// red-black form of the innermost loop (a colour test in the point), the
// scalar assignments between the loops, and the DO loops of a column.
#include "ast/IRVisitor.h"
#include "canonicalize/FoldConstants.h"
#include "frontend/RegionLowering.h"

#include <functional>

namespace f2s::fe::lowering {

const fp::LoopControl::Bounds &RegionLowering::loop_bounds(const fp::DoConstruct &d) const {
  const auto &stmt = std::get<fp::Statement<fp::NonLabelDoStmt>>(d.t);
  SourceLoc loc = at(stmt.source);
  const auto &control = std::get<std::optional<fp::LoopControl>>(stmt.statement.t);
  if (!control)
    fail(loc, std::string("A DO loop without a loop control cannot be part of a ") + kRegion);
  if (std::holds_alternative<fp::ScalarLogicalExpr>(control->u))
    fail(loc, std::string("A DO WHILE loop cannot be part of a ") + kRegion);
  if (std::holds_alternative<fp::LoopControl::Concurrent>(control->u))
    fail(loc, std::string("A DO CONCURRENT loop cannot be part of a ") + kRegion +
                  "; write it as nested DO loops");
  return std::get<fp::LoopControl::Bounds>(control->u);
}

namespace {

/// The scalars a lowered statement assigns.
std::set<std::string> scalars_assigned(const Stmt &s) {
  struct Assigned : IRVisitor {
    std::set<std::string> names;
    void visit_assign(const Assign *a) override {
      names.insert(a->var);
      IRVisitor::visit_assign(a);
    }
  } assigned;
  assigned.visit(s);
  return assigned.names;
}

} // namespace

Expr RegionLowering::lower_bound(const fp::Expr &e, const std::string &loop_var) {
  bound_of_ = loop_var;
  Expr x = lower_expr(e);
  bound_of_.reset();
  if (x->type != Type::Int32)
    fail(at(e.source),
         "The bounds of the DO loop over '" + loop_var + "' must be INTEGER expressions");
  return x;
}

namespace {

/// Reads each scalar of `values` as its value there.
class ReadValues : public IRMutator {
public:
  explicit ReadValues(const std::map<std::string, Expr> &values) : values_(values) {}

protected:
  Expr visit_var(const Var *op, const Expr &self) override {
    auto v = values_.find(op->name);
    return v == values_.end() ? self : v->second;
  }

private:
  const std::map<std::string, Expr> &values_;
};

/// The assignments of a branch of an IF between the loops, if it holds
/// nothing else, assigns each scalar once and reads none that it assigned
/// before (so every value reads what the scalars held before the IF); an
/// empty branch assigns none.
std::optional<std::map<std::string, Expr>> branch_assignments(const Stmt &branch) {
  std::map<std::string, Expr> out;
  if (!branch)
    return out;
  std::vector<Stmt> stmts{branch};
  if (const Block *b = as<Block>(branch))
    stmts = b->stmts;
  for (const Stmt &s : stmts) {
    const Assign *a = as<Assign>(s);
    if (!a || out.count(a->var))
      return std::nullopt;
    struct Reads : IRVisitor {
      const std::map<std::string, Expr> *earlier;
      bool found = false;
      void visit_var(const Var *v) override { found = found || earlier->count(v->name); }
    } reads;
    reads.earlier = &out;
    reads.visit(a->value);
    if (reads.found)
      return std::nullopt;
    out.emplace(a->var, a->value);
  }
  return out;
}

} // namespace

/// Keeps between_ current after statement `s` between the loops. `x = e`
/// holds e; after `if (c) x = e2` (or an IF construct whose branches each
/// assign scalars once) x holds MERGE(e2, e, c). Values are kept in terms of
/// what the region does not assign, each scalar read as what between_ holds
/// for it, so a bound computed between the loops (`b_limit = b_dist; if
/// (periodic_x) b_limit = 0; i_hi = nx - b_limit`) is an expression of the
/// call's scalars and the outer loops' variables. Anything else (an
/// assignment in a loop beside the inner one, a branch that reads what its IF
/// assigns) leaves the scalars it sets without a value.
void RegionLowering::record_between(const Stmt &s) {
  auto forget = [&](const std::string &v) {
    between_.erase(v);
    between_merged_.erase(v);
    between_under_if_.insert(v);
  };
  if (const Assign *a = as<Assign>(s)) {
    between_[a->var] = ReadValues(between_).mutate(a->value);
    between_under_if_.erase(a->var);
    if (!as<Select>(between_[a->var]))
      between_merged_.erase(a->var);
    return;
  }
  const IfThenElse *f = as<IfThenElse>(s);
  auto then_values = f ? branch_assignments(f->then_case) : std::nullopt;
  auto else_values = f ? branch_assignments(f->else_case) : std::nullopt;
  if (!then_values || !else_values) {
    for (const std::string &v : scalars_assigned(s))
      forget(v);
    return;
  }
  std::set<std::string> assigned;
  for (const auto *values : {&*then_values, &*else_values})
    for (const auto &[v, e] : *values)
      assigned.insert(v);
  std::map<std::string, Expr> after;
  for (const std::string &v : assigned) {
    auto value_in = [&](const std::map<std::string, Expr> &branch) -> std::optional<Expr> {
      if (auto e = branch.find(v); e != branch.end())
        return ReadValues(between_).mutate(e->second);
      if (auto before = between_.find(v); before != between_.end())
        return before->second;
      return std::nullopt;
    };
    auto t = value_in(*then_values), e = value_in(*else_values);
    if (t && e)
      after[v] = Select::make(ReadValues(between_).mutate(f->cond), *t, *e, s->loc);
  }
  for (const std::string &v : assigned) {
    if (auto a = after.find(v); a != after.end()) {
      between_[v] = a->second;
      between_merged_.insert(v);
      between_under_if_.erase(v);
    } else {
      forget(v);
    }
  }
}

/// The value a scalar assigned between the loops holds where a loop bound
/// reads it, if that is an expression of the call's scalars and the
/// variables of the loops around the bound's loop.
std::optional<Expr> RegionLowering::between_value(const std::string &name) {
  auto b = between_.find(name);
  if (b == between_.end() || !bound_of_)
    return std::nullopt;
  auto own = std::find(loop_vars_.begin(), loop_vars_.end(), *bound_of_);
  std::set<std::string> inner(own, loop_vars_.end());
  struct Check : IRVisitor {
    const std::set<std::string> *assigned, *inner;
    bool ok = true;
    void visit_grid_ref(const GridRef *) override { ok = false; }
    void visit_var(const Var *v) override {
      ok = ok && !assigned->count(v->name) && !inner->count(v->name);
    }
  } check;
  check.assigned = &assigned_;
  check.inner = &inner;
  check.visit(b->second);
  if (!check.ok)
    return std::nullopt;
  return b->second;
}

Stmt RegionLowering::lower_nest(const std::vector<const fp::DoConstruct *> &nest, size_t level) {
  const fp::DoConstruct &d = *nest[level];
  const auto &bounds = loop_bounds(d);
  SourceLoc loc = at(std::get<fp::Statement<fp::NonLabelDoStmt>>(d.t).source);
  const std::string var = loop_vars_[level]; // a copy: a column pushes its loop variable
  bool innermost = level + 1 == nest.size();
  int64_t step = 1;
  // `do k = hi, lo, -1` (a back substitution) visits lo..hi from the top:
  // the IR's loop runs over lo..hi with its order reversed.
  bool backward = false;
  if (bounds.step) {
    const fp::Expr &step_expr = bounds.step->thing.value();
    Expr s = fold_constants(lower_bound(step_expr, var));
    backward = as<IntImm>(s) && as<IntImm>(s)->value == -1;
    // Another negative step: the loop counting up visits the same points,
    // which is the same loop when they may run in any order.
    std::string fix = as<IntImm>(s) && as<IntImm>(s)->value < 0
                          ? "; swap its bounds and make the step positive if the points may run "
                            "in any order"
                          : constant_fix(step_expr);
    if (!as<IntImm>(s) || (as<IntImm>(s)->value < 1 && !backward))
      fail(at(step_expr.source), "The step of the DO loop over '" + var +
                                     "' must be a positive INTEGER constant or -1 in a " + kRegion +
                                     fix);
    step = backward ? 1 : as<IntImm>(s)->value;
    // The red-black form of the innermost loop, `do i = lo + mod(e, 2), hi, 2`,
    // is the colour test `mod(i - (lo + mod(e, 2)), 2) == 0` on every i from
    // lo to hi: the same points whenever MOD(e, 2) is not negative (for a
    // negative odd e, Fortran's loop would also visit lo - 1).
    if (step == 2) {
      auto colour = lower_colour_start(bounds.lower.thing.value(), var);
      if (!colour)
        colour = lower_colour_scalar(bounds.lower.thing.value(), var);
      if (colour) {
        if (!innermost)
          fail(at(step_expr.source), "The red-black form 'DO " + var +
                                         " = lo + MOD(e, 2), hi, 2' is allowed only on the "
                                         "innermost loop of a " +
                                         kRegion);
        Expr start = colour->start, lo = colour->lo;
        Expr hi = lower_bound(bounds.upper.thing.value(), var);
        Expr i = Var::make(var, Type::Int32, loc);
        Expr even = Binary::make(
            BinaryOp::Eq,
            Call::make(Intrinsic::Mod,
                       {Binary::make(BinaryOp::Sub, i, start, loc), IntImm::make(2, loc)}, loc),
            IntImm::make(0, loc), loc);
        Stmt body =
            IfThenElse::make(even, lower_block(std::get<fp::Block>(d.t), loc, true), nullptr, loc);
        return For::make(var, lo, hi, IntImm::make(1, loc), LoopExec::Serial, body, loc);
      }
    }
  }
  Expr lo = lower_bound(bounds.lower.thing.value(), var);
  Expr hi = lower_bound(bounds.upper.thing.value(), var);
  if (backward)
    std::swap(lo, hi);
  if (step != 1) {
    // `do i = lo, hi, s` runs max((hi - lo + s)/s, 0) times (Fortran's trip
    // count); the counter t = 0 .. (hi - lo + s)/s - 1 runs as often, also
    // when hi < lo, as the division truncates toward zero in C, CUDA and
    // Fortran alike. The source's i is s*t + lo, which stays a subscript
    // with a constant offset only for a constant lo.
    const fp::Expr &lower = bounds.lower.thing.value();
    Expr first = fold_constants(lo);
    if (!as<IntImm>(first))
      fail(at(lower.source), "The DO loop over '" + var + "' has a step of " +
                                 std::to_string(step) + ", so its lower bound '" +
                                 text_of(lower.source) + "' must be an INTEGER constant in a " +
                                 kRegion + constant_fix(lower));
    int64_t start = as<IntImm>(first)->value, shift = step - start;
    Expr span = shift == 0 ? hi
                           : Binary::make(shift > 0 ? BinaryOp::Add : BinaryOp::Sub, hi,
                                          IntImm::make(shift > 0 ? shift : -shift, loc), loc);
    hi =
        Binary::make(BinaryOp::Sub, Binary::make(BinaryOp::Div, span, IntImm::make(step, loc), loc),
                     IntImm::make(1, loc), loc);
    lo = IntImm::make(0, loc);
    strides_[var] = Stride{step, start};
  }
  Stmt body;
  if (!innermost) {
    // Scalar assignments before the inner loop stay there, as written.
    std::vector<Stmt> stmts;
    const fp::DoConstruct *inner = nest[level + 1];
    for (const fp::ExecutionPartConstruct &c : std::get<fp::Block>(d.t)) {
      const auto *exec = std::get_if<fp::ExecutableConstruct>(&c.u);
      const auto *dc = exec ? std::get_if<fc::Indirection<fp::DoConstruct>>(&exec->u) : nullptr;
      if (dc && &dc->value() == inner)
        break;
      if (is_continue(c))
        continue;
      if (dc) {
        // An inner loop beside the last one: line buffers filled, or read
        // before the last loop reads them too.
        std::vector<const fp::DoConstruct *> beside = nest;
        beside[level + 1] = &dc->value();
        filling_ = true;
        stmts.push_back(lower_nest(beside, level + 1));
        filling_ = false;
        continue;
      }
      Stmt s = lower_statement(c);
      record_between(s);
      stmts.push_back(s);
    }
    body = lower_nest(nest, level + 1);
    if (!stmts.empty()) {
      stmts.push_back(body);
      body = Block::make(std::move(stmts), loc);
    }
  } else {
    in_column_ = !column_dos_.empty();
    body = lower_block(std::get<fp::Block>(d.t), loc, true);
    in_column_ = false;
  }
  return For::reversed(For::make(var, lo, hi, IntImm::make(1, loc), LoopExec::Serial, body, loc),
                       backward);
}

/// A DO loop of a column (Kernel::column): serial inside the point, in the
/// source's direction, its variable a subscript like the nest's.
Stmt RegionLowering::lower_column_loop(const fp::DoConstruct &d) {
  const auto &bounds = loop_bounds(d);
  SourceLoc loc = at(std::get<fp::Statement<fp::NonLabelDoStmt>>(d.t).source);
  std::string var = text_of(bounds.name.thing.source);
  check_offset_var(var, at(bounds.name.thing.source));
  bool backward = false;
  if (bounds.step) {
    const fp::Expr &step_expr = bounds.step->thing.value();
    Expr st = fold_constants(lower_bound(step_expr, var));
    const IntImm *c = as<IntImm>(st);
    if (!c || (c->value != 1 && c->value != -1))
      fail(at(step_expr.source), "The step of the DO loop over '" + var + "' in a column of a " +
                                     kRegion + " must be 1 or -1" + constant_fix(step_expr));
    backward = c->value == -1;
  }
  Expr lo = lower_bound(bounds.lower.thing.value(), var);
  Expr hi = lower_bound(bounds.upper.thing.value(), var);
  if (backward)
    std::swap(lo, hi);
  loop_vars_.push_back(var);
  Stmt body;
  try {
    body = lower_block(std::get<fp::Block>(d.t), loc, true);
  } catch (...) {
    loop_vars_.pop_back();
    throw;
  }
  loop_vars_.pop_back();
  return For::reversed(For::make(var, lo, hi, IntImm::make(1, loc), LoopExec::Serial, body, loc),
                       backward);
}

bool RegionLowering::is_nest_var(const std::string &name) const {
  if (outer_)
    for (const fp::DoConstruct *d : *outer_)
      if (text_of(loop_bounds(*d).name.thing.source) == name)
        return true;
  return is_loop_var(name) && !inner_loops_.count(name);
}

/// A DO loop inside the point whose trip count only the call knows (`do jj =
/// -r, r` with the radius an argument): a serial For of the point, its
/// variable a term of the subscripts it reaches (Index::inner). Its bounds
/// read constants and INTEGER scalars the region does not assign, so that
/// every point runs the same trips and the analyses (ast/LoopDependences,
/// harness/ProblemSize) know them from the call's arguments.
Stmt RegionLowering::lower_inner_loop(const fp::DoConstruct &d) {
  const auto &bounds = loop_bounds(d);
  SourceLoc loc = at(std::get<fp::Statement<fp::NonLabelDoStmt>>(d.t).source);
  std::string var = text_of(bounds.name.thing.source);
  int64_t step = 1;
  if (bounds.step) {
    const fp::Expr &step_expr = bounds.step->thing.value();
    const IntImm *c = as<IntImm>(fold_constants(lower_bound(step_expr, var)));
    if (!c || c->value == 0 || c->value < -1)
      fail(at(step_expr.source), "The step of the DO loop over '" + var +
                                     "' inside the point of a " + kRegion +
                                     " must be a positive INTEGER constant or -1, as its bounds "
                                     "are known only at run time" +
                                     constant_fix(step_expr));
    step = c->value;
  }
  auto bound = [&](const fp::Expr &e) {
    Expr x = lower_bound(e, var);
    struct Reads : IRVisitor {
      std::vector<std::string> names;
      void visit_var(const Var *op) override { names.push_back(op->name); }
    } reads;
    reads.visit(x);
    for (const std::string &n : reads.names)
      if (is_loop_var(n) || assigned_.count(n) || inner_ended_.count(n))
        fail(at(e.source), "The bounds of the DO loop over '" + var + "' inside the point of a " +
                               kRegion + " read '" + n +
                               "'; a loop inside the point whose bounds are not constants may "
                               "read only INTEGER arguments the region does not assign, so that "
                               "every point runs the same trips");
    return x;
  };
  Expr lo = bound(bounds.lower.thing.value());
  Expr hi = bound(bounds.upper.thing.value());
  if (step == -1)
    std::swap(lo, hi);
  inner_ended_.erase(var);
  loop_vars_.push_back(var);
  inner_loops_.insert(var);
  Stmt body;
  try {
    body = lower_block(std::get<fp::Block>(d.t), loc, true);
  } catch (...) {
    loop_vars_.pop_back();
    inner_loops_.erase(var);
    throw;
  }
  loop_vars_.pop_back();
  inner_loops_.erase(var);
  inner_ended_.insert(var);
  // An INTEGER temporary defined from the variable holds nothing known after
  // the loop.
  for (auto it = integer_defs_.begin(); it != integer_defs_.end();)
    if (it->second.inner == var) {
      integer_unknown_[it->first] = "'" + it->first + "' was assigned from the variable of the " +
                                    "DO loop over '" + var + "' inside the point";
      it = integer_defs_.erase(it);
    } else {
      ++it;
    }
  return For::reversed(
      For::make(var, lo, hi, IntImm::make(step == -1 ? 1 : step, loc), LoopExec::Serial, body, loc),
      step == -1);
}

/// `lo + mod(e, 2)` (or `mod(e, 2) + lo`) as the start of a stride-2 loop,
/// with lo free of the loops and e an INTEGER expression of the outer loop
/// variables and the region's scalars.
std::optional<RegionLowering::ColourStart>
RegionLowering::lower_colour_start(const fp::Expr &lower, const std::string &loop_var) {
  const auto *add = std::get_if<fp::Expr::Add>(&lower.u);
  if (!add)
    return std::nullopt;
  auto as_mod = [&](const fp::Expr &x) -> const fp::Expr * {
    const auto *f = std::get_if<fc::Indirection<fp::FunctionReference>>(&x.u);
    if (!f)
      return nullptr;
    const fp::Call &call = f->value().v;
    const auto *name = std::get_if<fp::Name>(&std::get<fp::ProcedureDesignator>(call.t).u);
    const auto &args = std::get<std::list<fp::ActualArgSpec>>(call.t);
    if (!name || text_of(name->source) != "mod" || args.size() != 2 || declared("mod"))
      return nullptr;
    const auto *e =
        std::get_if<fc::Indirection<fp::Expr>>(&std::get<fp::ActualArg>(args.front().t).u);
    const auto *m =
        std::get_if<fc::Indirection<fp::Expr>>(&std::get<fp::ActualArg>(args.back().t).u);
    if (!e || !m)
      return nullptr;
    Expr modulus = lower_bound(m->value(), loop_var);
    const auto *two = as<IntImm>(modulus);
    return two && two->value == 2 ? &e->value() : nullptr;
  };
  const fp::Expr &left = std::get<0>(add->t).value(), &right = std::get<1>(add->t).value();
  const fp::Expr *e = as_mod(right);
  const fp::Expr *base = &left;
  if (!e) {
    e = as_mod(left);
    base = &right;
  }
  if (!e)
    return std::nullopt;
  Expr lo = lower_bound(*base, loop_var);
  Expr parity = lower_expr(*e);
  struct Check : IRVisitor {
    const std::string &loop_var;
    const std::set<std::string> &assigned;
    bool ok = true;
    Check(const std::string &v, const std::set<std::string> &a) : loop_var(v), assigned(a) {}
    void visit_grid_ref(const GridRef *) override { ok = false; }
    void visit_var(const Var *v) override {
      ok = ok && v->name != loop_var && !assigned.count(v->name);
    }
  } check(loop_var, assigned_);
  check.visit(parity);
  if (!check.ok || parity->type != Type::Int32)
    fail(at(e->source), "'" + text_of(e->source) +
                            "' must be an INTEGER expression of the outer "
                            "loop variables and scalar arguments to choose the colour of the DO "
                            "loop over '" +
                            loop_var + "'");
  return ColourStart{
      Binary::make(BinaryOp::Add, lo,
                   Call::make(Intrinsic::Mod, {parity, IntImm::make(2, lo->loc)}, lo->loc),
                   lo->loc),
      lo};
}

namespace {

/// A start `base + MOD(e, 2)` or `base - MOD(e, 2)` in IR, with base and e
/// apart; sign is +1 or -1 and base null for none.
struct ModSplit {
  Expr base;
  int sign = 1;
  const Call *mod = nullptr;
};

bool is_mod2(const Expr &e) {
  const auto *c = as<Call>(e);
  const auto *two = c && c->fn == Intrinsic::Mod ? as<IntImm>(c->args[1]) : nullptr;
  return two && two->value == 2;
}

bool has_mod2(const Expr &e) {
  struct Find : IRVisitor {
    bool found = false;
    void visit_call(const Call *c) override {
      found = found || (c->fn == Intrinsic::Mod && c->args.size() == 2 && as<IntImm>(c->args[1]) &&
                        as<IntImm>(c->args[1])->value == 2);
      IRVisitor::visit_call(c);
    }
  } find;
  find.visit(e);
  return find.found;
}

std::optional<ModSplit> split_mod2(const Expr &e) {
  if (is_mod2(e))
    return ModSplit{nullptr, 1, as<Call>(e)};
  if (const auto *u = as<Unary>(e); u && u->op == UnaryOp::Neg) {
    auto s = split_mod2(u->a);
    if (s) {
      s->base = s->base ? Unary::make(UnaryOp::Neg, s->base, e->loc) : nullptr;
      s->sign = -s->sign;
    }
    return s;
  }
  const auto *b = as<Binary>(e);
  if (!b || (b->op != BinaryOp::Add && b->op != BinaryOp::Sub))
    return std::nullopt;
  if (!has_mod2(b->b)) {
    auto s = split_mod2(b->a);
    if (s)
      s->base = s->base                  ? Binary::make(b->op, s->base, b->b, e->loc)
                : b->op == BinaryOp::Add ? b->b
                                         : Unary::make(UnaryOp::Neg, b->b, e->loc);
    return s;
  }
  if (has_mod2(b->a))
    return std::nullopt;
  auto s = split_mod2(b->b);
  if (s) {
    s->base = s->base ? Binary::make(b->op, b->a, s->base, e->loc) : b->a;
    if (b->op == BinaryOp::Sub)
      s->sign = -s->sign;
  }
  return s;
}

} // namespace

/// A red-black start that reads scalars assigned between the loops: `do i =
/// 2 + joff, n - 1, 2` after `joff = mod(j + k, 2)`, and for the other colour
/// `3 - joff` or `2 + (1 - joff)`. With each such scalar read as its value,
/// the start is base + MOD(e, 2), which starts the loop at base, or
/// base - MOD(e, 2), which starts it at base - 1; the colour test then reads
/// the loop variables, as ast/Dependence needs to prove the sweep safe.
std::optional<RegionLowering::ColourStart>
RegionLowering::lower_colour_scalar(const fp::Expr &lower, const std::string &loop_var) {
  colour_scalars_ = true;
  read_between_ = false;
  Expr start;
  try {
    start = lower_bound(lower, loop_var);
  } catch (...) {
    colour_scalars_ = false;
    throw;
  }
  colour_scalars_ = false;
  if (!read_between_ || !has_mod2(start))
    return std::nullopt;
  auto split = split_mod2(start);
  // base may read neither loop variables nor what the region assigns; e no
  // inner loop variable.
  auto free_of = [&](const Expr &x, bool outer_loops) {
    struct Check : IRVisitor {
      std::function<bool(const std::string &)> bad;
      bool ok = true;
      void visit_grid_ref(const GridRef *) override { ok = false; }
      void visit_var(const Var *v) override { ok = ok && !bad(v->name); }
    } check;
    check.bad = [&](const std::string &n) {
      return n == loop_var || assigned_.count(n) > 0 || (!outer_loops && is_loop_var(n));
    };
    if (x)
      check.visit(x);
    return check.ok;
  };
  if (!split || !free_of(split->base, false) || !free_of(split->mod->args[0], true) ||
      split->mod->args[0]->type != Type::Int32)
    fail(at(lower.source), "The start '" + text_of(lower.source) + "' of the DO loop over '" +
                               loop_var +
                               "' must be lo + MOD(e, 2) or lo - MOD(e, 2) to choose a colour, "
                               "with lo free of the loops and e an INTEGER expression of the outer "
                               "loop variables and scalar arguments");
  Expr base = split->base ? split->base : IntImm::make(0, start->loc);
  Expr lo = split->sign > 0
                ? base
                : Binary::make(BinaryOp::Sub, base, IntImm::make(1, start->loc), start->loc);
  return ColourStart{start, fold_constants(lo)};
}

} // namespace f2s::fe::lowering
