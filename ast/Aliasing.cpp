#include "ast/Aliasing.h"

#include "ast/Analysis.h"
#include "ast/Dependence.h"
#include "ast/Evaluate.h"
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

std::map<std::string, std::string> same_as_of(const Aliasing &a, const std::vector<int> &label) {
  std::map<std::string, std::string> same_as;
  for (size_t i = 0; i < a.grids.size(); ++i)
    if (label[i] != static_cast<int>(i))
      same_as[a.grids[i]] = a.grids[label[i]];
  return same_as;
}

/// The pairs of grids (indices into a.grids, smaller first) that may not be
/// one array: under the coarsest aliasing, a loop of the nest carries a
/// dependence between an access of one and an access of the other.
/// Dependences on shared arrays are memory-based (every two instances that
/// touch one element), so each relates one pair of accesses whatever else is
/// identified: an aliasing is safe exactly when none of its classes holds
/// such a pair.
std::set<std::pair<int, int>> conflicting_pairs(const Kernel &k, const Aliasing &a,
                                                const std::vector<int> &coarsest) {
  std::map<std::string, int> grid;
  for (size_t i = 0; i < a.grids.size(); ++i)
    grid[a.grids[i]] = static_cast<int>(i);
  std::set<std::pair<int, int>> out;
  for (const auto &[g, h] : aliasing_conflicts(k, same_as_of(a, coarsest)))
    out.insert(std::minmax(grid.at(g), grid.at(h)));
  // The analysis relates elements by subscript, which names the same memory
  // in two grids only where their lower bounds, and the upper bounds of all
  // but the last dimension, are the same: grids whose constants there
  // differ are never one array in that sense (and the entry points' check
  // stops such a call), so no labelling lists them.
  auto never_equal = [](const Expr &x, const Expr &y) {
    std::optional<int64_t> cx = x ? eval_int(x, {}) : std::nullopt,
                           cy = y ? eval_int(y, {}) : std::nullopt;
    return cx && cy && *cx != *cy;
  };
  for (size_t g = 0; g < a.grids.size(); ++g)
    for (size_t h = g + 1; h < a.grids.size(); ++h) {
      if (coarsest[g] != coarsest[h])
        continue;
      const std::vector<Dim> &x = k.find_arg(a.grids[g])->dims, &y = k.find_arg(a.grids[h])->dims;
      for (size_t d = 0; d < x.size() && d < y.size(); ++d)
        if (never_equal(x[d].lo, y[d].lo) || (d + 1 < x.size() && never_equal(x[d].hi, y[d].hi)))
          out.insert({static_cast<int>(g), static_cast<int>(h)});
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
  // The coarsest aliasing examined: each class of shapes that holds a
  // written grid as one array (the others are never merged: only reads).
  std::vector<int> identity(n), coarsest(n);
  std::set<int> written_shapes;
  for (int i = 0; i < n; ++i)
    if (a.written[i])
      written_shapes.insert(a.shape_class[i]);
  bool mergeable = false;
  for (int i = 0; i < n; ++i) {
    identity[i] = coarsest[i] = i;
    if (!written_shapes.count(a.shape_class[i]))
      continue;
    coarsest[i] =
        static_cast<int>(std::find(a.shape_class.begin(), a.shape_class.end(), a.shape_class[i]) -
                         a.shape_class.begin());
    mergeable |= coarsest[i] != i;
  }
  if (!mergeable)
    return a; // no aliasing is examined
  // Identifying grids only adds dependences: a nest refused alone is refused
  // under every aliasing.
  if (find_dependence(k))
    return a;
  // Two analyses in all (the nest, and which accesses the coarsest aliasing
  // makes meet) instead of one per aliasing.
  const std::set<std::pair<int, int>> conflicts = conflicting_pairs(k, a, coarsest);
  auto safe_under = [&](const std::vector<int> &label) {
    for (const auto &[g, h] : conflicts)
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

std::optional<Diagnostic> find_shared_storage(const Kernel &k) {
  struct Stores : IRVisitor {
    std::set<std::string> grids;
    void visit_store(const Store *s) override {
      grids.insert(s->grid);
      IRVisitor::visit_store(s);
    }
  } stores;
  stores.visit(k.body);
  for (const std::string &w : stores.grids) {
    auto shared = std::find_if(k.shared_storage.begin(), k.shared_storage.end(),
                               [&](const SharedStorage &s) { return s.grid == w; });
    if (shared == k.shared_storage.end())
      continue;
    for (const std::string &other : shared->names) {
      if (other == w || !k.find_arg(other))
        continue;
      return Diagnostic{shared->loc, "'" + w + "' and '" + other +
                                         "' share storage through EQUIVALENCE, and the "
                                         "'!$f2s stencil' region at line " +
                                         std::to_string(k.loc.line) + " writes '" + w +
                                         "' and uses '" + other +
                                         "', which the library would take as two arrays; use one "
                                         "of the names for both in the region"};
    }
  }
  return std::nullopt;
}

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
