#include "codegen/TimeStreamPlan.h"

#include <algorithm>
#include <stdexcept>

namespace f2s {

namespace {

/// The lags, registers and rings of every version of a chunk of T steps.
/// They only grow with the stages before, so a shorter chunk uses the first.
void plan_versions(TimeStreamPlan &x) {
  std::vector<int> current(x.G);
  for (int g = 0; g < x.G; ++g) {
    current[g] = g;
    x.versions.push_back({g, -1, 0, 1, -1, -1, 0, false});
  }
  auto reach = [&](int v, int64_t rel, bool centre) {
    TimeStreamVersion &ver = x.versions[v];
    if (centre) {
      ver.regs = std::max(ver.regs, rel + 1);
      return;
    }
    ver.from = ver.from < 0 ? rel : std::min(ver.from, rel);
    ver.to = std::max(ver.to, rel);
  };
  for (int step = 0; step < x.steps; ++step)
    for (int s = 0; s < x.S; ++s) {
      const TileStage &st = x.tiles->stages[s];
      TimeStreamInstance in;
      in.step = step;
      in.stage = s;
      in.reads.assign(x.G, -1);
      in.writes.assign(x.G, -1);
      in.prev.assign(x.G, -1);
      if (x.rename && !st.copy_of.empty()) {
        // Y = X at the plane X's version is at: Y's version is X's.
        const int X = x.state_index(st.copy_of), Y = x.state_index(st.writes[0]);
        if (X >= 0 && Y >= 0 && x.versions[current[Y]].lag <= x.versions[current[X]].lag) {
          in.renamed = true;
          in.lag = x.versions[current[X]].lag;
          in.reads[X] = in.writes[Y] = current[X];
          in.prev[Y] = current[Y];
          x.versions[current[X]].read = true;
          current[Y] = current[X];
          x.instances.push_back(std::move(in));
          continue;
        }
      }
      int64_t lag = 0;
      auto zero = [](const std::vector<int64_t> &off) {
        return std::all_of(off.begin(), off.end(), [](int64_t o) { return o == 0; });
      };
      // A grid it writes, read at the point itself, is the version it makes
      // (the value the point had until the point stores it, as in the
      // overlapped buffer); read elsewhere, the version it continues (a
      // point it also computes would make the sweep ordered, and refused).
      for (const TileRead &r : st.reads) {
        int g = x.state_index(r.grid);
        in.reads[g] = current[g];
        x.versions[current[g]].read = true;
        lag = std::max(lag, x.versions[current[g]].lag + std::max<int64_t>(r.hi[x.Z], 0));
        if (x.writes(s, r.grid))
          in.reads_itself =
              in.reads_itself || std::any_of(r.offsets.begin(), r.offsets.end(), zero);
      }
      for (const std::string &w : st.writes) {
        int g = x.state_index(w);
        in.prev[g] = current[g];
        lag = std::max(lag, x.versions[current[g]].lag);
      }
      // A neighbour's column at least `gap` planes behind the version's
      // newest (TimeStreamPlan::gap).
      for (const TileRead &r : st.reads)
        for (const std::vector<int64_t> &off : r.offsets)
          if (!x.centre(off))
            lag = std::max(lag, x.versions[in.reads[x.state_index(r.grid)]].lag + off[x.Z] + x.gap);
      in.lag = lag;
      for (const TileRead &r : st.reads) {
        int g = x.state_index(r.grid);
        for (const std::vector<int64_t> &off : r.offsets)
          if (!(x.writes(s, r.grid) && zero(off)))
            reach(in.reads[g], lag - off[x.Z] - x.versions[in.reads[g]].lag, x.centre(off));
      }
      for (const std::string &w : st.writes) {
        int v = current[x.state_index(w)];
        reach(v, lag - x.versions[v].lag, true); // continued where not computed
      }
      int j = static_cast<int>(x.instances.size());
      for (const std::string &w : st.writes) {
        int g = x.state_index(w);
        in.writes[g] = static_cast<int>(x.versions.size());
        x.versions.push_back({g, j, lag, 1, -1, -1, 0, false});
        current[g] = in.writes[g];
      }
      x.instances.push_back(std::move(in));
    }
  for (TimeStreamVersion &v : x.versions)
    if (v.from >= 0) {
      v.regs = std::max(v.regs, v.from + 1);
      v.ring = v.to - v.from + 1;
    }
  x.lag_max.assign(x.steps + 1, 0);
  for (int n = 1; n <= x.steps; ++n) {
    x.lag_max[n] = x.lag_max[n - 1];
    for (int s = 0; s < x.S; ++s)
      x.lag_max[n] = std::max(x.lag_max[n], x.instances[(n - 1) * x.S + s].lag);
  }
  x.last.assign(x.steps, std::vector<int>(x.G, -1));
  for (size_t j = 0; j < x.instances.size(); ++j)
    for (int g = 0; g < x.G; ++g)
      if (x.instances[j].writes[g] >= 0)
        x.last[x.instances[j].step][g] = static_cast<int>(j);
}

} // namespace

int TimeStreamPlan::state_index(const std::string &g) const {
  for (int k = 0; k < G; ++k)
    if (state[k]->name == g)
      return k;
  return -1;
}

bool TimeStreamPlan::writes(int s, const std::string &g) const {
  const std::vector<std::string> &w = tiles->stages[s].writes;
  return std::find(w.begin(), w.end(), g) != w.end();
}

bool TimeStreamPlan::centre(const std::vector<int64_t> &off) const {
  for (int d = 0; d < Z; ++d)
    if (off[d])
      return false;
  return true;
}

TimeStreamPlan plan_time_stream(const TimeLoop &t, const TimeTilePlan &plan, int steps, int64_t gap,
                                bool rename) {
  if (plan.rank < 2)
    throw std::invalid_argument("time stream: the grids need two dimensions or more, one to "
                                "stream along");
  if (steps < 1)
    throw std::invalid_argument("time stream: T is out of range");
  TimeStreamPlan x;
  x.tiles = &plan;
  x.R = plan.rank;
  x.Z = plan.rank - 1;
  x.G = static_cast<int>(plan.state.size());
  x.S = static_cast<int>(plan.stages.size());
  x.steps = steps;
  x.gap = gap;
  x.rename = rename;
  for (const std::string &g : plan.state) {
    x.state.push_back(t.signature.find_arg(g));
    if (!x.state.back())
      throw std::logic_error("time stream: no argument '" + g + "'");
  }
  plan_versions(x);
  return x;
}

} // namespace f2s
