#include "ast/TimeTiling.h"

#include "ast/IRPrinter.h"
#include "ast/IRVisitor.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

namespace f2s {

namespace {

/// Every grid access of a sweep's point, stores and reads, in order.
struct Access {
  std::string grid;
  const std::vector<Index> *index;
  bool store;
  SourceLoc loc;
};

class CollectAccesses : public IRVisitor {
public:
  std::vector<Access> accesses;
  std::set<std::string> vars; ///< scalars the point reads

protected:
  void visit_grid_ref(const GridRef *g) override {
    accesses.push_back({g->grid, &g->index, false, g->loc});
    add_subscripts(g->index);
  }
  void visit_var(const Var *v) override { vars.insert(v->name); }
  void visit_store(const Store *s) override {
    IRVisitor::visit_store(s);
    accesses.push_back({s->grid, &s->index, true, s->loc});
    add_subscripts(s->index);
  }

private:
  void add_subscripts(const std::vector<Index> &index) {
    for (const Index &ix : index)
      if (!ix.var.empty())
        vars.insert(ix.var);
  }
};

class VarsOf : public IRVisitor {
public:
  std::set<std::string> vars;

protected:
  void visit_var(const Var *v) override { vars.insert(v->name); }
};

std::set<std::string> vars_of(const Expr &e) {
  VarsOf v;
  v.visit(e);
  return v.vars;
}

/// Why one sweep cannot be a stage, or the stage.
struct StageOrReason {
  std::optional<TileStage> stage;
  std::string reason;
  SourceLoc loc;
};

StageOrReason refuse(std::string reason, SourceLoc loc) {
  return {std::nullopt, std::move(reason), std::move(loc)};
}

StageOrReason make_stage(const Kernel &k, const std::set<std::string> &state, int rank,
                         const std::set<std::string> &changing, const std::string &time_var) {
  std::string name = "the sweep at " + k.loc.str();
  if (!k.reductions.empty())
    return refuse("It reduces into '" + k.reductions[0].var +
                      "' every step, and a time tile computes several steps before any sum",
                  k.reductions[0].loc);
  if (k.ordered)
    return refuse("Its nest runs in order along '" + k.ordered->var +
                      "', and a time tile computes points out of that order",
                  k.ordered->loc);
  if (!k.strides.empty())
    return refuse("Its loop over '" + k.strides[0].var +
                      "' has a step other than 1, which a time tile does not divide",
                  k.loc);
  std::vector<const For *> loops = perfect_nest(k.body);
  if (loops.empty())
    return refuse("It has no loop", k.loc);
  const For *inner = loops.back();
  std::set<std::string> loop_vars;
  for (const For *f : loops)
    loop_vars.insert(f->var);
  for (const For *f : loops) {
    const IntImm *step = as<IntImm>(f->step);
    if (!step || step->value != 1)
      return refuse("Its loop over '" + f->var + "' has a step other than 1", f->loc);
    for (const Expr &b : {f->lo, f->hi})
      for (const std::string &v : vars_of(b)) {
        if (loop_vars.count(v))
          return refuse("The bounds of its loop over '" + f->var + "' depend on '" + v +
                            "', and a time tile computes boxes",
                        f->loc);
        if (changing.count(v))
          return refuse("The bounds of its loop over '" + f->var + "' read '" + v +
                            "', which changes between steps",
                        f->loc);
      }
  }
  CollectAccesses acc;
  acc.visit(inner->body);
  // A subscript offset the front end moved into a grid's bounds
  // (Kernel::subscript_offsets) is read too.
  for (const Variable &g : k.args)
    for (const Dim &dim : g.dims)
      for (const Expr &b : {dim.lo, dim.hi})
        for (const std::string &v : vars_of(b)) {
          if (state.count(g.name) && changing.count(v))
            return refuse("The bounds of '" + g.name + "' depend on '" + v +
                              "', which changes between steps",
                          g.loc);
          acc.vars.insert(v);
        }
  for (const std::string &v : acc.vars)
    if (changing.count(v) && v != time_var)
      return refuse("It reads '" + v + "', which changes between steps", k.loc);

  TileStage st;
  st.sweep = k.name;
  st.vars.assign(rank, "");
  st.constant.assign(rank, 0);
  st.lo.assign(rank, nullptr);
  st.hi.assign(rank, nullptr);
  // The stores fix each dimension: a loop variable or a constant.
  bool any_store = false;
  for (const Access &a : acc.accesses) {
    if (!a.store)
      continue;
    if (!state.count(a.grid))
      continue;
    std::vector<std::string> vars(rank);
    std::vector<int64_t> constant(rank, 0);
    for (int d = 0; d < rank; ++d) {
      const Index &ix = (*a.index)[d];
      if (ix.var.empty()) {
        constant[d] = ix.offset;
        continue;
      }
      if (ix.coeff != 1 || ix.offset != 0)
        return refuse("It stores to '" + a.grid + "' away from the point itself", a.loc);
      vars[d] = ix.var;
    }
    if (!any_store) {
      st.vars = vars;
      st.constant = constant;
      any_store = true;
    } else if (vars != st.vars || constant != st.constant) {
      return refuse("It stores to the state grids at different subscripts", a.loc);
    }
    if (std::find(st.writes.begin(), st.writes.end(), a.grid) == st.writes.end())
      st.writes.push_back(a.grid);
  }
  if (!any_store)
    return refuse("It writes no grid that the loop's steps carry", k.loc);
  for (const For *f : loops)
    if (std::find(st.vars.begin(), st.vars.end(), f->var) == st.vars.end())
      return refuse("Its loop over '" + f->var + "' subscripts no dimension of the grids it writes",
                    f->loc);
  for (int d = 0; d < rank; ++d) {
    if (st.vars[d].empty()) {
      st.lo[d] = st.hi[d] = IntImm::make(st.constant[d]);
      continue;
    }
    for (const For *f : loops)
      if (f->var == st.vars[d]) {
        st.lo[d] = f->lo;
        st.hi[d] = f->hi;
      }
  }
  // Reads of state grids: at the point's own dimensions plus constants.
  std::map<std::string, size_t> read_of;
  for (const Access &a : acc.accesses) {
    if (a.store || !state.count(a.grid))
      continue;
    std::vector<int64_t> off(rank);
    for (int d = 0; d < rank; ++d) {
      const Index &ix = (*a.index)[d];
      if (st.vars[d].empty()) {
        if (!ix.var.empty())
          return refuse("It reads '" + a.grid + "' along '" + ix.var +
                            "' where it stores at a constant",
                        a.loc);
        off[d] = ix.offset - st.constant[d];
      } else {
        if (ix.var != st.vars[d] || ix.coeff != 1)
          return refuse("It reads '" + a.grid + "' at a subscript other than '" + st.vars[d] +
                            "' plus a constant in dimension " + std::to_string(d + 1),
                        a.loc);
        off[d] = ix.offset;
      }
    }
    auto [it, fresh] = read_of.emplace(a.grid, st.reads.size());
    if (fresh) {
      st.reads.push_back({a.grid, off, off, {off}});
      continue;
    }
    TileRead &r = st.reads[it->second];
    if (std::find(r.offsets.begin(), r.offsets.end(), off) == r.offsets.end())
      r.offsets.push_back(off);
    for (int d = 0; d < rank; ++d) {
      r.lo[d] = std::min(r.lo[d], off[d]);
      r.hi[d] = std::max(r.hi[d], off[d]);
    }
  }
  return {std::move(st), "", {}};
}

/// The grid stage `st` (of sweep k) copies into the grid it writes, where
/// it is a copy back (TileStage::copy_of); empty otherwise.
std::string copy_back_of(const TimeLoop &t, const TileStage &st, const Kernel &k) {
  if (st.writes.size() != 1 || st.reads.size() != 1 || st.reads[0].offsets.size() != 1 ||
      st.reads[0].grid == st.writes[0])
    return "";
  const Variable *y = t.signature.find_arg(st.writes[0]);
  const Variable *x = t.signature.find_arg(st.reads[0].grid);
  if (!x || !y || x->type != y->type || x->rank() != y->rank())
    return "";
  std::vector<Index> at;
  for (int d = 0; d < y->rank(); ++d) {
    if (st.vars[d].empty() || print_expr(st.lo[d]) != print_expr(y->dims[d].lo) ||
        print_expr(st.hi[d]) != print_expr(y->dims[d].hi) ||
        print_expr(x->dims[d].lo) != print_expr(y->dims[d].lo) ||
        print_expr(x->dims[d].hi) != print_expr(y->dims[d].hi))
      return "";
    at.push_back({st.vars[d], 1, 0});
  }
  // The point: exactly y(at) = x(at).
  std::vector<const For *> loops = perfect_nest(k.body);
  if (loops.empty())
    return "";
  const Stmt *point = &loops.back()->body;
  if (const Block *b = as<Block>(*point)) {
    if (b->stmts.size() != 1)
      return "";
    point = &b->stmts[0];
  }
  const Store *store = as<Store>(*point);
  const GridRef *from = store ? as<GridRef>(store->value) : nullptr;
  if (!store || !from || store->grid != y->name || store->index != at || from->grid != x->name ||
      from->index != at)
    return "";
  return x->name;
}

std::string dims_text(const std::vector<int64_t> &lo, const std::vector<int64_t> &hi) {
  std::string s;
  for (size_t d = 0; d < lo.size(); ++d)
    s += (d ? " " : "") + std::to_string(lo[d]) + ".." + std::to_string(hi[d]);
  return s;
}

} // namespace

TimeTiling plan_time_tiling(const TimeLoop &t, const std::vector<const Kernel *> &sweeps) {
  auto no = [](std::string reason, SourceLoc loc) {
    return TimeTiling{std::nullopt, std::move(reason), std::move(loc)};
  };
  // The scalars that change between steps: the time variable and every
  // scalar the loop writes.
  std::set<std::string> changing{t.var};
  for (const Reduction &r : t.signature.reductions)
    changing.insert(r.var);
  std::vector<const Kernel *> order;
  for (const TimeStmt &s : t.body) {
    if (s.kind == TimeStmtKind::ExitIf)
      return no("The loop may leave at its EXIT after any step, which a time tile of several "
                "steps cannot stop at",
                s.loc);
    if (s.kind == TimeStmtKind::Assign)
      continue; // scalars the sweeps do not read (checked below) run per step
    if (s.kind != TimeStmtKind::Sweep)
      return no("Its steps exchange pointers, which time tiles do not follow yet", s.loc);
    for (const Kernel *k : sweeps)
      if (k->name == s.sweep)
        order.push_back(k);
  }
  if (order.empty())
    return no("The loop runs no sweep", t.signature.loc);
  // The state: every grid a sweep writes. All of one rank.
  std::set<std::string> state;
  for (const Kernel *k : order) {
    CollectAccesses acc;
    acc.visit(k->body);
    for (const Access &a : acc.accesses)
      if (a.store)
        state.insert(a.grid);
  }
  TimeTilePlan plan;
  for (const Variable &v : t.signature.args)
    if (state.count(v.name)) {
      if (plan.state.empty())
        plan.rank = v.rank();
      else if (v.rank() != plan.rank)
        return no("The grids its sweeps write have different ranks ('" + plan.state[0] + "' " +
                      std::to_string(plan.rank) + ", '" + v.name + "' " + std::to_string(v.rank()) +
                      ")",
                  v.loc);
      plan.state.push_back(v.name);
    }
  for (const Kernel *k : order) {
    StageOrReason s = make_stage(*k, state, plan.rank, changing, t.var);
    if (!s.stage)
      return no("Its sweep '" + k->name + "' cannot be tiled in time: " +
                    (s.reason.empty() ? "" : std::string(1, (char)std::tolower(s.reason[0]))) +
                    s.reason.substr(1),
                s.loc.known() ? s.loc : k->loc);
    s.stage->copy_of = copy_back_of(t, *s.stage, *k);
    plan.stages.push_back(std::move(*s.stage));
  }
  plan.reach_lo.assign(plan.rank, 0);
  plan.reach_hi.assign(plan.rank, 0);
  for (const TileStage &st : plan.stages)
    for (int d = 0; d < plan.rank; ++d) {
      int64_t lo = 0, hi = 0;
      for (const TileRead &r : st.reads) {
        lo = std::max(lo, -r.lo[d]);
        hi = std::max(hi, r.hi[d]);
      }
      plan.reach_lo[d] += lo;
      plan.reach_hi[d] += hi;
    }
  return {std::move(plan), "", {}};
}

std::string print_time_tile_plan(const TimeTilePlan &p) {
  std::ostringstream out;
  out << "time_tiling rank " << p.rank << ", state";
  for (const std::string &g : p.state)
    out << " " << g;
  std::vector<int64_t> neg(p.rank);
  for (int d = 0; d < p.rank; ++d)
    neg[d] = -p.reach_lo[d];
  out << ", reach " << dims_text(neg, p.reach_hi) << "\n";
  for (const TileStage &s : p.stages) {
    out << "  stage " << s.sweep << ":";
    for (size_t w = 0; w < s.writes.size(); ++w)
      out << (w ? "," : "") << " " << s.writes[w];
    out << " at (";
    for (int d = 0; d < p.rank; ++d)
      out << (d ? ", " : "") << (s.vars[d].empty() ? std::to_string(s.constant[d]) : s.vars[d]);
    out << ") over ";
    for (int d = 0; d < p.rank; ++d)
      out << (d ? ", " : "") << print_expr(s.lo[d]) << ".." << print_expr(s.hi[d]);
    if (!s.reads.empty()) {
      out << "; reads";
      for (size_t r = 0; r < s.reads.size(); ++r)
        out << (r ? "," : "") << " " << s.reads[r].grid << " "
            << dims_text(s.reads[r].lo, s.reads[r].hi);
    }
    if (!s.copy_of.empty())
      out << "; a copy back of " << s.copy_of;
    out << "\n";
  }
  return out.str();
}

} // namespace f2s
