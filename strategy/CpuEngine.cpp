#include "strategy/CpuEngine.h"

#include <algorithm>
#include <cassert>
#include <set>

namespace f2s {

namespace {

size_t find_or_add(SearchSpace &space, const Variant &v) {
  for (size_t i = 0; i < space.variants.size(); ++i)
    if (space.variants[i].target == v.target && space.variants[i].name == v.name)
      return i;
  space.variants.push_back(v);
  return space.variants.size() - 1;
}

const Variant serial_variant{"c", "serial", {}};
const Variant parallel_variant{"pthreads", "parallel", {Pass::ParallelizeOuter}};
const Variant blocked_variant{"pthreads", "blocked", {Pass::BlockLoops, Pass::ParallelizeOuter}};

std::vector<int> thread_counts(int max_threads) {
  std::vector<int> counts;
  for (int t = 1; t < max_threads; t *= 2)
    counts.push_back(t);
  counts.push_back(std::max(max_threads, 1));
  return counts;
}

/// Block sizes worth trying along one axis of extent `extent`: the whole
/// axis (written as the extent itself), and each size of `sizes` that is
/// smaller than it.
std::vector<long> block_sizes(int64_t extent, std::initializer_list<long> sizes) {
  std::set<long> out = {static_cast<long>(std::max<int64_t>(extent, 1))};
  for (long s : sizes)
    if (s < extent)
      out.insert(s);
  return {out.rbegin(), out.rend()};
}

} // namespace

std::string SearchSpace::describe(const Candidate &c) const {
  const Variant &v = variants.at(c.variant);
  std::string s = v.target + "/" + v.name;
  if (v.target != "c")
    s += c.threads ? " t=" + std::to_string(c.threads) : std::string(" t=all");
  for (const auto &[name, value] : v.options)
    s += " " + name + "=" + std::to_string(value);
  for (const auto &[name, value] : c.tune)
    s += " " + name + "=" + std::to_string(value);
  return s;
}

SearchSpace enumerate_cpu(const Kernel &k, const KernelFacts &facts,
                          const std::vector<int64_t> &extents, const CpuEngineOptions &options) {
  assert(extents.size() == facts.loop_vars.size() && "one extent per loop");
  SearchSpace space;
  auto wants = [&](const char *t) {
    return std::find(options.targets.begin(), options.targets.end(), t) != options.targets.end();
  };
  if (wants("c"))
    space.candidates.push_back({find_or_add(space, serial_variant), 1, {}});
  if (!wants("pthreads"))
    return space;

  size_t parallel = find_or_add(space, parallel_variant);
  size_t blocked = find_or_add(space, blocked_variant);
  const size_t depth = extents.size();
  for (int t : thread_counts(options.max_threads)) {
    space.candidates.push_back({parallel, t, {}});
    // Blocks along x are long (unit stride, hardware prefetch); along the
    // middle axis they bound the planes a block keeps in cache; along the
    // outermost axis, which is divided among threads, they must leave every
    // thread at least one block.
    std::vector<std::vector<long>> per_axis(depth);
    per_axis[0] = block_sizes(extents[0], {256});
    if (depth == 3)
      per_axis[1] = block_sizes(extents[1], {8, 32});
    int64_t outer = extents[depth - 1];
    int64_t per_thread = (outer + t - 1) / t;
    per_axis[depth - 1] = block_sizes(per_thread, {4, 16, 64});
    static const char *const axis_name[] = {"cx", "cy", "cz"};
    std::vector<long> tune(depth);
    auto emit = [&](auto &&self, size_t axis) -> void {
      if (axis == depth) {
        bool whole_nest = true; // same as the plain parallel variant
        for (size_t a = 0; a < depth; ++a)
          whole_nest &= tune[a] >= (a + 1 == depth ? per_thread : extents[a]);
        if (whole_nest)
          return;
        Candidate c{blocked, t, {}};
        for (size_t a = 0; a < depth; ++a)
          c.tune[axis_name[a]] = tune[a];
        space.candidates.push_back(c);
        return;
      }
      for (long b : per_axis[axis]) {
        tune[axis] = b;
        self(self, axis + 1);
      }
    };
    emit(emit, 0);
  }
  return space;
}

Candidate default_candidate(SearchSpace &space, const std::string &target) {
  if (target == "c")
    return {find_or_add(space, serial_variant), 1, {}};
  assert(target == "pthreads" && "the CPU engine knows the c and pthreads targets");
  return {find_or_add(space, parallel_variant), 0, {}};
}

} // namespace f2s
