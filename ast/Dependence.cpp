#include "ast/Dependence.h"

#include "ast/ColumnShape.h"
#include "ast/IRVisitor.h"
#include "ast/LoopDependences.h"
#include "ast/Planes.h"
#include "ast/Reductions.h"

#include <algorithm>
#include <map>
#include <set>

namespace f2s {

namespace {

const char *const kRegion = "'!$f2s stencil' region";

/// The loops of the nest in one dependence, by variable.
std::set<std::string> nest_carriers(const LoopDependences &ld, const Dependence &d) {
  std::set<std::string> out;
  for (size_t p = 0; p < d.common.size(); ++p)
    if (d.carried[p] && ld.loops[d.common[p]].in_nest)
      out.insert(ld.loops[d.common[p]].var);
  return out;
}

/// A subscript without its parentheses: 'k-1'.
std::string bare(const std::string &subscript) {
  return subscript.size() >= 2 ? subscript.substr(1, subscript.size() - 2) : subscript;
}

/// Reads of a private array (a scalar temporary, or a column's work array
/// when `work`) whose value another point wrote, or no statement of the
/// point: the first in source order, as a refusal.
std::optional<Diagnostic> carried_value(const Kernel &k, const LoopDependences &ld, bool work) {
  for (size_t r = 0; r < ld.accesses.size(); ++r) {
    const AccessInfo &read = ld.accesses[r];
    if (read.write || read.storage != Storage::Private ||
        static_cast<bool>(k.find_work(read.array)) != work)
      continue;
    bool from_elsewhere =
        std::any_of(ld.reads_without_source.begin(), ld.reads_without_source.end(),
                    [&](const auto &no) { return no.first == static_cast<int>(r); });
    bool from_same_point = false;
    for (const Dependence &d : ld.dependences) {
      if (d.kind != DepKind::Flow || d.sink != static_cast<int>(r))
        continue;
      from_elsewhere |= constrains_points(ld, d);
      from_same_point |= d.same_iteration;
    }
    if (!from_elsewhere)
      continue;
    if (work) {
      std::string in_loop;
      for (int l : ld.statements[read.stmt].loops)
        if (!ld.loops[l].in_nest)
          in_loop = " in the DO loop over '" + ld.loops[l].var + "'";
      return Diagnostic{read.loc, "Work array '" + read.array + "' of the column is read at '" +
                                      bare(read.subscript) + "'" + in_loop +
                                      ", which the column may not have written before; "
                                      "f2stencil gives each column its own work arrays, so write "
                                      "every element a column reads earlier in that column"};
    }
    // A scalar updated like a reduction that the front end could not take
    // as one: say which use spoils it.
    if (auto d = why_not_reduction(k, read.array))
      return d;
    std::string why = from_same_point
                          ? "' may be read before it is assigned (only some branches of an IF "
                            "assign it) in the "
                          : "' is read before it is assigned in the ";
    return Diagnostic{read.loc, "'" + read.array + why + kRegion +
                                    ", so its value is carried between iterations"};
  }
  return std::nullopt;
}

/// Two accesses of one shared array that different points of the nest make
/// to one element.
struct Conflict {
  SourceLoc loc;                  ///< the read, or the later store
  std::string what;               ///< "'p' is written at (i,k) and read at (i,k-1)..."
  std::set<std::string> carriers; ///< the nest's loops that carry it
};

/// The dependences between points of the nest, one per pair of accesses:
/// those with a read first, by the read in source order (so the first
/// reported is the first the user reads), then pairs of stores.
std::vector<Conflict> conflicts(const LoopDependences &ld) {
  // (read or later store, write or earlier store) -> carriers
  std::map<std::pair<int, int>, std::set<std::string>> reads, stores;
  for (const Dependence *d : nest_carried(ld)) {
    if (d->storage != Storage::Shared)
      continue; // private values: carried_value's
    std::set<std::string> by = nest_carriers(ld, *d);
    if (d->kind == DepKind::Output)
      stores[{std::max(d->source, d->sink), std::min(d->source, d->sink)}].insert(by.begin(),
                                                                                  by.end());
    else if (d->kind == DepKind::Flow)
      reads[{d->sink, d->source}].insert(by.begin(), by.end());
    else
      reads[{d->source, d->sink}].insert(by.begin(), by.end());
  }
  std::vector<Conflict> out;
  for (const auto &[pair, carriers] : reads) {
    const AccessInfo &r = ld.accesses[pair.first], &w = ld.accesses[pair.second];
    bool same_colour = w.parity_test >= 0 && w.parity_test == r.parity_test;
    out.push_back({r.loc,
                   "'" + r.array + "' is written at " + w.subscript + " and read at " +
                       r.subscript + (same_colour ? ", a point of the same colour," : "") +
                       " in the same sweep",
                   carriers});
  }
  for (const auto &[pair, carriers] : stores) {
    const AccessInfo &b = ld.accesses[pair.first], &a = ld.accesses[pair.second];
    out.push_back({b.loc,
                   "'" + b.array + "' is written at " + a.subscript + " by one point and at " +
                       b.subscript + " by another",
                   carriers});
  }
  return out;
}

std::string quoted_list(const std::vector<std::string> &loops, const std::set<std::string> &in) {
  std::string names;
  for (const std::string &v : loops)
    if (in.count(v))
      names += std::string(names.empty() ? "" : ", ") + "'" + v + "'";
  return names;
}

/// A dependence of the source's order that running loops of the source's
/// nest inside the point reverses (LoopDependences::reversed), as a
/// refusal at its later access: the array, both subscripts as written, the
/// loops that carry it in the source, and the loops moved.
std::optional<Diagnostic> reversed_by_interchange(const Kernel &k, const LoopDependences &ld) {
  if (ld.reversed.empty())
    return std::nullopt;
  const Dependence &d = ld.reversed.front();
  const AccessInfo &first = ld.accesses[d.source], &then = ld.accesses[d.sink];
  std::vector<std::string> nest;
  for (const For *f : perfect_nest(k.body))
    nest.push_back(f->var);
  std::vector<std::string> moved;
  for (const std::string &v : k.source_order)
    if (std::find(nest.begin(), nest.end(), v) == nest.end())
      moved.push_back(v);
  struct Loops : IRVisitor {
    std::map<std::string, SourceLoc> at;
    void visit_for(const For *f) override {
      at.try_emplace(f->var, f->loc);
      IRVisitor::visit_for(f);
    }
  } loops;
  loops.visit(k.body);
  auto quoted = [](const std::vector<std::string> &vs) {
    std::string out;
    for (size_t n = 0; n < vs.size(); ++n)
      out += std::string(n == 0 ? "" : n + 1 == vs.size() ? " and " : ", ") + "'" + vs[n] + "'";
    return out;
  };
  std::string what;
  if (d.storage == Storage::Private)
    what = "'" + d.array + "' is read here with the value it was assigned at line " +
           std::to_string(first.loc.line) + " in another iteration of the loops";
  else if (d.kind == DepKind::Flow)
    what = "'" + d.array + "' is written at " + first.subscript + " and read at " + then.subscript;
  else if (d.kind == DepKind::Anti)
    what = "'" + d.array + "' is read at " + first.subscript + " and written at " + then.subscript;
  else
    what = "'" + d.array + "' is written at " + first.subscript + " and again at " + then.subscript;
  std::string lines;
  for (const std::string &v : moved)
    lines += std::string(lines.empty() ? "" : ", ") + std::to_string(loops.at[v].line);
  return Diagnostic{then.loc,
                    what + ", a dependence that the loops over " + quoted(loops_carrying(ld, d)) +
                        " carry in the source's order (" + quoted(k.source_order) +
                        "), but f2stencil runs the DO " + (moved.size() > 1 ? "loops" : "loop") +
                        " over " + quoted(moved) + " (line " + lines +
                        ") inside each point of its nest over " + quoted(nest) +
                        ", which would reverse it; annotate the nest inside the DO loop over '" +
                        moved.back() + "' instead"};
}

} // namespace

/// Whether anything in `body` reads loop variable `v`: a subscript, an
/// expression, a bound.
bool reads_var(const Stmt &body, const std::string &v) {
  struct Reads : IRVisitor {
    const std::string &v;
    bool found = false;
    explicit Reads(const std::string &var) : v(var) {}
    void visit_var(const Var *op) override { found |= op->name == v; }
    void visit_grid_ref(const GridRef *op) override {
      for (const Index &ix : op->index)
        found |= ix.var == v || ix.inner == v;
    }
    void visit_store(const Store *op) override {
      for (const Index &ix : op->index)
        found |= ix.var == v || ix.inner == v;
      IRVisitor::visit_store(op);
    }
  } reads(v);
  reads.visit(body);
  return reads.found;
}

std::optional<Diagnostic> find_store_overlap(const Kernel &k) {
  std::vector<std::string> loops;
  for (const For *f : perfect_nest(k.body))
    loops.push_back(f->var);
  struct Stores : IRVisitor {
    std::vector<const Store *> all;
    void visit_store(const Store *s) override {
      all.push_back(s);
      IRVisitor::visit_store(s);
    }
  } stores;
  stores.visit(k.body);
  auto same = [](const SourceLoc &a, const SourceLoc &b) {
    return a.file == b.file && a.line == b.line && a.column == b.column;
  };
  for (const Store *st : stores.all) {
    if (k.find_work(st->grid))
      continue;
    auto src = std::find_if(k.store_sources.begin(), k.store_sources.end(),
                            [&](const StoreSource &s) { return same(s.loc, st->loc); });
    if (src == k.store_sources.end())
      continue;
    // A statement of an outer level runs at one point of the loops below
    // it (Kernel::outer_statements): only the loops around it may repeat it.
    size_t around = k.outer_depth(st->loc).value_or(static_cast<int>(loops.size()));
    std::set<std::string> seen;
    for (const Index &ix : st->index)
      if (!ix.var.empty() && !seen.insert(ix.var).second)
        return Diagnostic{src->name, "Assignment to '" + src->text + "' uses loop variable '" +
                                         ix.var +
                                         "' in two subscripts, so points of the nest could write "
                                         "one element; subscript each dimension by its own loop "
                                         "variable or a constant"};
    for (size_t n = std::min(around, loops.size()); n-- > 0;)
      if (!seen.count(loops[n]))
        return Diagnostic{src->name,
                          "Assignment to '" + src->text + "' has no subscript in loop variable '" +
                              loops[n] + "', so every point of the DO loop over '" + loops[n] +
                              "' writes the same element; " +
                              (reads_var(k.body, loops[n])
                                   ? "subscript '" + st->grid + "' with '" + loops[n] + "' too"
                                   // Nothing reads it: the loop repeats the nest, as a
                                   // time loop does.
                                   : "the DO loop over '" + loops[n] +
                                         "' only repeats what it holds, so annotate the nest "
                                         "inside it instead, or make it a time loop "
                                         "('!$f2s stencil timesteps', docs/time-loops.md)")};
  }
  return std::nullopt;
}

std::optional<Diagnostic> find_dependence(const Kernel &k) {
  Ordering o = find_ordering(k);
  if (o.refusal)
    return o.refusal;
  if (o.ordered)
    return Diagnostic{o.ordered->loc,
                      o.ordered->reason + ", so the result depends on the loop order"};
  return std::nullopt;
}

Ordering find_ordering(const Kernel &k) {
  std::vector<std::string> loops;
  for (const For *f : perfect_nest(k.body))
    loops.push_back(f->var);
  LoopDependences ld = analyze_dependences(k);
  // A program other than the source's first: the loops the kernel runs
  // inside the point must keep the source's dependences.
  if (auto d = reversed_by_interchange(k, ld))
    return {d, std::nullopt};
  if (auto d = array_assignment_dependence(k, ld))
    return {d, std::nullopt};
  if (auto d = carried_value(k, ld, false))
    return {d, std::nullopt};
  if (k.column)
    if (auto d = check_column_shape(k))
      return {d, std::nullopt};
  // Planes at run-time positions (ast/Planes) have their rule, whose
  // refusal names the plane; isl, which reads their scalar as a parameter,
  // then agrees on what remains.
  // Statements of an outer level touch elements no point of the inner
  // loops does (a boundary element of each row), which the rule cannot
  // express: isl, with the plane's scalar as a parameter, decides alone.
  if (auto planes = k.outer_statements.empty() ? plane_conflict(k) : std::nullopt)
    return {planes, std::nullopt};
  std::vector<Conflict> found = conflicts(ld);
  if (k.column) {
    // Columns run in any order, each in its own order: no loop of the nest
    // may carry anything.
    if (!found.empty()) {
      const Conflict &c = found.front();
      return {Diagnostic{
                  c.loc,
                  c.what + ", so the result depends on the order of the columns (the loops over " +
                      quoted_list(loops, c.carriers) +
                      " carry it); each column may touch only its own elements of "
                      "an array the region writes"},
              std::nullopt};
    }
    return {carried_value(k, ld, true), std::nullopt};
  }
  if (found.empty())
    return {};
  const Conflict &first = found.front();
  std::set<std::string> carried;
  for (const Conflict &c : found)
    carried.insert(c.carriers.begin(), c.carriers.end());
  if (carried.size() == 1 && loops.size() > 1)
    return {std::nullopt, OrderedLoop{*carried.begin(), first.what, first.loc}};
  // Name the loops in nest order, and the conflict that brings in a second one.
  std::string names = quoted_list(loops, carried);
  const Conflict *culprit = &first;
  for (const Conflict &c : found)
    if (c.carriers != first.carriers) {
      culprit = &c;
      break;
    }
  std::string why = carried.size() == loops.size()
                        ? (loops.size() == 1 ? "the only loop carries it"
                                             : "every loop of the nest carries a dependence (" +
                                                   names + "), so none can run in parallel")
                        : "more than one loop carries a dependence (" + names +
                              "), so no loop can run in order while the others run in parallel";
  return {
      Diagnostic{culprit->loc, culprit->what + ", so the result depends on the loop order; " + why},
      std::nullopt};
}

} // namespace f2s
