#include "transforms/CudaStaging.h"

#include "ast/IRVisitor.h"

#include <algorithm>
#include <cassert>
#include <map>
#include <set>

namespace f2s {

namespace {

/// What staging needs to know of a streamed mapping: the tile and the names
/// of the point loops (x, y, z).
struct StreamShape {
  bool streamed = false;
  int64_t tile[2] = {0, 0};
  std::string var[3];
};

StreamShape stream_shape(const Kernel &k) {
  StreamShape s;
  const For *block[3] = {nullptr, nullptr, nullptr};
  const For *stream = nullptr;
  std::vector<const For *> nest = perfect_nest(k.body);
  for (size_t i = 0; i < nest.size(); ++i) {
    const For *f = nest[i];
    if (f->exec == LoopExec::CudaBlockX)
      block[0] = f;
    else if (f->exec == LoopExec::CudaBlockY)
      block[1] = f;
    else if (f->exec == LoopExec::CudaBlockZ)
      block[2] = f;
    else if (f->exec == LoopExec::Serial && i > 0 && nest[i - 1]->exec == LoopExec::CudaThreadX)
      stream = f;
  }
  if (!block[0] || !block[1] || !block[2] || !stream)
    return s;
  // The two unrolled point loops (y, then x) follow the stream loop.
  auto it = std::find(nest.begin(), nest.end(), stream);
  if (nest.end() - it < 3)
    return s;
  for (int a = 0; a < 2; ++a) {
    const IntImm *step = as<IntImm>(block[a]->step);
    const IntImm *unit = as<IntImm>(it[2 - a]->step);
    if (!step || !unit)
      return s;
    s.tile[a] = step->value;
  }
  const IntImm *zstep = as<IntImm>(stream->step);
  if (!zstep || zstep->value != 1)
    return s;
  s.var[0] = it[2]->var;
  s.var[1] = it[1]->var;
  s.var[2] = stream->var;
  // Points of a tile are unit steps apart only when the loops were.
  const IntImm *xs = as<IntImm>(it[2]->step), *ys = as<IntImm>(it[1]->step);
  int64_t tx = 0, ty = 0;
  for (const For *f : nest) {
    if (f->exec == LoopExec::CudaThreadX)
      tx = as<IntImm>(f->hi)->value + 1;
    if (f->exec == LoopExec::CudaThreadY)
      ty = as<IntImm>(f->hi)->value + 1;
  }
  s.streamed = xs->value == tx && ys->value == ty;
  return s;
}

/// How the kernel reads and writes each grid.
struct Uses : IRVisitor {
  std::set<std::string> written;
  std::map<std::string, std::vector<std::vector<Index>>> reads;
  void visit_grid_ref(const GridRef *g) override { reads[g->grid].push_back(g->index); }
  void visit_store(const Store *s) override {
    written.insert(s->grid);
    IRVisitor::visit_store(s);
  }
};

/// The planes of `grid` as staging would keep them, if it can be staged:
/// read only, rank 3, every subscript the loop point plus a constant.
std::optional<SharedPlanes> planes_of(const StreamShape &s, const Uses &uses,
                                      const std::string &grid) {
  auto it = uses.reads.find(grid);
  if (!s.streamed || uses.written.count(grid) || it == uses.reads.end())
    return std::nullopt;
  SharedPlanes p;
  p.grid = grid;
  p.corners = false;
  bool first = true;
  for (const std::vector<Index> &ix : it->second) {
    if (ix.size() != 3)
      return std::nullopt;
    for (int a = 0; a < 3; ++a) {
      if (ix[a].var != s.var[a] || ix[a].coeff != 1)
        return std::nullopt;
      p.lo[a] = first ? ix[a].offset : std::min(p.lo[a], ix[a].offset);
      p.hi[a] = first ? ix[a].offset : std::max(p.hi[a], ix[a].offset);
    }
    first = false;
    p.corners = p.corners || (ix[0].offset != 0 && ix[1].offset != 0);
  }
  return p;
}

int64_t plane_bytes(const StreamShape &s, const SharedPlanes &p, const Kernel &k) {
  const Variable *v = k.find_arg(p.grid);
  int64_t elem = v && v->type == Type::Float32 ? 4 : 8;
  int64_t planes = p.hi[2] - p.lo[2] + 2;
  return planes * (s.tile[1] + p.hi[1] - p.lo[1]) * (s.tile[0] + p.hi[0] - p.lo[0]) * elem;
}

} // namespace

int64_t shared_bytes(const Kernel &k, const std::vector<std::string> &grids) {
  StreamShape s = stream_shape(k);
  Uses uses;
  uses.visit(k.body);
  int64_t total = 0;
  for (const std::string &g : grids)
    if (auto p = planes_of(s, uses, g))
      total += plane_bytes(s, *p, k);
  return total;
}

int64_t reduction_shared_bytes(const Kernel &k) {
  int64_t threads = 1;
  for (const For *f : perfect_nest(k.body))
    if (f->exec == LoopExec::CudaThreadX || f->exec == LoopExec::CudaThreadY)
      if (const IntImm *hi = as<IntImm>(f->hi))
        threads *= hi->value + 1;
  int64_t bytes = 0;
  for (const Reduction &r : k.reductions)
    bytes += threads * type_bytes(r.type);
  return bytes;
}

std::vector<std::string> choose_shared_grids(const Kernel &k, int64_t budget_bytes) {
  // The block's reduction tree shares the static limit with the planes.
  budget_bytes -= reduction_shared_bytes(k);
  StreamShape s = stream_shape(k);
  Uses uses;
  uses.visit(k.body);
  struct Choice {
    std::string grid;
    size_t neighbour_reads;
    int64_t bytes;
  };
  std::vector<Choice> choices;
  for (const Variable &v : k.args) {
    auto p = planes_of(s, uses, v.name);
    if (!p)
      continue;
    // Distinct reads off the point's own column: what L1/L2 would otherwise
    // serve once per point. The column itself streams well from DRAM.
    std::set<std::vector<int64_t>> in_plane, off_column;
    for (const std::vector<Index> &ix : uses.reads.at(v.name)) {
      in_plane.insert({ix[0].offset, ix[1].offset});
      if (ix[0].offset || ix[1].offset)
        off_column.insert({ix[0].offset, ix[1].offset, ix[2].offset});
    }
    if (in_plane.size() >= 3)
      choices.push_back({v.name, off_column.size(), plane_bytes(s, *p, k)});
  }
  std::stable_sort(choices.begin(), choices.end(), [](const Choice &a, const Choice &b) {
    return a.neighbour_reads > b.neighbour_reads;
  });
  std::vector<std::string> chosen;
  int64_t used = 0;
  for (const Choice &c : choices)
    if (used + c.bytes <= budget_bytes) {
      chosen.push_back(c.grid);
      used += c.bytes;
    }
  return chosen;
}

Kernel pipeline_columns(const Kernel &k) {
  StreamShape s = stream_shape(k);
  // A column's planes that the nest writes as it goes would be stale in registers.
  if (!s.streamed || k.ordered || k.column)
    return k;
  // One point per thread: the point loops' steps span the whole tile.
  for (const For *f : perfect_nest(k.body))
    if (f->exec == LoopExec::CudaThreadX || f->exec == LoopExec::CudaThreadY) {
      int64_t threads = as<IntImm>(f->hi)->value + 1;
      if (s.tile[f->exec == LoopExec::CudaThreadX ? 0 : 1] != threads)
        return k;
    }
  Uses uses;
  uses.visit(k.body);
  Kernel out = k;
  for (const Variable &v : k.args) {
    bool staged = false;
    for (const SharedPlanes &p : k.shared_planes)
      staged = staged || p.grid == v.name;
    if (staged || !planes_of(s, uses, v.name))
      continue;
    // The planes read on the point's own column; reads beside it stay loads
    // (from L1 or L2: the neighbouring threads load the same planes).
    std::set<int64_t> planes;
    for (const std::vector<Index> &ix : uses.reads.at(v.name))
      if (ix[0].offset == 0 && ix[1].offset == 0)
        planes.insert(ix[2].offset);
    if (planes.size() >= 2)
      out.register_columns.push_back({v.name, *planes.begin(), *planes.rbegin()});
  }
  return out;
}

Kernel stage_planes(const Kernel &k, const std::vector<std::string> &grids) {
  StreamShape s = stream_shape(k);
  assert(s.streamed && "staging needs a streamed CUDA mapping with unit steps");
  Uses uses;
  uses.visit(k.body);
  Kernel out = k;
  for (const std::string &g : grids) {
    auto p = planes_of(s, uses, g);
    assert(p && "only read-only grids read at the point plus constants can be staged");
    out.shared_planes.push_back(*p);
  }
  return out;
}

} // namespace f2s
