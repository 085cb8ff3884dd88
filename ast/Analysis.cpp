#include "ast/Analysis.h"

#include "ast/IRPrinter.h"
#include "ast/IRVisitor.h"

#include <algorithm>
#include <cstdlib>

namespace f2s {

namespace {

Offset offset_of(const std::vector<Index> &index) {
  Offset off;
  for (const Index &ix : index)
    off.push_back(ix.var.empty() ? 0 : ix.offset);
  return off;
}

/// Collects grid accesses and counts flops in the statements at a point.
class AccessCollector : public IRVisitor {
public:
  std::map<std::string, GridFootprint> footprint;
  std::set<std::string> always_written;
  int64_t flops = 0;

protected:
  void visit_grid_ref(const GridRef *op) override {
    footprint[op->grid].reads.insert(offset_of(op->index));
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
  // Loop bounds are integer work, not part of the point's computation.
  void visit_for(const For *op) override { visit(op->body); }

private:
  int conditional_ = 0;
};

} // namespace

KernelFacts analyze(const Kernel &k) {
  KernelFacts facts;
  for (const For *f : perfect_nest(k.body))
    facts.loop_vars.insert(facts.loop_vars.begin(), f->var);

  AccessCollector collect;
  collect.visit(k.body);
  facts.footprint = std::move(collect.footprint);
  facts.flops = collect.flops;

  facts.halo.assign(facts.loop_vars.size(), 0);
  for (const Variable &v : k.args) {
    auto it = facts.footprint.find(v.name);
    if (!v.is_grid() || it == facts.footprint.end())
      continue;
    const GridFootprint &fp = it->second;
    int bytes = type_bytes(v.type);
    if (!fp.reads.empty()) {
      facts.read_set.push_back(v.name);
      facts.read_bytes += bytes;
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
  }

  // A grid dimension belongs to the loop whose variable subscripts it.
  class HaloByLoop : public IRVisitor {
  public:
    KernelFacts &facts;
    explicit HaloByLoop(KernelFacts &f) : facts(f) {}

  protected:
    void visit_grid_ref(const GridRef *op) override {
      for (const Index &ix : op->index) {
        auto it = std::find(facts.loop_vars.begin(), facts.loop_vars.end(), ix.var);
        if (it == facts.loop_vars.end())
          continue;
        int64_t &h = facts.halo[it - facts.loop_vars.begin()];
        h = std::max(h, std::abs(ix.offset));
      }
    }
  } halo_by_loop(facts);
  halo_by_loop.visit(k.body);
  return facts;
}

} // namespace f2s
