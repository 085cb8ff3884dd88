// Lowering the loops of the nest: their bounds (evaluated once, before the
// nest), steps (a stride loop from a constant becomes a loop over its trip
// counter; one from a start that changes, a red-black colour, a guard in the
// point), the scalar assignments between the loops, and the DO loops of a
// column.
#include "ast/IRPrinter.h"
#include "ast/IRVisitor.h"
#include "canonicalize/FoldConstants.h"
#include "frontend/RegionLowering.h"

#include "flang/Parser/parse-tree-visitor.h"

#include <algorithm>
#include <cstdlib>
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

Expr RegionLowering::lower_point_bound(const fp::Expr &e, const std::string &loop_var) {
  // bound_of_ stays unset: the point evaluates the bound where the loop
  // starts, as it evaluates any expression, so it may read what the point
  // reads (`do k = 1, kmt(i, j)`, `do k = 1, nk` after `nk = ...`).
  Expr x = lower_expr(e);
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
    between_under_if_.insert(v);
  };
  if (const Assign *a = as<Assign>(s)) {
    between_[a->var] = ReadValues(between_).mutate(a->value);
    between_under_if_.erase(a->var);
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
  }
  // A stride loop whose start is not a constant (a red-black colour chosen
  // per row, a start the call gives) runs over every i from its smallest
  // start, `do i = lo + mod(e, 2), hi, 2` over i = lo, hi, and keeps its
  // points by the guard `mod(i - start, step) == 0` around the point (and
  // `i >= start` where a start may lie a step or more above lo). For
  // `lo + mod(e, 2)` these are Fortran's points whenever MOD(e, 2) is not
  // negative (for a negative odd e, Fortran's loop would also visit lo - 1).
  std::optional<ColourStart> colour;
  if (step > 1) {
    const fp::Expr &lower = bounds.lower.thing.value();
    colour = step == 2 ? lower_colour_start(lower, var) : std::nullopt;
    if (!colour)
      colour = lower_stride_start(lower, var, step);
  }
  size_t outer_guards = stride_guards_.size();
  if (colour) {
    Expr i = Var::make(var, Type::Int32, loc);
    Expr guard = Binary::make(
        BinaryOp::Eq,
        Call::make(Intrinsic::Mod,
                   {Binary::make(BinaryOp::Sub, i, colour->start, loc), IntImm::make(step, loc)},
                   loc),
        IntImm::make(0, loc), loc);
    if (colour->below)
      guard = Binary::make(BinaryOp::And, Binary::make(BinaryOp::Ge, i, colour->start, loc), guard,
                           loc);
    stride_guards_.push_back(guard);
    step = 1;
  }
  Expr lo = colour ? colour->lo : lower_bound(bounds.lower.thing.value(), var);
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
    // The statements before and after the inner loop stay there, as
    // written: statements of this loop's level (canonicalize/SinkScalars
    // moves them into the point).
    std::vector<Stmt> stmts, after;
    // The DO loop the source nests here: the nest's next, or one that runs
    // inside each point (moved_), around it.
    const fp::DoConstruct *inner = chain_.empty() ? nest[level + 1] : next_in_chain(&d);
    const fp::Block &block = std::get<fp::Block>(d.t);
    auto inner_at = block.end();
    for (auto it = block.begin(); it != block.end(); ++it) {
      const fp::ExecutionPartConstruct &c = *it;
      const auto *exec = std::get_if<fp::ExecutableConstruct>(&c.u);
      const auto *dc = exec ? std::get_if<fc::Indirection<fp::DoConstruct>>(&exec->u) : nullptr;
      if (dc && &dc->value() == inner) {
        inner_at = it;
        break;
      }
      if (is_continue(c))
        continue;
      refuse_inside_moved(d, c);
      if (dc) {
        // An inner loop beside the last one: line buffers filled, or read
        // before the last loop reads them too. It is lowered as written,
        // over its own variable and with its own step (which must not
        // scale the last loop's subscripts); canonicalize/ForwardLineBuffers
        // decides whether it is one.
        std::vector<const fp::DoConstruct *> beside = nest;
        beside[level + 1] = &dc->value();
        std::string own = text_of(loop_bounds(dc->value()).name.thing.source);
        std::swap(loop_vars_[level + 1], own);
        std::map<std::string, Stride> strides = strides_;
        filling_ = true;
        try {
          stmts.push_back(lower_nest(beside, level + 1));
        } catch (...) {
          filling_ = false;
          std::swap(loop_vars_[level + 1], own);
          throw;
        }
        filling_ = false;
        std::swap(loop_vars_[level + 1], own);
        strides_ = std::move(strides);
        continue;
      }
      refuse_outer_jump(c);
      Stmt s = lower_statement(c);
      record_between(s);
      stmts.push_back(under_stride_guards(s));
    }
    // A loop that runs inside each point holds the nest's next loop alone.
    for (const fp::DoConstruct *m = inner; m != nest[level + 1]; m = next_in_chain(m))
      for (const fp::ExecutionPartConstruct &c : std::get<fp::Block>(m->t)) {
        const auto *exec = std::get_if<fp::ExecutableConstruct>(&c.u);
        const auto *dc = exec ? std::get_if<fc::Indirection<fp::DoConstruct>>(&exec->u) : nullptr;
        if (!is_continue(c) && !(dc && &dc->value() == next_in_chain(m)))
          refuse_inside_moved(*m, c);
      }
    body = lower_nest(nest, level + 1);
    // After the inner loop: lowered once the inner loop is, so that what
    // they assign changes no bound of it.
    if (inner_at != block.end())
      for (auto it = std::next(inner_at); it != block.end(); ++it)
        if (!is_continue(*it)) {
          refuse_inside_moved(d, *it);
          refuse_outer_jump(*it);
          after.push_back(under_stride_guards(lower_statement(*it)));
        }
    if (!stmts.empty() || !after.empty()) {
      stmts.push_back(body);
      stmts.insert(stmts.end(), after.begin(), after.end());
      body = Block::make(std::move(stmts), loc);
    }
  } else {
    in_column_ = !column_dos_.empty();
    body = under_stride_guards(lower_point(d, loc));
    in_column_ = false;
  }
  stride_guards_.resize(outer_guards);
  return For::reversed(For::make(var, lo, hi, IntImm::make(1, loc), LoopExec::Serial, body, loc),
                       backward);
}

namespace {

/// The first CYCLE, EXIT or GO TO of a statement, outside DO loops of its
/// own (whose CYCLE and EXIT are theirs).
struct FirstJump {
  std::optional<fp::CharBlock> at;
  template <typename T> bool Pre(const T &) { return !at; }
  template <typename T> void Post(const T &) {}
  bool Pre(const fp::DoConstruct &) { return false; }
  bool Pre(const fp::Statement<fp::ActionStmt> &s) { return note(s.statement, s.source); }
  bool Pre(const fp::UnlabeledStatement<fp::ActionStmt> &s) { return note(s.statement, s.source); }
  bool note(const fp::ActionStmt &a, fp::CharBlock source) {
    if (!at && (std::holds_alternative<fc::Indirection<fp::CycleStmt>>(a.u) ||
                std::holds_alternative<fc::Indirection<fp::ExitStmt>>(a.u) ||
                std::holds_alternative<fc::Indirection<fp::GotoStmt>>(a.u)))
      at = source;
    return !at;
  }
};

} // namespace

/// A statement of an outer level is lowered alone and runs at one point of
/// the inner loops (canonicalize/SinkScalars): a jump in it would skip the
/// inner loop or the statements after it for some outer iterations, which
/// no statement of the point can say.
void RegionLowering::refuse_outer_jump(const fp::ExecutionPartConstruct &c) const {
  FirstJump jump;
  fp::Walk(c, jump);
  if (jump.at)
    fail(at(*jump.at),
         std::string("A jump (CYCLE, EXIT, GO TO) between the DO loops of a ") + kRegion +
             " skips the inner DO loop or the statements after it for some iterations of the "
             "loop around it, which f2stencil cannot run as written; put IF (.NOT. (...)) "
             "around each statement it skips instead, inside the inner DO loop for that loop's "
             "body");
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

/// A DO loop inside the point whose trip count only the run knows (`do jj =
/// -r, r` with the radius an argument, `do k = 1, kmt(i, j)` with a column's
/// depth per point): a serial For of the point, its variable a term of the
/// subscripts it reaches (Index::inner). Its bounds are expressions of the
/// point, evaluated where the loop starts: ast/LoopDependences models those
/// it can and over-approximates the others, harness/ProblemSize bounds them
/// for the tuning data.
Stmt RegionLowering::lower_inner_loop(const fp::DoConstruct &d) {
  PointLoop h = point_loop_header(d, std::string(" inside the point of a ") + kRegion);
  loop_vars_.push_back(h.var);
  inner_loops_.insert(h.var);
  Stmt body;
  try {
    body = lower_block(std::get<fp::Block>(d.t), h.loc, true);
  } catch (...) {
    loop_vars_.pop_back();
    inner_loops_.erase(h.var);
    throw;
  }
  loop_vars_.pop_back();
  refuse_bound_changed_in_body(h, body);
  return end_point_loop(h, body);
}

/// Fortran counts a DO loop's trips once, where it starts; every target
/// tests the bound at each trip, as C's `for` does. The two agree unless
/// the body changes what the bounds read.
void RegionLowering::refuse_bound_changed_in_body(const PointLoop &h, const Stmt &body) {
  struct Reads : IRVisitor {
    std::set<std::string> scalars, grids;
    void visit_var(const Var *op) override { scalars.insert(op->name); }
    void visit_grid_ref(const GridRef *op) override {
      grids.insert(op->grid);
      IRVisitor::visit_grid_ref(op);
    }
  } reads;
  reads.visit(h.lo);
  reads.visit(h.hi);
  struct Writes : IRVisitor {
    std::set<std::string> scalars, grids;
    void visit_assign(const Assign *op) override {
      scalars.insert(op->var);
      IRVisitor::visit_assign(op);
    }
    void visit_store(const Store *op) override {
      grids.insert(op->grid);
      IRVisitor::visit_store(op);
    }
  } writes;
  writes.visit(body);
  auto changed = [&](const std::set<std::string> &read, const std::set<std::string> &written,
                     const char *what) {
    for (const std::string &n : read)
      if (written.count(n))
        fail(h.loc, "The DO loop over '" + h.var + "' inside the point " + what + " '" + n +
                        "', which its bounds read; Fortran counts the trips once, before the "
                        "loop, so copy the bound to a scalar the loop does not assign and bound "
                        "the loop by it");
  };
  changed(reads.scalars, writes.scalars, "assigns");
  changed(reads.grids, writes.grids, "stores into");
}

RegionLowering::PointLoop RegionLowering::point_loop_header(const fp::DoConstruct &d,
                                                            const std::string &where, bool moved) {
  const auto &bounds = loop_bounds(d);
  PointLoop h;
  h.loc = at(std::get<fp::Statement<fp::NonLabelDoStmt>>(d.t).source);
  h.var = text_of(bounds.name.thing.source);
  const std::string &var = h.var;
  if (bounds.step) {
    const fp::Expr &step_expr = bounds.step->thing.value();
    const Expr folded = fold_constants(
        moved ? lower_bound(step_expr, var) : lower_point_bound(step_expr, var)); // keeps `c` alive
    const IntImm *c = as<IntImm>(folded);
    if (!c || c->value == 0 || c->value < -1)
      fail(at(step_expr.source), "The step of the DO loop over '" + var + "'" + where +
                                     " must be a positive INTEGER constant or -1" +
                                     (moved ? "" : ", as its bounds are known only at run time") +
                                     constant_fix(step_expr));
    h.step = c->value;
  }
  // A loop the source writes around the nest's loops runs as often at every
  // point: its bounds read what the region does not change. A loop inside
  // the point is the point's: its bounds may read anything the point reads.
  auto bound = [&](const fp::Expr &e) {
    if (!moved)
      return lower_point_bound(e, var);
    Expr x = lower_bound(e, var);
    struct Reads : IRVisitor {
      std::vector<std::string> names;
      void visit_var(const Var *op) override { names.push_back(op->name); }
    } reads;
    reads.visit(x);
    for (const std::string &n : reads.names)
      if (is_loop_var(n) || assigned_.count(n) || inner_ended_.count(n))
        fail(at(e.source), "The bounds of the DO loop over '" + var + "'" + where + " read '" + n +
                               "', which changes from point to point, where the loop runs "
                               "around the nest's loops in the source; move the loop inside "
                               "them, or bound it by INTEGER arguments the region does not "
                               "assign");
    return x;
  };
  h.lo = bound(bounds.lower.thing.value());
  h.hi = bound(bounds.upper.thing.value());
  h.reverse = h.step == -1;
  if (h.reverse) {
    std::swap(h.lo, h.hi);
    h.step = 1;
  }
  inner_ended_.erase(var);
  return h;
}

/// The For of a loop inside the point, whose variable `h.var` the point no
/// longer reads after it.
Stmt RegionLowering::end_point_loop(const PointLoop &h, const Stmt &body) {
  inner_loops_.erase(h.var);
  inner_ended_.insert(h.var);
  // An INTEGER temporary defined from the variable holds nothing known after
  // the loop.
  for (auto it = integer_defs_.begin(); it != integer_defs_.end();)
    if (it->second.inner == h.var) {
      integer_unknown_[it->first] = "'" + it->first + "' was assigned from the variable of the " +
                                    "DO loop over '" + h.var + "' inside the point";
      it = integer_defs_.erase(it);
    } else {
      ++it;
    }
  return For::reversed(
      For::make(h.var, h.lo, h.hi, IntImm::make(h.step, h.loc), LoopExec::Serial, body, h.loc),
      h.reverse);
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

/// A start of a stride loop as base + d, with base free of the loops (null
/// for none) and d between lo and hi for every row and call.
struct StartRange {
  Expr base;
  int64_t lo = 0, hi = 0;
};

Expr plus(const Expr &a, const Expr &b, const SourceLoc &loc) {
  return !a ? b : !b ? a : Binary::make(BinaryOp::Add, a, b, loc);
}

Expr negated(const Expr &a, const SourceLoc &loc) {
  return a ? Unary::make(UnaryOp::Neg, a, loc) : nullptr;
}

bool same_base(const Expr &a, const Expr &b) {
  return (!a && !b) || (a && b && print_expr(a) == print_expr(b));
}

std::optional<StartRange> start_sum(const Expr &e,
                                    const std::function<bool(const Expr &)> &invariant);

/// The range of `e` over the rows, as base + [lo, hi]: sums, differences
/// and constant multiples of a part free of the loops (`invariant`) and of
/// MOD(x, c), which lies in [0, c - 1] for the x >= 0 that colours are made
/// of; a MERGE (an IF between the loops) spans both its values, when they
/// have one base. Nothing for any other form.
std::optional<StartRange> start_range(const Expr &e,
                                      const std::function<bool(const Expr &)> &invariant) {
  if (const IntImm *c = as<IntImm>(e))
    return StartRange{nullptr, c->value, c->value};
  // Sums first, so that `nxl + 1` and `nxl` have one base.
  if (auto r = start_sum(e, invariant))
    return r;
  if (invariant(e))
    return StartRange{e, 0, 0};
  if (const Call *c = as<Call>(e); c && c->fn == Intrinsic::Mod && c->args.size() == 2) {
    const IntImm *m = as<IntImm>(c->args[1]);
    if (m && m->value > 0)
      return StartRange{nullptr, 0, m->value - 1};
    return std::nullopt;
  }
  if (const Select *s = as<Select>(e)) {
    auto x = start_range(s->a, invariant), y = start_range(s->b, invariant);
    if (!x || !y || !same_base(x->base, y->base))
      return std::nullopt;
    return StartRange{x->base, std::min(x->lo, y->lo), std::max(x->hi, y->hi)};
  }
  return std::nullopt;
}

/// start_range of a negation, sum, difference or constant multiple.
std::optional<StartRange> start_sum(const Expr &e,
                                    const std::function<bool(const Expr &)> &invariant) {
  if (const Unary *u = as<Unary>(e); u && u->op == UnaryOp::Neg) {
    auto a = start_range(u->a, invariant);
    if (a)
      a = StartRange{negated(a->base, e->loc), -a->hi, -a->lo};
    return a;
  }
  if (const Binary *b = as<Binary>(e)) {
    if (b->op == BinaryOp::Mul) {
      const IntImm *c = as<IntImm>(b->a);
      Expr x = b->b;
      if (!c) {
        c = as<IntImm>(b->b);
        x = b->a;
      }
      auto r = c ? start_range(x, invariant) : std::nullopt;
      if (!r)
        return std::nullopt;
      Expr base = r->base
                      ? Binary::make(BinaryOp::Mul, IntImm::make(c->value, e->loc), r->base, e->loc)
                      : nullptr;
      int64_t lo = c->value * r->lo, hi = c->value * r->hi;
      return StartRange{base, std::min(lo, hi), std::max(lo, hi)};
    }
    if (b->op != BinaryOp::Add && b->op != BinaryOp::Sub)
      return std::nullopt;
    auto x = start_range(b->a, invariant), y = start_range(b->b, invariant);
    if (!x || !y)
      return std::nullopt;
    if (b->op == BinaryOp::Add)
      return StartRange{plus(x->base, y->base, e->loc), x->lo + y->lo, x->hi + y->hi};
    Expr base = x->base && y->base ? Binary::make(BinaryOp::Sub, x->base, y->base, e->loc)
                                   : plus(x->base, negated(y->base, e->loc), e->loc);
    return StartRange{base, x->lo - y->hi, x->hi - y->lo};
  }
  return std::nullopt;
}

} // namespace

/// The start of a stride loop that is not a constant: one the call's
/// scalars give (`do i = is, ie, 2`), or one computed between the loops,
/// each scalar read as its value there (`do i = 2 + joff, n - 1, 2` after
/// `joff = mod(j + k, 2)`; `do i = nxl1, nxr, 2` after `nxl1 = nxl` and `if
/// (mod(nxl + j + colour, 2) /= 0) nxl1 = nxl + 1`). The loop then runs over
/// every i from the smallest start on, and its points are those the guard
/// `mod(i - start, step) == 0` keeps: the guard reads the loop variables, so
/// ast/LoopDependences sees the colour exactly. None for a constant start.
std::optional<RegionLowering::ColourStart>
RegionLowering::lower_stride_start(const fp::Expr &lower, const std::string &loop_var,
                                   int64_t step) {
  colour_scalars_ = true;
  Expr start;
  try {
    start = lower_bound(lower, loop_var);
  } catch (...) {
    colour_scalars_ = false;
    throw;
  }
  colour_scalars_ = false;
  if (as<IntImm>(fold_constants(start)))
    return std::nullopt;
  // The start reads the loops around this one only, the call's scalars and
  // the values of scalars assigned between the loops; base no loop at all.
  auto own = std::find(loop_vars_.begin(), loop_vars_.end(), loop_var);
  std::set<std::string> inner(own, loop_vars_.end());
  auto reads_only = [&](const Expr &x, bool outer_loops) {
    struct Check : IRVisitor {
      std::function<bool(const std::string &)> bad;
      bool ok = true;
      void visit_grid_ref(const GridRef *) override { ok = false; }
      void visit_var(const Var *v) override { ok = ok && !bad(v->name); }
    } check;
    check.bad = [&](const std::string &n) {
      return inner.count(n) > 0 || assigned_.count(n) > 0 || (!outer_loops && is_loop_var(n));
    };
    check.visit(x);
    return check.ok;
  };
  auto range = reads_only(start, true) && start->type == Type::Int32
                   ? start_range(start, [&](const Expr &x) { return reads_only(x, false); })
                   : std::nullopt;
  if (!range)
    fail(at(lower.source),
         "The start '" + text_of(lower.source) + "' of the DO loop over '" + loop_var +
             "' must be an INTEGER expression of the scalar arguments plus a part that changes "
             "within a range of constant width (MOD(e, 2) of the outer loop variables, or the "
             "values an IF between the loops chooses from), to run the loop with a step of " +
             std::to_string(step));
  SourceLoc loc = start->loc;
  Expr lo = range->base;
  if (!lo)
    lo = IntImm::make(range->lo, loc);
  else if (range->lo != 0)
    lo = Binary::make(range->lo > 0 ? BinaryOp::Add : BinaryOp::Sub, lo,
                      IntImm::make(std::abs(range->lo), loc), loc);
  return ColourStart{start, fold_constants(lo), range->hi - range->lo >= step};
}

/// `s` under the guards of the stride loops around it, if any.
Stmt RegionLowering::under_stride_guards(const Stmt &s) const {
  if (stride_guards_.empty())
    return s;
  Expr cond;
  for (const Expr &g : stride_guards_)
    cond = cond ? Binary::make(BinaryOp::And, cond, g, g->loc) : g;
  return IfThenElse::make(cond, s, nullptr, s->loc);
}

} // namespace f2s::fe::lowering
