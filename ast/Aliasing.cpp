#include "ast/Aliasing.h"

#include "ast/Analysis.h"
#include "ast/Dependence.h"
#include "ast/IRPrinter.h"
#include "ast/IRVisitor.h"
#include "ast/LoopDependences.h"

#include <algorithm>
#include <deque>
#include <mutex>
#include <optional>
#include <set>
#include <unordered_map>

namespace f2s {

namespace {

class RenameGrids : public IRMutator {
public:
  explicit RenameGrids(const std::map<std::string, std::string> &same_as) : same_as_(same_as) {}

protected:
  Expr visit_grid_ref(const GridRef *op, const Expr &self) override {
    auto it = same_as_.find(op->grid);
    return it == same_as_.end() ? self : GridRef::make(it->second, op->index, op->type, op->loc);
  }
  Stmt visit_store(const Store *op, const Stmt &self) override {
    Stmt s = IRMutator::visit_store(op, self);
    auto it = same_as_.find(op->grid);
    if (it == same_as_.end())
      return s;
    const Store *st = as<Store>(s);
    return Store::make(it->second, st->index, st->value, st->loc);
  }

private:
  const std::map<std::string, std::string> &same_as_;
};

/// Labels with each class named by its first member, so that one aliasing
/// has one labelling.
std::vector<int> canonical(std::vector<int> label) {
  std::map<int, int> first;
  for (size_t i = 0; i < label.size(); ++i)
    first.emplace(label[i], static_cast<int>(i));
  for (int &l : label)
    l = first.at(l);
  return label;
}

} // namespace

Kernel identify_grids(const Kernel &k, const std::map<std::string, std::string> &same_as) {
  Kernel out = k;
  RenameGrids rename(same_as);
  out.body = rename.mutate(k.body);
  return out;
}

namespace {

/// The dimensions of each grid that some access subscripts by a constant or
/// by a name that is no loop variable: only there does a grid's declared
/// lower bound enter its dependences (LoopDependences assumes that such an
/// access is not below it).
std::map<std::string, std::set<int>> fixed_dims(const Kernel &k) {
  struct Walk : IRVisitor {
    std::set<std::string> loops;
    std::vector<std::pair<std::string, const std::vector<Index> *>> refs;
    void visit_for(const For *op) override {
      loops.insert(op->var);
      IRVisitor::visit_for(op);
    }
    void visit_grid_ref(const GridRef *op) override { refs.push_back({op->grid, &op->index}); }
    void visit_store(const Store *op) override {
      refs.push_back({op->grid, &op->index});
      IRVisitor::visit_store(op);
    }
  } w;
  w.visit(k.body);
  std::map<std::string, std::set<int>> out;
  for (const auto &[grid, index] : w.refs)
    for (size_t d = 0; d < index->size(); ++d)
      if ((*index)[d].var.empty() || !w.loops.count((*index)[d].var))
        out[grid].insert(static_cast<int>(d));
  return out;
}

/// Whether the grids of each class of `label` agree in the declared lower
/// bound of every dimension that fixed_dims says matters: then renaming one
/// to another changes no instance and no assumption of the analysis, only
/// which accesses touch one array.
bool same_lower_bounds(const Kernel &k, const Aliasing &a, const std::vector<int> &label) {
  std::map<std::string, std::set<int>> fixed = fixed_dims(k);
  auto lower = [&](const std::string &grid, int d) {
    const Expr &lo = k.find_arg(grid)->dims[d].lo;
    return lo ? print_expr(lo) : std::string();
  };
  for (size_t i = 0; i < a.grids.size(); ++i) {
    const std::string &head = a.grids[label[i]];
    std::set<int> dims = fixed[a.grids[i]];
    dims.insert(fixed[head].begin(), fixed[head].end());
    for (int d : dims)
      if (lower(a.grids[i], d) != lower(head, d))
        return false;
  }
  return true;
}

std::map<std::string, std::string> same_as_of(const Aliasing &a, const std::vector<int> &label) {
  std::map<std::string, std::string> same_as;
  for (size_t i = 0; i < a.grids.size(); ++i)
    if (label[i] != static_cast<int>(i))
      same_as[a.grids[i]] = a.grids[label[i]];
  return same_as;
}

/// The pairs of grids (indices into a.grids, smaller first) that may not be
/// one array: with every class of shapes passed as one array, a loop of the
/// nest carries a dependence between an access of one and an access of the
/// other. Dependences on shared arrays are memory-based (every two instances
/// that touch one element), so each relates one pair of accesses whatever
/// else is identified: an aliasing is safe exactly when none of its classes
/// holds such a pair. Nothing when the accesses of the two analyses do not
/// correspond one to one.
std::optional<std::set<std::pair<int, int>>> conflicting_pairs(const Kernel &k,
                                                               const LoopDependences &base,
                                                               const Aliasing &a,
                                                               const std::vector<int> &coarsest) {
  LoopDependences all = analyze_dependences(identify_grids(k, same_as_of(a, coarsest)));
  if (all.accesses.size() != base.accesses.size())
    return std::nullopt;
  for (size_t x = 0; x < all.accesses.size(); ++x)
    if (all.accesses[x].stmt != base.accesses[x].stmt ||
        all.accesses[x].subscript != base.accesses[x].subscript)
      return std::nullopt;
  std::map<std::string, int> grid;
  for (size_t i = 0; i < a.grids.size(); ++i)
    grid[a.grids[i]] = static_cast<int>(i);
  std::set<std::pair<int, int>> out;
  for (const Dependence *d : nest_carried(all)) {
    if (d->storage != Storage::Shared)
      continue;
    auto g = grid.find(base.accesses[d->source].array), h = grid.find(base.accesses[d->sink].array);
    if (g != grid.end() && h != grid.end() && g->second != h->second)
      out.insert(std::minmax(g->second, h->second));
  }
  return out;
}

Aliasing compute_aliasing(const Kernel &k) {
  Aliasing a;
  KernelFacts facts = analyze(k);
  std::set<std::string> written(facts.write_set.begin(), facts.write_set.end());
  std::map<std::pair<Type, int>, int> shapes;
  for (const Variable &v : k.args) {
    if (!v.is_grid())
      continue;
    a.grids.push_back(v.name);
    a.written.push_back(written.count(v.name) > 0);
    a.shape_class.push_back(
        shapes.emplace(std::make_pair(v.type, v.rank()), static_cast<int>(shapes.size()))
            .first->second);
  }
  const int n = static_cast<int>(a.grids.size());
  std::vector<int> identity(n), coarsest(n);
  bool mergeable = false;
  for (int i = 0; i < n; ++i) {
    identity[i] = i;
    coarsest[i] =
        static_cast<int>(std::find(a.shape_class.begin(), a.shape_class.end(), a.shape_class[i]) -
                         a.shape_class.begin());
  }
  // Some class that holds a written grid has two grids (else no aliasing
  // is examined, and no analysis is needed).
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      mergeable |= coarsest[i] == coarsest[j] && (a.written[i] || a.written[j]);
  if (!mergeable)
    return a;
  // Identifying grids only adds dependences: a nest refused alone is refused
  // under every aliasing.
  LoopDependences base = analyze_dependences(k);
  if (find_dependence(k, base))
    return a;
  // Two analyses in all (the nest, and the nest with every class of shapes
  // identified) instead of one per aliasing, where renaming changes nothing
  // but which accesses share an array.
  std::optional<std::set<std::pair<int, int>>> conflicts;
  if (same_lower_bounds(k, a, coarsest))
    conflicts = conflicting_pairs(k, base, a, coarsest);
  auto safe_under = [&](const std::vector<int> &label) {
    if (!conflicts)
      return !find_dependence(identify_grids(k, same_as_of(a, label)));
    for (const auto &[g, h] : *conflicts)
      if (label[g] == label[h])
        return false;
    return true;
  };
  // Breadth first from no aliasing, one merge of two classes at a time, so
  // that the likeliest aliasings (one pair) are examined before the cap.
  std::set<std::vector<int>> seen{identity};
  std::deque<std::vector<int>> queue{identity};
  size_t examined = 0;
  while (!queue.empty() && examined < Aliasing::kMaxExamined) {
    std::vector<int> label = queue.front();
    queue.pop_front();
    for (int x = 0; x < n && examined < Aliasing::kMaxExamined; ++x) {
      for (int y = x + 1; y < n && examined < Aliasing::kMaxExamined; ++y) {
        if (label[x] != x || label[y] != y || a.shape_class[x] != a.shape_class[y])
          continue; // merge class heads only, of one type and rank
        std::vector<int> merged = label;
        bool has_write = false;
        for (int i = 0; i < n; ++i) {
          if (merged[i] == y)
            merged[i] = x;
          has_write |= merged[i] == x && a.written[i];
        }
        merged = canonical(merged);
        if (!has_write || !seen.insert(merged).second)
          continue;
        ++examined;
        queue.push_back(merged);
        if (safe_under(merged))
          a.safe.push_back(merged);
      }
    }
  }
  std::sort(a.safe.begin(), a.safe.end());
  return a;
}

} // namespace

Aliasing analyze_aliasing(const Kernel &k) {
  // Each examined aliasing is an isl analysis (milliseconds), and the
  // packaging asks about one nest many times: once per CUDA variant, for the
  // entry points, for each MPI box. The answer depends on the nest as
  // print_kernel shows it (declarations, reductions, columns, statements),
  // never on where the source wrote it, so that text keys it.
  static std::mutex mutex;
  static std::unordered_map<std::string, Aliasing> known;
  std::string key = print_kernel(k);
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = known.find(key); it != known.end())
      return it->second;
  }
  Aliasing a = compute_aliasing(k);
  std::lock_guard<std::mutex> lock(mutex);
  return known.emplace(std::move(key), std::move(a)).first->second;
}

} // namespace f2s
