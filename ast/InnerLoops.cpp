#include "ast/InnerLoops.h"

#include "ast/IRVisitor.h"

#include <algorithm>

namespace f2s {

std::optional<InnerLoop> first_inner_loop(const Kernel &k) {
  struct Scan : IRVisitor {
    const Kernel &k;
    std::vector<const For *> nest;
    std::optional<InnerLoop> first;
    explicit Scan(const Kernel &kk) : k(kk), nest(perfect_nest(kk.body)) {}
    void visit_for(const For *op) override {
      bool of_nest = std::find(nest.begin(), nest.end(), op) != nest.end();
      bool of_column = k.column && op->var == k.column->var;
      if (!of_nest && !of_column && !first)
        first = InnerLoop{op->var, op->loc};
      IRVisitor::visit_for(op);
    }
  } scan(k);
  scan.visit(k.body);
  return scan.first;
}

bool has_inner_loops(const Kernel &k) {
  return first_inner_loop(k).has_value();
}

bool has_point_bounds(const Kernel &k) {
  struct Reads : IRVisitor {
    const Kernel &k;
    bool found = false;
    explicit Reads(const Kernel &kk) : k(kk) {}
    void visit_var(const Var *op) override { found |= k.find_temp(op->name) != nullptr; }
    void visit_grid_ref(const GridRef *) override { found = true; }
  };
  struct Scan : IRVisitor {
    const Kernel &k;
    std::vector<const For *> nest;
    bool found = false;
    explicit Scan(const Kernel &kk) : k(kk), nest(perfect_nest(kk.body)) {}
    void visit_for(const For *op) override {
      bool of_nest = std::find(nest.begin(), nest.end(), op) != nest.end();
      bool of_column = k.column && op->var == k.column->var;
      if (!of_nest && !of_column) {
        Reads bounds(k);
        bounds.visit(op->lo);
        bounds.visit(op->hi);
        found |= bounds.found;
      }
      visit(op->body);
    }
  } scan(k);
  scan.visit(k.body);
  return scan.found;
}

} // namespace f2s
