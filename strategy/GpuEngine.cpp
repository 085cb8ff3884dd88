#include "strategy/GpuEngine.h"

#include "ast/InnerLoops.h"
#include "ast/Planes.h"
#include "transforms/CudaMapping.h"
#include "transforms/CudaPlaneSums.h"
#include "transforms/CudaStaging.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <set>

namespace f2s {

namespace {

Variant cuda_variant(int bx, int by, int px, int py, int sz, int sh = 0, int sum = 0) {
  Variant v;
  v.target = "cuda";
  v.name = (sz ? "stream" : "plain") + std::to_string(bx) + "x" + std::to_string(by);
  if (px > 1 || py > 1)
    v.name += "_p" + std::to_string(px) + "x" + std::to_string(py);
  if (sz)
    v.name += "_z" + std::to_string(sz);
  if (sh)
    v.name += "_shared";
  if (sum)
    v.name += "_sums";
  v.options = {{"bx", bx}, {"by", by}, {"px", px}, {"py", py}, {"sz", sz}, {"sh", sh}};
  if (sum)
    v.options["sum"] = 1;
  return v;
}

size_t add_variant(SearchSpace &space, const Variant &v) {
  for (size_t i = 0; i < space.variants.size(); ++i)
    if (space.variants[i].target == v.target && space.variants[i].name == v.name)
      return i;
  space.variants.push_back(v);
  return space.variants.size() - 1;
}

/// One combination of the CUDA parameters the engine considers.
struct Shape {
  int bx, by, px, py, sz, sh, sum;
};

/// Every combination: threads bx*by, points per thread px*py, z chunk sz
/// (0: the plain mapping), shared planes sh, plane sums sum.
std::vector<Shape> every_shape() {
  std::vector<Shape> all;
  for (int bx : {32, 64, 128, 256})
    for (int by : {1, 2, 4, 8, 16})
      for (int px : {1, 2})
        for (int py : {1, 2, 4})
          for (int sz : {0, 8, 16, 32, 64})
            for (int sh : {0, 1})
              for (int sum : {0, 1})
                all.push_back({bx, by, px, py, sz, sh, sum});
  return all;
}

int64_t ceil_div(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}

} // namespace

std::string CudaEnumeration::summary(size_t candidates) const {
  std::string s = std::to_string(candidates) + " CUDA candidates of " + std::to_string(considered) +
                  " considered";
  for (const auto &[why, n] : pruned)
    s += "; " + std::to_string(n) + " " + why;
  return s;
}

CudaEnumeration enumerate_cuda(SearchSpace &space, const Kernel &k, const KernelFacts &facts,
                               const std::vector<int64_t> &extents, const GpuEngineOptions &o) {
  CudaEnumeration e;
  assert(o.gpu && "the CUDA engine needs a GPU model");
  const GpuModel &gpu = *o.gpu;
  // With an ordered loop the threads cover the free loops only (map_cuda);
  // the axes below are theirs.
  std::vector<int64_t> free_extents = extents;
  if (k.ordered) {
    std::vector<const For *> nest = perfect_nest(k.body);
    for (size_t l = 0; l < nest.size(); ++l)
      if (nest[l]->var == k.ordered->var)
        free_extents.erase(free_extents.begin() + (nest.size() - 1 - l));
  }
  const size_t depth = free_extents.size();
  int64_t ex = free_extents[0], ey = depth > 1 ? free_extents[1] : 1,
          ez = depth > 2 ? free_extents[2] : 1;
  int64_t hx = facts.halo.size() > 0 ? facts.halo[0] : 0;
  int64_t hy = facts.halo.size() > 1 ? facts.halo[1] : 0;
  int64_t hz = facts.halo.size() > 2 ? facts.halo[2] : 0;
  // Loads per point bound the registers a point needs (a guess the pruning
  // only uses to drop shapes that cannot be resident at all).
  int64_t reads = 0;
  for (const auto &[grid, fp] : facts.footprint)
    reads += static_cast<int64_t>(fp.reads.size());

  struct Scored {
    Variant v;
    double cost;
  };
  std::vector<Scored> kept;
  auto prune = [&](const std::string &why) { ++e.pruned[why]; };

  // Plane sums (transforms/CudaPlaneSums) where the stencil is a weighted
  // sum of one grid whose planes share many terms (the 27-point box).
  const bool sums_pay = o.reassociate && depth == 3 && plane_sums_pay(k);
  const bool planes = has_planes(k);
  const bool inner_loops = has_inner_loops(k);
  for (const Shape &shape : every_shape()) {
    const auto [bx, by, px, py, sz, sh, sum] = shape;
    ++e.considered;
    // Staging, streams and plane sums read every subscript as a loop
    // variable plus a constant; a plane at a run-time position is not one.
    if (planes && (sz || sh || sum)) {
      prune("z streams, staging or plane sums of a nest with planes at run-time positions");
      continue;
    }
    // A loop inside the point with a run-time trip count (ast/InnerLoops):
    // its window is no constant halo to stage, and the points of a thread
    // would each run it; one point per thread, unstaged.
    if (inner_loops && (sz || sh || sum || px > 1 || py > 1)) {
      prune("z streams, staging, plane sums or points per thread of a nest with a loop inside "
            "the point");
      continue;
    }
    if (k.ordered && (sz || sh || sum)) {
      prune("z streams, staging or plane sums of a nest with an ordered loop");
      continue;
    }
    // A column runs its levels in order in one thread, the work arrays its own.
    if (k.column && (sz || sh || sum)) {
      prune("z streams, staging or plane sums of a column nest");
      continue;
    }
    if (sh && !sz) {
      prune("shared-memory planes without a z stream");
      continue;
    }
    if (sum && !sums_pay) {
      prune("plane sums that do not apply or pay");
      continue;
    }
    if (sum && (!sz || sh || px > 1 || py > 1)) {
      prune("plane sums without a one-point z stream");
      continue;
    }
    int threads = bx * by;
    if (depth < 2 && (by > 1 || py > 1)) {
      prune("no y axis");
      continue;
    }
    if (depth < 3 && sz) {
      prune("no z axis to stream");
      continue;
    }
    if (threads > std::min(1024, gpu.max_threads_block) || threads < 2 * gpu.warp) {
      prune("block outside 2 warps to the thread limit");
      continue;
    }
    if (bx % gpu.warp) {
      prune("x not a multiple of the warp");
      continue;
    }
    int64_t tile_x = int64_t(bx) * px, tile_y = int64_t(by) * py;
    if ((tile_x > ex && bx > gpu.warp) || (px > 1 && tile_x > ex) || (py > 1 && tile_y > ey) ||
        (by > 1 && tile_y > 2 * ey) || sz > ez) {
      prune("tile wider than the axis");
      continue;
    }
    int64_t blocks = ceil_div(ex, tile_x) * ceil_div(ey, tile_y) * (sz ? ceil_div(ez, sz) : ez);
    if (blocks < 2 * gpu.sms) {
      prune("too few blocks for the multiprocessors");
      continue;
    }
    // Seed 002's greedy buffering choice for this tile: which grids
    // are staged in shared memory, and how much that takes.
    int64_t smem = 0;
    double staged_reads = 0;
    if (!k.reductions.empty())
      smem = reduction_shared_bytes(map_cuda(k, {bx, by, px, py, sz}));
    if (sh) {
      Kernel mapped = map_cuda(k, {bx, by, px, py, sz});
      std::vector<std::string> grids = choose_shared_grids(mapped, kStaticSharedBytes);
      if (grids.empty()) {
        prune("no grid worth staging in shared memory");
        continue;
      }
      smem += shared_bytes(mapped, grids);
      for (const std::string &g : grids)
        staged_reads += double(facts.footprint.at(g).reads.size());
    }
    int64_t regs = 32 + 2 * px * py * std::min<int64_t>(reads, 16);
    int64_t resident =
        std::min<int64_t>(gpu.max_threads_sm / threads, gpu.regs_per_sm / (regs * threads));
    if (smem && gpu.smem_per_sm)
      resident = std::min<int64_t>(resident, gpu.smem_per_sm / smem);
    if (resident < 1) {
      prune(smem ? "more shared memory than a multiprocessor has"
                 : "more registers than a multiprocessor has");
      continue;
    }
    // Traffic: halo planes re-read per z chunk, and the tile's x/y
    // halo mostly served by L2 (weighted down accordingly).
    double z_over = sz ? double(sz + 2 * hz) / sz : 1.0 + 0.05 * hz;
    double xy_over = double((tile_x + 2 * hx) * (tile_y + 2 * hy)) / double(tile_x * tile_y);
    double traffic = z_over * (1.0 + 0.1 * (xy_over - 1.0));
    double waves = double(blocks) / double(gpu.sms * resident);
    double wave_eff = waves / std::ceil(waves);
    // Occupancy below half the SM leaves latency unhidden.
    double occ = double(resident * threads) / gpu.max_threads_sm;
    double occ_eff = std::min(1.0, occ / 0.5);
    // Loads through L1 per point: a staged grid's neighbours come
    // from shared memory instead (weighted as a small saving).
    // Plane sums load each plane's in-plane values once (a third
    // of a box's loads).
    double l1 = (sum ? double(reads) / 3 : double(reads)) - 0.5 * staged_reads;
    double issue = 1.0 + 0.01 * std::max(0.0, l1);
    kept.push_back(
        {cuda_variant(bx, by, px, py, sz, sh, sum), issue * traffic / (wave_eff * occ_eff)});
  }

  std::stable_sort(kept.begin(), kept.end(),
                   [](const Scored &a, const Scored &b) { return a.cost < b.cost; });
  // The best plain mappings compete too: they are what a straightforward
  // port would be, and the tuner must show it beats them.
  // Likewise the best shared-memory stagings: the model cannot rank L1
  // against shared-memory throughput well, so measuring decides.
  // And the best unstaged z streams with one point per thread, whose planes
  // along the thread's own column stay in registers (the register pipeline):
  // the model does not credit the loads that saves.
  size_t plain_slots = 3, taken = 0, plain_taken = 0, staged_slots = 3, staged_taken = 0;
  size_t piped_slots = depth == 3 ? 2 : 0, piped_taken = 0;
  // And the best plane sums, which the model cannot rank against loads
  // either, one per chunk length: the model favours long chunks (fewer halo
  // planes), but on an H100 the box ran fastest with 32-plane chunks of a
  // 64x4 block (bench/gpu/probe_accumulate.cu), where more columns are in
  // flight.
  size_t summed_slots = sums_pay ? 3 : 0, summed_taken = 0;
  std::set<int> summed_chunks;
  std::vector<Variant> chosen;
  for (const Scored &s : kept) {
    if (o.max_candidates == kAllCandidates) {
      chosen.push_back(s.v);
      continue;
    }
    bool one_point = s.v.options.at("px") == 1 && s.v.options.at("py") == 1;
    bool plain = s.v.options.at("sz") == 0 && one_point;
    bool staged = s.v.options.at("sh") != 0;
    bool summed = s.v.options.count("sum") > 0;
    bool piped = s.v.options.at("sz") != 0 && !staged && !summed && one_point;
    if (summed) {
      if (summed_taken < summed_slots && summed_chunks.insert(s.v.options.at("sz")).second) {
        chosen.push_back(s.v);
        ++summed_taken;
      } else {
        prune("ranked below the measuring budget by the model");
      }
    } else if (plain && plain_taken < plain_slots) {
      chosen.push_back(s.v);
      ++plain_taken;
    } else if (staged && staged_taken < staged_slots) {
      chosen.push_back(s.v);
      ++staged_taken;
    } else if (piped && piped_taken < piped_slots) {
      chosen.push_back(s.v);
      ++piped_taken;
    } else if (!plain && !staged &&
               taken + plain_slots + staged_slots + piped_slots + summed_slots < o.max_candidates) {
      chosen.push_back(s.v);
      ++taken;
    } else {
      prune("ranked below the measuring budget by the model");
    }
  }
  for (const Variant &v : chosen) {
    Candidate c;
    c.variant = add_variant(space, v);
    space.candidates.push_back(c);
  }
  Candidate d = default_cuda_candidate(space);
  bool have_default = false;
  for (const Candidate &c : space.candidates)
    have_default = have_default || c.variant == d.variant;
  if (!have_default)
    space.candidates.push_back(d);
  return e;
}

Candidate default_cuda_candidate(SearchSpace &space) {
  Candidate c;
  c.variant = add_variant(space, cuda_variant(32, 8, 1, 1, 0));
  return c;
}

} // namespace f2s
