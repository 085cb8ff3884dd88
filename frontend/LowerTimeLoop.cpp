// Lowering a `!$f2s stencil timesteps` region: the DO loop over time, and in
// its body the sweeps (each DO nest lowered as a region of its own), array
// copies (lowered to sweeps), scalar assignments and IF (...) EXIT.
#include "ast/IRVisitor.h"
#include "ast/InnerLoops.h"
#include "ast/Planes.h"
#include "frontend/ParseTree.h"

#include "flang/Parser/tools.h"

#include <algorithm>
#include <map>
#include <set>

namespace f2s::fe {

namespace {

const char *const kTimeRegion = "'!$f2s stencil timesteps' loop";

/// The declaration of `name` in the innermost scope that has one, else its
/// IMPLICIT type (no declaration: nothing).
struct Named {
  std::optional<Type> type;
  bool array = false;
  bool found = false;
  SourceLoc loc;
};

Named find_named(const std::vector<Scope> &scopes, const std::string &name) {
  for (auto it = scopes.rbegin(); it != scopes.rend(); ++it)
    if (auto d = it->decls.find(name); d != it->decls.end())
      return Named{d->second.type, d->second.shape != nullptr, true, d->second.loc};
  const ImplicitRules::Rule &rule = scopes.back().implicit.of(name);
  return Named{rule.typed ? rule.type : std::nullopt, false, rule.typed, {}};
}

/// Where a name stands in the order of a kernel's arguments: the
/// procedure's dummies first, then declarations in order; bound arguments
/// (which belong to their grids) last, in the order they were met.
std::pair<int, int> argument_rank(const std::vector<Scope> &scopes, const Variable &v, int met) {
  if (v.bound_of)
    return {3, met};
  const Scope &proc =
      *std::find_if(scopes.rbegin(), scopes.rend(), [](const Scope &s) { return s.is_procedure; });
  if (auto it = std::find(proc.dummies.begin(), proc.dummies.end(), v.name);
      it != proc.dummies.end())
    return {0, static_cast<int>(it - proc.dummies.begin())};
  for (auto it = scopes.rbegin(); it != scopes.rend(); ++it)
    if (auto d = it->decls.find(v.name); d != it->decls.end())
      return {1, d->second.order};
  return {2, met};
}

/// The body with grids `a` and `b` exchanged.
class SwapGrids : public IRMutator {
public:
  SwapGrids(std::string a, std::string b) : a_(std::move(a)), b_(std::move(b)) {}

protected:
  const std::string &other(const std::string &g) const { return g == a_ ? b_ : g == b_ ? a_ : g; }
  Expr visit_grid_ref(const GridRef *op, const Expr &self) override {
    return GridRef::make(other(op->grid), op->index, op->type, op->loc);
  }
  Stmt visit_store(const Store *op, const Stmt &self) override {
    return Store::make(other(op->grid), op->index, mutate(op->value), op->loc);
  }

private:
  std::string a_, b_;
};

class TimeLoopLowering {
public:
  TimeLoopLowering(const SourceMap &map, const std::vector<Scope> &scopes,
                   const StencilDirective &dir, const std::vector<StencilDirective> &inner,
                   const std::string &name)
      : map_(map), scopes_(scopes), dir_(dir), inner_(inner), name_(name) {}

  LoweredTimeLoop lower(const fp::DoConstruct &d) {
    const auto &stmt = std::get<fp::Statement<fp::NonLabelDoStmt>>(d.t);
    SourceLoc do_loc = map_.at(stmt.source);
    const auto &control = std::get<std::optional<fp::LoopControl>>(stmt.statement.t);
    const auto *bounds = control ? std::get_if<fp::LoopControl::Bounds>(&control->u) : nullptr;
    if (!bounds)
      throw UserError(do_loc, std::string("A ") + kTimeRegion +
                                  " must be a DO loop with a variable and bounds, as in "
                                  "'DO it = 1, nt'");
    TimeLoop &t = out_.loop;
    t.var = text_of(bounds->name.thing.source);
    SourceLoc var_loc = map_.at(bounds->name.thing.source);
    Named var = find_named(scopes_, t.var);
    if (var.array || var.type != Type::Int32)
      problems_.add({var_loc, "The variable of a " + std::string(kTimeRegion) + ", '" + t.var +
                                  "', must be an INTEGER scalar; declare it INTEGER"});
    t.lo = bound(bounds->lower.thing.value());
    t.hi = bound(bounds->upper.thing.value());
    t.step = bounds->step ? bound(bounds->step->thing.value()) : IntImm::make(1, do_loc);
    written_.push_back(Variable{t.var, Type::Int32, {}, var.loc.known() ? var.loc : var_loc});

    const fp::Block &body = std::get<fp::Block>(d.t);
    std::vector<const fp::ExecutionPartConstruct *> stmts;
    for (const fp::ExecutionPartConstruct &c : body)
      stmts.push_back(&c);
    for (size_t i = 0; i < stmts.size(); ++i)
      problems_.attempt([&] {
        if (!swap(stmts, i))
          statement(*stmts[i]);
      });
    for (; next_inner_ < inner_.size(); ++next_inner_)
      problems_.add({inner_[next_inner_].loc,
                     "This '!$f2s' directive inside a " + std::string(kTimeRegion) +
                         " is not followed by a DO nest; a directive there names the sweep "
                         "that follows it"});
    if (problems_.empty() && out_.sweeps.empty())
      problems_.add({dir_.loc, "This " + std::string(kTimeRegion) +
                                   " runs no sweep: its body needs a DO nest or an array copy"});
    problems_.throw_if_any();
    signature();
    check_swaps();
    return std::move(out_);
  }

private:
  SourceLoc at(const fp::ExecutionPartConstruct &c) const {
    if (auto b = fp::GetSource(c))
      return map_.at(*b);
    return dir_.loc;
  }

  /// An INTEGER bound of the time loop.
  Expr bound(const fp::Expr &e) {
    ScalarExpr x = lower_scalar_expr(map_, scopes_, dir_, e, false);
    if (x.value->type != Type::Int32)
      throw UserError(map_.at(e.source), "The bounds of a " + std::string(kTimeRegion) +
                                             " must be INTEGER expressions");
    use(x.uses);
    return x.value;
  }

  void use(const std::vector<Variable> &vars) {
    for (const Variable &v : vars)
      if (std::none_of(used_.begin(), used_.end(),
                       [&](const Variable &u) { return u.name == v.name; }))
        used_.push_back(v);
  }

  /// The directive that names the sweep starting at `line` (the last inside
  /// the loop before it), if any.
  std::optional<StencilDirective> directive_before(int line) {
    std::optional<StencilDirective> found;
    for (; next_inner_ < inner_.size() && inner_[next_inner_].loc.line < line; ++next_inner_) {
      if (found)
        problems_.add({found->loc, "This '!$f2s' directive is followed by another, not by a DO "
                                   "nest; remove one of them"});
      found = inner_[next_inner_];
    }
    if (found && found->timesteps)
      throw UserError(found->timesteps_loc, "A " + std::string(kTimeRegion) +
                                                " cannot hold another; remove TIMESTEPS from "
                                                "the inner directive");
    return found;
  }

  /// What a sweep at `loc` is lowered with: its own directive, or the
  /// loop's; the loop's tuning sizes where its own gives none.
  StencilDirective sweep_directive(const std::optional<StencilDirective> &named,
                                   const SourceLoc &loc) const {
    StencilDirective d = named ? *named : dir_;
    if (!named) {
      d.loc = loc; // the sweep's own position in messages
      d.name.reset();
    }
    if (!named || named->tune_size.empty()) {
      d.tune_size = dir_.tune_size;
      d.tune_sizes = dir_.tune_sizes;
      d.tune_size_loc = dir_.tune_size_loc;
      d.tune_sizes_loc = dir_.tune_sizes_loc;
      d.tune_size_of_time_loop = true;
    }
    d.timesteps = false;
    d.sweep_of_time_loop = true;
    return d;
  }

  std::string next_sweep_name(const std::optional<StencilDirective> &named) {
    ++sweeps_;
    return named && named->name ? *named->name : name_ + "_" + std::to_string(sweeps_);
  }

  void add_sweep(const fp::DoConstruct *d, Kernel k, const SourceLoc &loc) {
    // Whether a sweep may hold what the nest has is ast/Planes' question.
    if (auto refusal = find_plane_in_sweep(k))
      throw UserError(refusal->loc, refusal->message);
    // Nor a loop inside the point whose window only the call knows
    // (ast/InnerLoops): time tiles and halos are constant widths.
    if (auto inner = first_inner_loop(k))
      throw UserError(inner->loc, "The DO loop over '" + inner->var +
                                      "' inside the point has a trip count known only at run "
                                      "time, which a sweep of a " +
                                      kTimeRegion +
                                      " cannot hold; annotate each nest of the loop with a "
                                      "'!$f2s stencil' of its own, without TIMESTEPS");
    // Nor a statement between the loops, which runs at one point of the
    // inner loops (canonicalize/SinkScalars): time tiles compute points in
    // another order, and halos from the points' offsets.
    if (!k.outer_statements.empty())
      throw UserError(k.outer_statements.front().loc,
                      "This statement between the DO loops runs once per iteration of the loops "
                      "around it, which a sweep of a " +
                          std::string(kTimeRegion) +
                          " cannot hold; annotate each nest of the loop with a '!$f2s stencil' "
                          "of its own, without TIMESTEPS");
    k.time_loop = name_;
    TimeStmt s;
    s.kind = TimeStmtKind::Sweep;
    s.sweep = k.name;
    s.loc = loc;
    out_.loop.body.push_back(s);
    out_.sweeps.emplace_back(d, std::move(k));
  }

  void statement(const fp::ExecutionPartConstruct &c) {
    const auto *exec = std::get_if<fp::ExecutableConstruct>(&c.u);
    if (!exec)
      throw UserError(at(c), not_allowed());
    if (std::holds_alternative<fc::Indirection<fp::CompilerDirective>>(exec->u))
      return; // a '!$f2s' line (inner_ holds what it says) or another compiler's
    if (const auto *loop = std::get_if<fc::Indirection<fp::DoConstruct>>(&exec->u)) {
      const fp::DoConstruct &d = loop->value();
      SourceLoc loc = map_.at(std::get<fp::Statement<fp::NonLabelDoStmt>>(d.t).source);
      std::optional<StencilDirective> named = directive_before(loc.line);
      StencilDirective sweep_dir = sweep_directive(named, loc);
      std::string name = next_sweep_name(named);
      add_sweep(&d, lower_region(map_, scopes_, sweep_dir, d, name), loc);
      return;
    }
    const auto *action = std::get_if<fp::Statement<fp::ActionStmt>>(&exec->u);
    if (!action)
      throw UserError(at(c), not_allowed());
    SourceLoc loc = map_.at(action->source);
    const fp::ActionStmt &a = action->statement;
    if (std::holds_alternative<fp::ContinueStmt>(a.u))
      return;
    if (const auto *assign = std::get_if<fc::Indirection<fp::AssignmentStmt>>(&a.u)) {
      assignment(assign->value(), loc);
      return;
    }
    if (const auto *cond = std::get_if<fc::Indirection<fp::IfStmt>>(&a.u)) {
      const fp::IfStmt &s = cond->value();
      const auto &then = std::get<fp::UnlabeledStatement<fp::ActionStmt>>(s.t).statement;
      const auto *exit = std::get_if<fc::Indirection<fp::ExitStmt>>(&then.u);
      if (!exit)
        throw UserError(loc, "Only EXIT may follow IF (...) in a " + std::string(kTimeRegion) +
                                 "; put any other conditional work inside a sweep");
      if (exit->value().v)
        throw UserError(loc, "EXIT in a " + std::string(kTimeRegion) +
                                 " must leave the time loop itself; drop the construct name");
      const fp::Expr &e = std::get<fp::ScalarLogicalExpr>(s.t).thing.thing.value();
      ScalarExpr x = lower_scalar_expr(map_, scopes_, dir_, e, true);
      use(x.uses);
      TimeStmt st;
      st.kind = TimeStmtKind::ExitIf;
      st.value = x.value;
      st.loc = loc;
      out_.loop.body.push_back(st);
      return;
    }
    if (std::holds_alternative<fc::Indirection<fp::PointerAssignmentStmt>>(a.u))
      throw UserError(loc, "A pointer assignment in a " + std::string(kTimeRegion) +
                               " may only swap two POINTER arrays, in three statements in a row "
                               "as 'tmp => u; u => v; v => tmp' do; write the swap so, or copy "
                               "back ('u = unew') instead");
    throw UserError(loc, not_allowed());
  }

  /// `p => q` with whole names on both sides: the names.
  std::optional<std::pair<std::string, std::string>>
  pointer_assignment(const fp::ExecutionPartConstruct &c) const {
    const auto *exec = std::get_if<fp::ExecutableConstruct>(&c.u);
    const auto *action = exec ? std::get_if<fp::Statement<fp::ActionStmt>>(&exec->u) : nullptr;
    const auto *pa =
        action ? std::get_if<fc::Indirection<fp::PointerAssignmentStmt>>(&action->statement.u)
               : nullptr;
    if (!pa)
      return std::nullopt;
    const auto &[lhs, bounds, rhs] = pa->value().t;
    const auto *l = std::get_if<fp::Name>(&lhs.u);
    const auto *d = std::get_if<fc::Indirection<fp::Designator>>(&rhs.u);
    const auto *ref = d ? std::get_if<fp::DataRef>(&d->value().u) : nullptr;
    const auto *r = ref ? std::get_if<fp::Name>(&ref->u) : nullptr;
    bool remapped = std::visit([](const auto &list) { return !list.empty(); }, bounds.u);
    if (!l || !r || remapped)
      return std::nullopt;
    return std::pair(text_of(l->source), text_of(r->source));
  }

  /// `tmp => a; a => b; b => tmp` at `stmts[i]`: a swap of POINTER grids a
  /// and b, lowered, with `i` moved to its last statement (also when it is
  /// refused: one swap, one problem); false for none.
  bool swap(const std::vector<const fp::ExecutionPartConstruct *> &stmts, size_t &i) {
    if (i + 2 >= stmts.size())
      return false;
    auto first = pointer_assignment(*stmts[i]), second = pointer_assignment(*stmts[i + 1]),
         third = pointer_assignment(*stmts[i + 2]);
    if (!first || !second || !third)
      return false;
    const auto &[tmp, a] = *first;
    if (second->first != a || third->first != second->second || third->second != tmp ||
        a == second->second || tmp == a || tmp == second->second)
      return false;
    const std::string &b = second->second;
    SourceLoc loc = at(*stmts[i]);
    i += 2;
    auto pointer_grid = [&](const std::string &n) -> const Decl * {
      for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it)
        if (auto d = it->decls.find(n); d != it->decls.end())
          return d->second.pointer && d->second.shape ? &d->second : nullptr;
      return nullptr;
    };
    for (const std::string &n : {tmp, a, b})
      if (!pointer_grid(n))
        throw UserError(loc, "The pointer swap of '" + a + "' and '" + b + "' through '" + tmp +
                                 "' needs three POINTER arrays, and '" + n +
                                 "' is not one; declare it with POINTER and a shape");
    const Decl &da = *pointer_grid(a), &db = *pointer_grid(b);
    if (da.type != db.type || array_rank(da) != array_rank(db))
      throw UserError(loc, "'" + a + "' and '" + b +
                               "' swap targets, so they must have one type and rank");
    // Each swap's count says whether its pair ends exchanged only if no
    // other swap moves one of the two.
    for (const TimeStmt &o : out_.loop.body)
      if (o.kind == TimeStmtKind::Swap && std::set{o.var, o.other} != std::set{a, b})
        for (const std::string &n : {a, b})
          if (n == o.var || n == o.other)
            throw UserError(loc, "This swap of '" + a + "' and '" + b + "' shares '" + n +
                                     "' with the swap of '" + o.var + "' and '" + o.other +
                                     "' before it; swap the same pair again or another pair");
    swap_temps_.push_back({tmp, loc});
    TimeStmt st;
    st.kind = TimeStmtKind::Swap;
    st.var = a;
    st.other = b;
    st.counter = "f2s_swaps_" + std::to_string(++swaps_);
    st.loc = loc;
    out_.loop.body.push_back(st);
    Variable counter{st.counter, Type::Int32, {}, loc};
    counter.swaps_of = std::pair(a, b);
    written_.push_back(counter);
    return true;
  }

  /// A pointer's rank (`u(:,:)` is a deferred shape; 0 for another kind).
  static size_t array_rank(const Decl &d) {
    if (const auto *deferred = std::get_if<fp::DeferredShapeSpecList>(&d.shape->u))
      return static_cast<size_t>(deferred->v);
    return 0;
  }

  static std::string not_allowed() {
    return "A " + std::string(kTimeRegion) +
           " may hold only DO nests (its sweeps), array copies ('u = unew'), assignments to "
           "scalars and IF (...) EXIT; move this statement out of the loop or into a sweep";
  }

  void assignment(const fp::AssignmentStmt &a, const SourceLoc &loc) {
    const auto *lhs = std::get_if<fc::Indirection<fp::Designator>>(&std::get<fp::Variable>(a.t).u);
    const auto *ref = lhs ? std::get_if<fp::DataRef>(&lhs->value().u) : nullptr;
    const auto *scalar = ref ? std::get_if<fp::Name>(&ref->u) : nullptr;
    if (scalar) {
      std::string var = text_of(scalar->source);
      Named n = find_named(scopes_, var);
      if (!n.array) {
        if (var == out_.loop.var)
          throw UserError(loc, "The variable of the time loop, '" + var +
                                   "', cannot be assigned inside it");
        if (!n.found || !n.type)
          throw UserError(loc, "The type of '" + var + "' cannot be used in a " +
                                   std::string(kTimeRegion) +
                                   "; use INTEGER, REAL(4), REAL(8) or default LOGICAL");
        const fp::Expr &e = std::get<fp::Expr>(a.t);
        ScalarExpr x = lower_scalar_expr(map_, scopes_, dir_, e, *n.type == Type::Bool);
        use(x.uses);
        TimeStmt st;
        st.kind = TimeStmtKind::Assign;
        st.var = var;
        // Converted to the variable's type on assignment, as in a region.
        st.value = x.value;
        st.loc = loc;
        out_.loop.body.push_back(st);
        written_.push_back(Variable{var, *n.type, {}, n.loc.known() ? n.loc : loc});
        return;
      }
    }
    // An array assignment: a copy, lowered to a sweep of its own.
    std::optional<StencilDirective> named = directive_before(loc.line);
    StencilDirective copy_dir = sweep_directive(named, loc);
    std::string name = next_sweep_name(named);
    add_sweep(nullptr, lower_array_copy(map_, scopes_, copy_dir, a, loc, name), loc);
  }

  /// The library procedure's arguments: every variable of the sweeps and of
  /// the scalar statements, in a kernel's order; the written scalars by
  /// reference.
  void signature() {
    Kernel &k = out_.loop.signature;
    std::vector<Variable> all;
    auto add = [&](const Variable &v) {
      if (std::none_of(all.begin(), all.end(), [&](const Variable &u) { return u.name == v.name; }))
        all.push_back(v);
    };
    std::vector<Stmt> bodies;
    for (const auto &[d, sweep] : out_.sweeps) {
      for (const Reduction &r : sweep.reductions)
        written_.push_back(*sweep.find_arg(r.var));
      bodies.push_back(sweep.body);
    }
    // A copy may declare its right side shifted (lower_array_copy): the
    // nests' declarations first.
    for (bool copies : {false, true})
      for (const auto &[d, sweep] : out_.sweeps)
        if (copies == (d == nullptr))
          for (const Variable &v : sweep.args)
            add(v);
    for (const Variable &v : used_)
      add(v);
    for (const Variable &v : written_)
      add(v);
    std::vector<std::pair<std::pair<int, int>, Variable>> ranked;
    int met = 0;
    for (const Variable &v : all)
      ranked.push_back({argument_rank(scopes_, v, met++), v});
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    for (auto &[rank, v] : ranked)
      k.args.push_back(std::move(v));
    for (const Variable &a : k.args)
      if (std::any_of(written_.begin(), written_.end(),
                      [&](const Variable &w) { return w.name == a.name; }))
        k.reductions.push_back(Reduction{a.name, ReduceOp::Sum, a.type, a.loc});
    // After a swap the sweeps run on the other targets: each of the two
    // pointers is written where either is (the next step, in the body).
    for (const TimeStmt &st : out_.loop.body)
      if (st.kind == TimeStmtKind::Swap)
        for (const auto &[d, sweep] : out_.sweeps)
          bodies.push_back(SwapGrids(st.var, st.other).mutate(sweep.body));
    k.name = name_;
    k.procedure = std::find_if(scopes_.rbegin(), scopes_.rend(), [](const Scope &s) {
                    return s.is_procedure;
                  })->name;
    k.loc = dir_.loc;
    k.body = Block::make(bodies, dir_.loc);
  }

  /// The library procedure swaps the pointers its sweeps take: both of a
  /// pair, and never the temporary, which it does not update.
  void check_swaps() {
    const Kernel &k = out_.loop.signature;
    for (const TimeStmt &st : out_.loop.body)
      if (st.kind == TimeStmtKind::Swap)
        for (const std::string &n : {st.var, st.other})
          if (!k.find_arg(n) || !k.find_arg(n)->is_grid())
            problems_.add({st.loc, "No sweep of this " + std::string(kTimeRegion) + " uses '" + n +
                                       "', which the swap of '" + st.var + "' and '" + st.other +
                                       "' exchanges; swap pointers that the sweeps use"});
    for (const auto &[tmp, loc] : swap_temps_)
      if (k.find_arg(tmp))
        problems_.add({loc, "A sweep of this " + std::string(kTimeRegion) + " uses '" + tmp +
                                "', the temporary of a pointer swap, which the library does not "
                                "keep up to date; give the swap a temporary of its own"});
    problems_.throw_if_any();
  }

  const SourceMap &map_;
  const std::vector<Scope> &scopes_;
  const StencilDirective &dir_;
  const std::vector<StencilDirective> &inner_;
  std::string name_;
  size_t next_inner_ = 0;
  int sweeps_ = 0;
  int swaps_ = 0;
  std::vector<std::pair<std::string, SourceLoc>> swap_temps_; ///< each swap's temporary
  std::vector<Variable> used_;    ///< scalars the bounds and scalar statements read
  std::vector<Variable> written_; ///< scalars the loop writes
  Problems problems_;
  LoweredTimeLoop out_;
};

} // namespace

LoweredTimeLoop lower_time_loop(const SourceMap &map, const std::vector<Scope> &scopes,
                                const StencilDirective &dir,
                                const std::vector<StencilDirective> &inner,
                                const fp::DoConstruct &d, const std::string &name) {
  return TimeLoopLowering(map, scopes, dir, inner, name).lower(d);
}

} // namespace f2s::fe
