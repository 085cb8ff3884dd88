#include "ast/Planes.h"

#include "ast/IRPrinter.h"
#include "ast/IRVisitor.h"

#include <algorithm>
#include <map>
#include <vector>

namespace f2s {

namespace {

struct Access {
  std::vector<Index> index;
  bool write = false;
  SourceLoc loc;
};

/// Every grid access of the nest, per grid in source order (a store after
/// the reads of its value, as it happens).
class Accesses : public IRVisitor {
public:
  std::map<std::string, std::vector<Access>> of;
  std::vector<std::string> order; ///< grids by first access

protected:
  void visit_grid_ref(const GridRef *op) override { add(op->grid, {op->index, false, op->loc}); }
  void visit_store(const Store *op) override {
    IRVisitor::visit_store(op);
    add(op->grid, {op->index, true, op->loc});
  }

private:
  void add(const std::string &g, Access a) {
    auto &list = of[g];
    if (list.empty())
      order.push_back(g);
    list.push_back(std::move(a));
  }
};

bool at_runtime(const std::vector<Index> &index) {
  return std::any_of(index.begin(), index.end(), [](const Index &ix) { return ix.at_runtime(); });
}

/// At a plane proper (Index::is_plane), not only at an offset of a loop
/// variable by a scalar.
bool at_plane(const std::vector<Index> &index) {
  return std::any_of(index.begin(), index.end(), [](const Index &ix) { return ix.is_plane(); });
}

} // namespace

std::set<std::string> grids_at_planes(const Kernel &k) {
  Accesses scan;
  scan.visit(k.body);
  std::set<std::string> out;
  for (const auto &[g, list] : scan.of)
    for (const Access &a : list)
      if (at_runtime(a.index))
        out.insert(g);
  return out;
}

std::optional<PlaneAccess> first_plane(const Kernel &k) {
  Accesses scan;
  scan.visit(k.body);
  std::optional<PlaneAccess> first;
  for (const auto &[g, list] : scan.of)
    for (const Access &a : list)
      for (const Index &ix : a.index)
        if (ix.at_runtime() &&
            (!first || a.loc.line < first->loc.line ||
             (a.loc.line == first->loc.line && a.loc.column < first->loc.column)))
          first = PlaneAccess{g, print_index(ix), a.loc, ix.is_plane()};
  return first;
}

std::optional<Diagnostic> find_plane_in_sweep(const Kernel &sweep) {
  std::optional<PlaneAccess> plane = first_plane(sweep);
  if (!plane)
    return std::nullopt;
  return Diagnostic{plane->loc, "'" + plane->grid + "' is accessed at '" + plane->subscript +
                                    "', " + (plane->plane ? "a plane" : "an offset") +
                                    " at a run-time position, which a sweep of a "
                                    "'!$f2s stencil timesteps' loop cannot hold; annotate each "
                                    "nest of the loop with a '!$f2s stencil' of its own, without "
                                    "TIMESTEPS"};
}

bool has_planes(const Kernel &k) {
  return !grids_at_planes(k).empty();
}

std::optional<Diagnostic> plane_conflict(const Kernel &k) {
  std::vector<std::string> loops;
  for (const For *f : perfect_nest(k.body))
    loops.push_back(f->var);
  Accesses scan;
  scan.visit(k.body);
  for (const std::string &g : scan.order) {
    const std::vector<Access> &list = scan.of.at(g);
    auto plane =
        std::find_if(list.begin(), list.end(), [](const Access &a) { return at_plane(a.index); });
    auto write = std::find_if(list.begin(), list.end(), [](const Access &a) { return a.write; });
    if (plane == list.end() || write == list.end())
      continue;
    std::string sym;
    for (const Index &ix : plane->index)
      if (ix.is_plane())
        sym = ix.sym;
    std::string why = "; as '" + g + "' is also accessed at a run-time position ('" + sym +
                      "'), every access of it must have the same subscript in each dimension "
                      "that a loop variable subscripts, so that each point touches its own "
                      "elements";
    // The loop dimensions: those some access subscripts by a loop variable.
    std::vector<size_t> loop_dims;
    for (size_t d = 0; d < write->index.size(); ++d)
      if (std::any_of(list.begin(), list.end(),
                      [&](const Access &a) { return !a.index[d].var.empty(); }))
        loop_dims.push_back(d);
    for (const std::string &v : loops)
      if (std::none_of(write->index.begin(), write->index.end(),
                       [&](const Index &ix) { return ix.var == v; }))
        return Diagnostic{write->loc, "'" + g + "' is written at " + print_access(write->index, k) +
                                          " by every point of the DO loop over '" + v +
                                          "', so the result depends on the loop order" + why};
    for (const Access &a : list) {
      for (size_t d : loop_dims) {
        const Index &w = write->index[d], &o = a.index[d];
        if (w == o)
          continue;
        // An offset at a run-time position (`f(1, j + k0)`) is isl's to
        // decide (ast/LoopDependences, the scalar a parameter), which names
        // the dependence it finds rather than this rule's shape.
        if ((w.at_runtime() && !w.is_plane()) || (o.at_runtime() && !o.is_plane()))
          continue;
        std::string loop = !w.var.empty() ? w.var : o.var;
        std::string what =
            a.write ? "'" + g + "' is written at " + print_access(write->index, k) +
                          " by one point and at " + print_access(a.index, k) + " by another"
                    : "'" + g + "' is written at " + print_access(write->index, k) +
                          " and read at " + print_access(a.index, k) + " in the same sweep";
        return Diagnostic{a.loc, what + ", which points of the DO loop over '" + loop +
                                     "' may reach from different iterations, so the result "
                                     "depends on the loop order" +
                                     why};
      }
    }
  }
  return std::nullopt;
}

} // namespace f2s
