#include "ast/Aliasing.h"

#include "ast/Analysis.h"
#include "ast/Dependence.h"
#include "ast/IRVisitor.h"

#include <algorithm>
#include <deque>
#include <set>

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

Aliasing analyze_aliasing(const Kernel &k) {
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
  std::vector<int> identity(n);
  for (int i = 0; i < n; ++i)
    identity[i] = i;
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
        std::map<std::string, std::string> same_as;
        for (int i = 0; i < n; ++i)
          if (merged[i] != i)
            same_as[a.grids[i]] = a.grids[merged[i]];
        if (!find_dependence(identify_grids(k, same_as)))
          a.safe.push_back(merged);
      }
    }
  }
  std::sort(a.safe.begin(), a.safe.end());
  return a;
}

} // namespace f2s
