#include "strategy/TimeTileSpace.h"

#include "strategy/MachineModel.h"

#include <algorithm>
#include <cmath>

namespace f2s {

namespace {

/// The candidate's model figures.
TimeTileCandidate model(const TimeTilePlan &p, const TimeTileSpaceInput &in,
                        std::vector<long> tune) {
  TimeTileCandidate c;
  c.tune = std::move(tune);
  const long T = c.tune[0];
  double tile_points = 1, held_points = 1;
  for (int d = 0; d < p.rank; ++d) {
    double b = static_cast<double>(std::min<int64_t>(c.tune[1 + d], in.extents[d]));
    tile_points *= b;
    held_points *= b + static_cast<double>(T * (p.reach_lo[d] + p.reach_hi[d]));
  }
  int64_t state_bytes = 0;
  for (int b : in.element_bytes)
    state_bytes += b;
  c.buffer_bytes = static_cast<int64_t>(held_points) * state_bytes;
  // A chunk reads each held point of every state grid and writes the tile's
  // own (with its write-allocate read), once per T steps.
  c.bytes_per_point_step =
      (held_points / tile_points * static_cast<double>(state_bytes) + 2.0 * state_bytes) /
      static_cast<double>(T);
  // Stage q computes about the tile widened by the reach still ahead: on
  // average half the chunk's halo.
  double mid_points = 1;
  for (int d = 0; d < p.rank; ++d) {
    double b = static_cast<double>(std::min<int64_t>(c.tune[1 + d], in.extents[d]));
    mid_points *= b + static_cast<double>(T * (p.reach_lo[d] + p.reach_hi[d])) / 2.0;
  }
  c.redundancy = mid_points / tile_points;
  return c;
}

/// The cache a thread's tile lives in: the level beyond L1, per core.
int64_t thread_cache(const CpuModel &machine) {
  int64_t cache = machine.cache_bytes_per_core(2);
  if (cache <= 0)
    cache = machine.cache_bytes_per_core(1);
  return cache > 0 ? cache : 256 * 1024;
}

/// A streaming candidate's model figures: the overlapped tile's over the
/// dimensions but the slowest, whose extent is the domain's.
TimeTileCandidate stream_model(const TimeTilePlan &p, const TimeTileSpaceInput &in,
                               std::vector<long> tune) {
  TimeTileSpaceInput plane = in;
  plane.extents.back() = 1;
  std::vector<long> flat = tune;
  flat.back() = 1;
  TimeTilePlan reach = p;
  reach.reach_lo.back() = reach.reach_hi.back() = 0;
  TimeTileCandidate c = model(reach, plane, flat);
  c.tune = std::move(tune);
  c.streaming = true;
  double columns = 1;
  for (int d = 0; d + 1 < p.rank; ++d)
    columns *= static_cast<double>(std::min<int64_t>(c.tune[1 + d], in.extents[d]) +
                                   c.tune[0] * (p.reach_lo[d] + p.reach_hi[d]));
  c.buffer_bytes = static_cast<int64_t>(columns) * in.stream_bytes_per_column[c.tune[0]];
  return c;
}

} // namespace

std::vector<TimeTileCandidate> time_stream_candidates(const TimeTilePlan &p,
                                                      const TimeTileSpaceInput &in,
                                                      const CpuModel &machine) {
  std::vector<TimeTileCandidate> out;
  if (p.rank < 2)
    return out;
  // The rings are touched plane after plane, a few planes of each version
  // at a time: they need not fit L2 (at 256^3 on one core, rings of 13 MB in
  // L3 ran faster than rings of 1 MB in L2, with less halo). So up to the
  // larger of L2 and three quarters of the last level's share of a core.
  int64_t cache = thread_cache(machine);
  if (const CacheLevel *llc = machine.last_level_cache())
    cache = std::max(cache, machine.cache_bytes_per_core(llc->level) / 4 * 3);
  // x whole where it fits (rows of the plane contiguous, no halo redone in
  // x), else long; the other dimensions short.
  const int64_t nx = std::max<int64_t>(in.extents[0], 1);
  const int64_t ny = p.rank == 3 ? std::max<int64_t>(in.extents[1], 1) : 1;
  // Extents that cut the domain into k even tiles (no sliver of a tile
  // redoing a whole halo for a few rows), and a few fixed ones for a domain
  // of any size (forced: the extents are unknown).
  auto even = [](int64_t n, std::vector<long> fixed) {
    for (long k : {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64})
      if (n < (int64_t{1} << 30))
        fixed.push_back(static_cast<long>((n + k - 1) / k));
    std::sort(fixed.begin(), fixed.end());
    fixed.erase(std::unique(fixed.begin(), fixed.end()), fixed.end());
    return fixed;
  };
  std::vector<long> xs = even(nx, {64, 128, 256, 512, 1024, 2048, 4096});
  std::vector<long> ys = even(ny, {4, 8, 16, 32, 64, 128, 256});
  // Every core a tile at least, where the domain has that many.
  auto tiles = [&](const TimeTileCandidate &c) {
    int64_t n = (nx + c.tune[1] - 1) / c.tune[1];
    return p.rank == 3 ? n * ((ny + c.tune[2] - 1) / c.tune[2]) : n;
  };
  for (long T : {2L, 3L, 4L, 6L, 8L}) {
    if (T >= static_cast<long>(in.stream_bytes_per_column.size()) ||
        in.stream_bytes_per_column[T] <= 0)
      continue;
    for (long bx : xs)
      for (long by : p.rank == 3 ? ys : std::vector<long>{0}) {
        std::vector<long> tune = {T, std::min<long>(bx, static_cast<long>(nx))};
        if (p.rank == 3)
          tune.push_back(std::min<long>(by, std::max<int64_t>(in.extents[1], 1)));
        tune.push_back(0);
        if (std::any_of(out.begin(), out.end(),
                        [&](const TimeTileCandidate &o) { return o.tune == tune; }))
          continue;
        TimeTileCandidate c = stream_model(p, in, tune);
        if (c.buffer_bytes > cache || c.redundancy > std::max(1.5, static_cast<double>(T) / 2.5))
          continue;
        out.push_back(std::move(c));
      }
  }
  if (std::any_of(out.begin(), out.end(),
                  [&](const TimeTileCandidate &c) { return tiles(c) >= machine.cores; }))
    out.erase(std::remove_if(out.begin(), out.end(),
                             [&](const TimeTileCandidate &c) { return tiles(c) < machine.cores; }),
              out.end());
  auto score = [](const TimeTileCandidate &c) { return c.bytes_per_point_step * c.redundancy; };
  std::stable_sort(
      out.begin(), out.end(),
      [&](const TimeTileCandidate &a, const TimeTileCandidate &b) { return score(a) < score(b); });
  // The model cannot tell rows read whole (one stream a plane, the
  // prefetchers' case) from pieces of rows: x whole measured 1.4x faster at
  // equal T on one core at 256^3. So each T's best tile with x whole comes
  // first, then the others in the model's order.
  std::vector<TimeTileCandidate> whole, rest;
  for (TimeTileCandidate &c : out) {
    bool first_whole = c.tune[1] >= nx &&
                       std::none_of(whole.begin(), whole.end(), [&](const TimeTileCandidate &w) {
                         return w.tune[0] == c.tune[0];
                       });
    (first_whole ? whole : rest).push_back(std::move(c));
  }
  // In 3D each thread's share of y is short (512 rows over 16 threads: 33),
  // and its halo grows with T: at 512^3 on 16 cores x whole ran 1.09x the
  // single-sweep bound at T = 2 and 0.81x at T = 3 and 4 (bench/RESULTS.md,
  // "The CPU streaming form's tile shapes"), against the model's order. A
  // budget measures the first only, so the smallest T comes first there.
  if (p.rank == 3)
    std::stable_sort(whole.begin(), whole.end(),
                     [](const TimeTileCandidate &a, const TimeTileCandidate &b) {
                       return a.tune[0] < b.tune[0];
                     });
  whole.insert(whole.end(), std::make_move_iterator(rest.begin()),
               std::make_move_iterator(rest.end()));
  return whole;
}

std::string TimeTileCandidate::describe() const {
  std::string s = (streaming ? "streaming T=" : "T=") + std::to_string(tune[0]) + " tile ";
  for (size_t d = 1; d < tune.size(); ++d)
    s += (d > 1 ? "x" : "") + std::to_string(tune[d]);
  return s;
}

double steps_bytes_per_point_step(const TimeTilePlan &p, const TimeTileSpaceInput &in) {
  double bytes = 0;
  for (const TileStage &s : p.stages) {
    for (const std::string &w : s.writes) {
      size_t g = std::find(p.state.begin(), p.state.end(), w) - p.state.begin();
      bool read = std::any_of(s.reads.begin(), s.reads.end(),
                              [&](const TileRead &r) { return r.grid == w; });
      bytes += (read ? 2.0 : 3.0) * in.element_bytes[g]; // a write without a read allocates
    }
    for (const TileRead &r : s.reads) {
      size_t g = std::find(p.state.begin(), p.state.end(), r.grid) - p.state.begin();
      if (std::find(s.writes.begin(), s.writes.end(), r.grid) == s.writes.end())
        bytes += in.element_bytes[g];
    }
  }
  return bytes;
}

std::vector<TimeTileCandidate>
time_tile_candidates(const TimeTilePlan &p, const TimeTileSpaceInput &in, const CpuModel &machine) {
  int64_t cache = thread_cache(machine);
  // Extents per dimension: x long (rows are copied whole and vectorised),
  // the others short.
  std::vector<std::vector<long>> extents;
  if (p.rank == 1)
    extents = {{1024, 4096, 16384, 65536}};
  else if (p.rank == 2)
    extents = {{64, 128, 256, 512, 1024}, {8, 16, 32, 64, 128}};
  else
    extents = {{32, 64, 128, 256}, {4, 8, 16, 32}};
  std::vector<TimeTileCandidate> out;
  for (long T : {2L, 3L, 4L, 6L, 8L}) {
    std::vector<std::vector<long>> shapes = {{}};
    for (int d = 0; d < p.rank; ++d) {
      const std::vector<long> &choices = extents[std::min<size_t>(d, extents.size() - 1)];
      std::vector<std::vector<long>> next;
      for (const std::vector<long> &s : shapes)
        for (long b : choices) {
          std::vector<long> n = s;
          n.push_back(b);
          next.push_back(n);
        }
      shapes = std::move(next);
    }
    for (const std::vector<long> &s : shapes) {
      // A tile wider than the domain is the domain.
      std::vector<long> tune = {T};
      for (int d = 0; d < p.rank; ++d)
        tune.push_back(std::min<long>(s[d], std::max<int64_t>(in.extents[d], 1)));
      if (std::any_of(out.begin(), out.end(),
                      [&](const TimeTileCandidate &o) { return o.tune == tune; }))
        continue;
      TimeTileCandidate c = model(p, in, tune);
      // Each chunk moves about 1/T of the steps' traffic; points redone in
      // the halo cost compute, which a bandwidth-bound stencil has to spare,
      // up to a point.
      if (c.buffer_bytes > cache / 2 || c.redundancy > std::max(2.0, static_cast<double>(T) / 1.5))
        continue;
      out.push_back(std::move(c));
    }
  }
  std::stable_sort(
      out.begin(), out.end(), [](const TimeTileCandidate &a, const TimeTileCandidate &b) {
        return a.bytes_per_point_step * a.redundancy < b.bytes_per_point_step * b.redundancy;
      });
  return out;
}

} // namespace f2s
