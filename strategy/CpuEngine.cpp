#include "strategy/CpuEngine.h"

#include "strategy/MachineModel.h"
#include "strategy/PerformanceModel.h"

#include <algorithm>
#include <cassert>
#include <functional>
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

const Variant serial_variant{"c", "serial", {}, {}};
const Variant parallel_variant{"pthreads", "parallel", {Pass::ParallelizeOuter}, {}};

/// A compile-time choice for the point loops of blocked variants: the values
/// to try, and the pass that reads the option (added when the value is not
/// the pass's default, 0 or 1).
struct OptionAxis {
  const char *option;
  std::vector<int> values;
  std::vector<Pass> passes;
  /// Whether the axis means anything for this kernel.
  std::function<bool(const KernelFacts &)> applies = [](const KernelFacts &) { return true; };
};

/// The compile-time axes of the blocked variants. Each new point-loop pass
/// adds a row here; the product of the rows is the set of blocked variants.
std::vector<OptionAxis> option_axes() {
  return {};
}

std::vector<int> thread_counts(const CpuModel &m) {
  std::set<int> counts;
  for (int t = 1; t < m.cores; t *= 2)
    counts.insert(t);
  counts.insert(std::max(1, m.cores_per_numa_node()));
  counts.insert(m.cores);
  counts.insert(m.pus);
  return {counts.begin(), counts.end()};
}

/// Block sizes worth trying along an axis of extent `extent`: the whole
/// axis, and each of `sizes` smaller than it.
std::vector<int64_t> block_sizes(int64_t extent, std::initializer_list<int64_t> sizes) {
  std::set<int64_t> out = {std::max<int64_t>(extent, 1)};
  for (int64_t s : sizes)
    if (s < extent)
      out.insert(s);
  return {out.rbegin(), out.rend()};
}

/// Whether the last block along an axis is a sliver: a remainder of under a
/// quarter of a block, which costs a whole block's loop overhead for little work.
bool leaves_sliver(int64_t extent, int64_t block) {
  int64_t rest = extent % block;
  return block < extent && rest != 0 && rest * 4 < block;
}

std::string variant_name(const std::map<std::string, int> &options) {
  std::string name = "blocked";
  for (const auto &[k, v] : options)
    name += "_" + k + std::to_string(v);
  return name;
}

} // namespace

std::string SearchSpace::describe(const Candidate &c) const {
  const Variant &v = variants.at(c.variant);
  std::string s = v.target + "/" + v.name.substr(0, v.name.find('_'));
  if (v.target != "c")
    s += c.threads ? " t=" + std::to_string(c.threads) : std::string(" t=all");
  for (const auto &[name, value] : v.options)
    s += " " + name + "=" + std::to_string(value);
  for (const auto &[name, value] : c.tune)
    s += " " + name + "=" + std::to_string(value);
  return s;
}

std::string SearchSpace::summary() const {
  size_t pruned_total = 0;
  std::string reasons;
  for (const auto &[why, n] : pruned) {
    pruned_total += n;
    reasons += (reasons.empty() ? "" : ", ") + std::to_string(n) + " " + why;
  }
  std::string s = std::to_string(candidates.size()) + " candidates in " +
                  std::to_string(variants.size()) + " variants";
  if (considered)
    s += " (" + std::to_string(considered) + " considered; " + std::to_string(pruned_total) +
         " pruned" + (reasons.empty() ? "" : ": " + reasons) + ")";
  return s;
}

SearchSpace enumerate_cpu(const Kernel &k, const KernelFacts &facts,
                          const std::vector<int64_t> &extents, const CpuEngineOptions &options) {
  assert(extents.size() == facts.loop_vars.size() && "one extent per loop");
  SearchSpace space;
  auto wants = [&](const char *t) {
    return std::find(options.targets.begin(), options.targets.end(), t) != options.targets.end();
  };
  if (wants("c")) {
    ++space.considered;
    space.candidates.push_back({find_or_add(space, serial_variant), 1, {}});
  }
  if (!wants("pthreads"))
    return space;
  assert(options.machine && "the pthreads target needs a machine model");
  const CpuModel &machine = *options.machine;

  // Compile-time variants of the blocked nest: the product of the option axes.
  std::vector<Variant> blocked = {{"pthreads", "", {Pass::BlockLoops, Pass::ParallelizeOuter}, {}}};
  for (const OptionAxis &axis : option_axes()) {
    if (!axis.applies(facts))
      continue;
    std::vector<Variant> grown;
    for (const Variant &v : blocked)
      for (int value : axis.values) {
        Variant w = v;
        w.options[axis.option] = value;
        if (value > 1 || (value == 1 && axis.values.front() == 0))
          for (Pass p : axis.passes)
            if (std::find(w.passes.begin(), w.passes.end(), p) == w.passes.end())
              w.passes.push_back(p);
        grown.push_back(w);
      }
    blocked = grown;
  }
  for (Variant &v : blocked)
    v.name = variant_name(v.options);

  size_t parallel = find_or_add(space, parallel_variant);
  const size_t depth = extents.size();
  const int64_t cache = cache_per_thread(machine);
  static const char *const axis_name[] = {"cx", "cy", "cz"};
  for (int t : thread_counts(machine)) {
    ++space.considered;
    space.candidates.push_back({parallel, t, {}});

    // Long blocks along x (unit stride, hardware prefetch); the middle axis
    // bounds the planes a block keeps in cache; the outermost axis is divided
    // among threads, so its blocks must leave each thread at least one.
    int64_t outer = extents[depth - 1];
    int64_t per_thread = (outer + t - 1) / t;
    std::vector<std::vector<int64_t>> sizes(depth);
    sizes[0] = block_sizes(extents[0], {64, 128, 256, 512});
    if (depth == 3)
      sizes[1] = block_sizes(extents[1], {4, 8, 16, 32, 64});
    sizes[depth - 1] = block_sizes(per_thread, {4, 16, 64});

    std::vector<int64_t> block(depth);
    std::function<void(size_t)> choose = [&](size_t a) {
      if (a < depth) {
        for (int64_t b : sizes[a]) {
          block[a] = b;
          choose(a + 1);
        }
        return;
      }
      bool whole_nest = true; // the plain parallel nest, already a candidate
      bool sliver = false;
      for (size_t i = 0; i < depth; ++i) {
        whole_nest &= block[i] >= (i + 1 == depth ? per_thread : extents[i]);
        sliver |= leaves_sliver(i + 1 == depth ? per_thread : extents[i], block[i]);
      }
      for (const Variant &v : blocked) {
        ++space.considered;
        if (whole_nest) {
          ++space.pruned["same as the plain parallel nest"];
          continue;
        }
        if (sliver) {
          ++space.pruned["degenerate remainder blocks"];
          continue;
        }
        if (block_working_set(k, facts, block) > cache) {
          ++space.pruned["block working set exceeds the cache"];
          continue;
        }
        Candidate c{find_or_add(space, v), t, {}};
        for (size_t i = 0; i < depth; ++i)
          c.tune[axis_name[i]] = block[i];
        space.candidates.push_back(c);
      }
    };
    choose(0);
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
