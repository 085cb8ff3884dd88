#include "ast/Analysis.h"

#include "ast/IRPrinter.h"
#include "ast/IRVisitor.h"

#include <algorithm>
#include <climits>
#include <cstdlib>

namespace f2s {

namespace {

Offset offset_of(const std::vector<Index> &index) {
  Offset off;
  for (const Index &ix : index)
    off.push_back(ix.var.empty() ? 0 : ix.offset);
  return off;
}

/// The subscripts one grid is accessed at, per dimension: the largest
/// factor of a loop variable and the offsets.
struct Spread {
  int64_t factor = 1;
  std::set<int64_t> offsets;
};

/// Collects grid accesses and counts flops in the statements at a point.
class AccessCollector : public IRVisitor {
public:
  explicit AccessCollector(const std::vector<std::string> &loop_vars) : loop_vars_(loop_vars) {}
  std::map<std::string, GridFootprint> footprint;
  std::map<std::string, std::vector<Spread>> spread;
  /// Per grid, the accesses that use every loop variable, grouped by their
  /// constant subscripts (kVaries where a loop variable subscripts the
  /// dimension): the element groups each point costs in traffic.
  static constexpr int64_t kVaries = INT64_MIN;
  static constexpr int64_t kPlane = INT64_MIN + 1;
  std::map<std::string, std::map<std::vector<int64_t>, std::vector<Spread>>> traffic;
  std::set<std::string> always_written;
  int64_t flops = 0;

protected:
  void note(const std::string &grid, const std::vector<Index> &index) {
    std::vector<Spread> &s = spread[grid];
    s.resize(std::max(s.size(), index.size()));
    for (size_t d = 0; d < index.size(); ++d) {
      if (!index[d].var.empty())
        s[d].factor = std::max(s[d].factor, std::abs(index[d].coeff));
      s[d].offsets.insert(index[d].offset);
    }
    // Traffic: accesses that differ in a constant subscript (`coef(i,j,k,1)`
    // and `coef(i,j,k,3)`) touch different elements at every point; an access
    // that lacks a loop variable touches one element for all the points along
    // that loop, which stay in cache (a profile `dz(k)` costs nothing per
    // point next to the grids of the nest).
    std::vector<int64_t> fixed;
    std::set<std::string> vars;
    for (const Index &ix : index) {
      fixed.push_back(ix.var.empty() ? ix.offset : kVaries);
      // A plane at a run-time position (Index::sym) is another element
      // group than the constant plane of the same offset.
      if (ix.at_runtime())
        fixed.push_back(kPlane);
      if (!ix.var.empty())
        vars.insert(ix.var);
    }
    if (vars.size() < loop_vars_.size())
      return;
    std::vector<Spread> &t = traffic[grid][fixed];
    t.resize(index.size());
    for (size_t d = 0; d < index.size(); ++d) {
      t[d].factor = std::max(t[d].factor, std::abs(index[d].coeff));
      t[d].offsets.insert(index[d].offset);
    }
  }
  void visit_grid_ref(const GridRef *op) override {
    footprint[op->grid].reads.insert(offset_of(op->index));
    note(op->grid, op->index);
  }
  void visit_binary(const Binary *op) override {
    IRVisitor::visit_binary(op);
    if (!is_float(op->type))
      return;
    if (op->b->kind == ExprKind::IntImm && op->op == BinaryOp::Pow) {
      int64_t n = std::abs(as<IntImm>(op->b)->value);
      flops += std::max<int64_t>(n - 1, 0) + (as<IntImm>(op->b)->value < 0 ? 1 : 0);
      return;
    }
    flops += 1;
  }
  void visit_call(const Call *op) override {
    IRVisitor::visit_call(op);
    if (!is_float(op->type))
      return;
    bool is_minmax = op->fn == Intrinsic::Min || op->fn == Intrinsic::Max;
    flops += is_minmax ? static_cast<int64_t>(op->args.size()) - 1 : 1;
  }
  void visit_store(const Store *op) override {
    IRVisitor::visit_store(op);
    footprint[op->grid].writes.insert(offset_of(op->index));
    note(op->grid, op->index);
    if (!conditional_)
      always_written.insert(op->grid);
  }
  void visit_if(const IfThenElse *op) override {
    visit(op->cond);
    ++conditional_;
    visit(op->then_case);
    if (op->else_case)
      visit(op->else_case);
    --conditional_;
  }
  // Loop bounds are integer work, no flops; but a loop inside the point
  // bounded by an array element (`do k = 1, kmt(i, j)`) reads the grid.
  void visit_for(const For *op) override {
    visit(op->lo);
    visit(op->hi);
    visit(op->body);
  }

private:
  const std::vector<std::string> &loop_vars_;
  int conditional_ = 0;
};

/// How many elements of a grid one point of the nest costs in traffic: 1
/// for subscripts i + o. A factor c along x (`r(2*i + o)`) fetches every
/// cache line between the points' elements, c elements per point; along
/// another dimension only the rows (planes) the offsets pick out of each c
/// are fetched. A multigrid restriction reads 8 fine elements per coarse
/// point, an interpolation writes 8.
int64_t elements_per_point(const std::vector<Spread> &spread) {
  int64_t n = 1;
  for (size_t d = 0; d < spread.size(); ++d) {
    const Spread &s = spread[d];
    if (d == 0) {
      n *= s.factor;
      continue;
    }
    std::set<int64_t> rows;
    for (int64_t o : s.offsets)
      rows.insert(((o % s.factor) + s.factor) % s.factor);
    n *= static_cast<int64_t>(rows.size());
  }
  return n;
}

/// How far, in points of its loop, a grid dimension subscripted c*v + o
/// with |c| > 1 reaches into the neighbouring points' elements: point v owns
/// |c| elements, and the accesses span max(o) - min(o) + 1 of them, so
/// neighbours share the difference, half on each side (restriction's
/// 2*i - 1 .. 2*i + 1: one element, one point; interpolation's 2*i and
/// 2*i + 1: none).
int64_t scaled_halo(const Spread &s) {
  int64_t span = *s.offsets.rbegin() - *s.offsets.begin() + 1;
  int64_t shared = std::max<int64_t>(span - s.factor, 0);
  return (shared + 2 * s.factor - 1) / (2 * s.factor);
}

} // namespace

KernelFacts analyze(const Kernel &k) {
  KernelFacts facts;
  for (const For *f : perfect_nest(k.body))
    facts.loop_vars.insert(facts.loop_vars.begin(), f->var);

  AccessCollector collect(facts.loop_vars);
  collect.visit(k.body);
  facts.footprint = std::move(collect.footprint);
  facts.flops = collect.flops;

  facts.halo.assign(facts.loop_vars.size(), 0);
  for (const Variable &v : k.args) {
    auto it = facts.footprint.find(v.name);
    if (!v.is_grid() || it == facts.footprint.end())
      continue;
    const GridFootprint &fp = it->second;
    int64_t elements = 0;
    for (const auto &[fixed, spread] : collect.traffic[v.name])
      elements += elements_per_point(spread);
    int64_t bytes = type_bytes(v.type) * elements;
    if (!fp.reads.empty()) {
      facts.read_set.push_back(v.name);
      facts.read_bytes += bytes;
      if (elements == 0)
        facts.reused.insert(v.name);
    }
    if (!fp.writes.empty()) {
      facts.write_set.push_back(v.name);
      if (!collect.always_written.count(v.name))
        facts.conditional_write_set.push_back(v.name);
      facts.write_bytes += bytes;
      if (fp.reads.empty())
        facts.write_allocate_bytes += bytes;
    }
    std::vector<int64_t> &gh = facts.grid_halo[v.name];
    gh.assign(v.dims.size(), 0);
    for (const Offset &off : fp.reads)
      for (size_t d = 0; d < off.size() && d < gh.size(); ++d)
        gh[d] = std::max(gh[d], std::abs(off[d]));
    const std::vector<Spread> &spread = collect.spread.at(v.name);
    for (size_t d = 0; d < gh.size() && d < spread.size(); ++d)
      if (spread[d].factor > 1)
        gh[d] = fp.reads.empty() ? 0 : scaled_halo(spread[d]);
  }

  // A grid dimension belongs to the loop whose variable subscripts it.
  class HaloByLoop : public IRVisitor {
  public:
    KernelFacts &facts;
    const std::map<std::string, std::vector<Spread>> &spread;
    HaloByLoop(KernelFacts &f, const std::map<std::string, std::vector<Spread>> &s)
        : facts(f), spread(s) {}

  protected:
    void visit_grid_ref(const GridRef *op) override {
      for (size_t d = 0; d < op->index.size(); ++d) {
        const Index &ix = op->index[d];
        auto it = std::find(facts.loop_vars.begin(), facts.loop_vars.end(), ix.var);
        if (it == facts.loop_vars.end())
          continue;
        int64_t &h = facts.halo[it - facts.loop_vars.begin()];
        const Spread &s = spread.at(op->grid)[d];
        h = std::max(h, s.factor > 1 ? scaled_halo(s) : std::abs(ix.offset));
      }
    }
  } halo_by_loop(facts, collect.spread);
  halo_by_loop.visit(k.body);
  return facts;
}

} // namespace f2s
