#include "strategy/CpuEngine.h"

#include "ast/InnerLoops.h"
#include "ast/Planes.h"
#include "strategy/MachineModel.h"
#include "strategy/PerformanceModel.h"

#include <algorithm>
#include <cassert>
#include <functional>
#include <regex>
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

/// How the core blocks are shared among threads.
enum class Decomposition {
  /// Contiguous ranges of the outermost block loop, one per thread.
  Contiguous,
  /// Chunks of core blocks dealt round robin to thread groups, each block
  /// split into thread blocks among the group's members (Kamil et al.).
  Chunked,
};

/// The compile-time options of the point loops (Table III's register
/// blocks, plus array indexing and cache bypass) for a nest of `depth`.
std::vector<std::map<std::string, int>> point_options(size_t depth, bool streamable) {
  std::vector<std::map<std::string, int>> out;
  for (int rx : {1, 2, 4, 8})
    for (int ry : {1, 2})
      for (int rz : depth == 3 ? std::vector<int>{1, 2} : std::vector<int>{1}) {
        // More than 8 points per iteration only spills registers.
        if (rx * ry * rz > 8)
          continue;
        for (int indexing : {0, 1})
          for (int bypass : streamable ? std::vector<int>{0, 1} : std::vector<int>{0}) {
            std::map<std::string, int> o = {
                {"rx", rx}, {"ry", ry}, {"indexing", indexing}, {"bypass", bypass}};
            if (depth == 3)
              o["rz"] = rz;
            out.push_back(o);
          }
      }
  return out;
}

/// The recipe of a blocked variant: decomposition passes, then the point
/// passes its options ask for. Prefetch is always there: a distance of 0,
/// a run-time value, turns it off.
Variant blocked_variant(Decomposition d, const std::map<std::string, int> &options) {
  Variant v{
      "pthreads", d == Decomposition::Chunked ? "chunked" : "blocked", {Pass::BlockLoops}, options};
  if (d == Decomposition::Chunked) {
    v.passes.push_back(Pass::Chunking);
    v.passes.push_back(Pass::ThreadBlocking);
  } else {
    v.passes.push_back(Pass::ParallelizeOuter);
  }
  int points = 1;
  for (const char *r : {"rx", "ry", "rz"})
    points *= options.count(r) ? options.at(r) : 1;
  // Jammed points often share subexpressions (the sums of a box stencil).
  // The option is set either way, so that variants differ only in what the
  // search may vary.
  v.options["cse"] = 1;
  if (points > 1) {
    v.passes.push_back(Pass::RegisterBlock);
    v.passes.push_back(Pass::CommonSubexpressions);
  }
  if (options.count("indexing") && options.at("indexing"))
    v.passes.push_back(Pass::ArrayIndexing);
  if (options.count("bypass") && options.at("bypass"))
    v.passes.push_back(Pass::CacheBypass);
  v.passes.push_back(Pass::Prefetch);
  v.options["prefetch"] = 1;
  for (const auto &[k, value] : options)
    v.name += "_" + k + std::to_string(value);
  return v;
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

/// Cores that share the last-level cache: the largest sensible thread group.
int cores_sharing_llc(const CpuModel &m) {
  const CacheLevel *llc = m.last_level_cache();
  return llc ? std::max(1, llc->shared_by_cores) : 1;
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

} // namespace

std::string SearchSpace::describe(const Candidate &c) const {
  const Variant &v = variants.at(c.variant);
  // A CPU variant's name repeats its options after the family ("blocked_rx2"):
  // the family only. A CUDA variant's name is its whole description.
  std::string s =
      v.target + "/" + (v.target == "cuda" ? v.name : v.name.substr(0, v.name.find('_')));
  if (v.target != "c" && v.target != "cuda")
    s += c.threads ? " t=" + std::to_string(c.threads) : std::string(" t=all");
  for (const auto &[name, value] : v.options)
    s += " " + name + "=" + std::to_string(value);
  for (const auto &[name, value] : c.tune)
    s += " " + name + "=" + std::to_string(value);
  return s;
}

size_t SearchSpace::keep_matching(const std::string &pattern, size_t from) {
  std::regex re(pattern);
  std::vector<Candidate> kept(candidates.begin(), candidates.begin() + from);
  for (size_t i = from; i < candidates.size(); ++i) {
    if (std::regex_search(describe(candidates[i]), re))
      kept.push_back(candidates[i]);
    else
      ++pruned["not matching --candidates"];
  }
  candidates = std::move(kept);
  return candidates.size() - from;
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
  const size_t depth = extents.size();
  const int64_t cache = cache_per_thread(machine);
  // Cache bypass only pays for grids that are written without being read.
  const bool streamable = facts.write_allocate_bytes > 0;
  const std::vector<std::map<std::string, int>> point = point_options(depth, streamable);
  static const char *const axis_name[] = {"cx", "cy", "cz"};
  static const char *const thread_axis[] = {"tx", "ty", "tz"};

  const bool planes = has_planes(k);
  const bool inner_loops = has_inner_loops(k);
  size_t parallel = find_or_add(space, parallel_variant);
  for (int t : thread_counts(machine)) {
    ++space.considered;
    space.candidates.push_back({parallel, t, {}});
    // Blocks, chunks and register blocks reorder points across the loops
    // they tile; with an ordered loop, only the plain parallel nest (threads
    // over the free loops, the ordered one serial in each) keeps its order.
    if (k.ordered) {
      ++space.pruned["block decompositions of a nest with an ordered loop"];
      continue;
    }
    // Planes at run-time positions (ast/Planes): a face copy has nothing
    // to reuse in a block, and only the plain nest's code is checked for it.
    if (planes) {
      ++space.pruned["block decompositions of a nest with planes at run-time positions"];
      continue;
    }
    // A loop inside the point with a run-time trip count (ast/InnerLoops):
    // a block's reach and the register blocks' shifts read offsets as
    // constants, and the window is not one.
    if (inner_loops) {
      ++space.pruned["block decompositions of a nest with a loop inside the point"];
      continue;
    }
    // A column's statements run in order with its own work arrays: blocks
    // and chunks would keep that, but register blocks interleave columns
    // that share one thread's work arrays. Threads over the columns only.
    if (k.column) {
      ++space.pruned["block decompositions of a column nest"];
      continue;
    }

    // Long blocks along x (unit stride, hardware prefetch); the middle axis
    // bounds the planes a block keeps in cache; the outermost axis is divided
    // among threads, so its blocks must leave each thread at least one.
    int64_t outer = extents[depth - 1];
    int64_t per_thread = (outer + t - 1) / t;
    std::vector<std::vector<int64_t>> sizes(depth);
    sizes[0] = block_sizes(extents[0], {128, 512});
    if (depth == 3)
      sizes[1] = block_sizes(extents[1], {8, 32});
    sizes[depth - 1] = block_sizes(per_thread, {4, 16});

    // Thread groups: members share a cache, and the groups divide the team.
    std::vector<int> groups;
    for (int g : {1, 2, 4})
      if (g <= t && t % g == 0 && g <= cores_sharing_llc(machine))
        groups.push_back(g);

    std::vector<int64_t> block(depth);
    std::function<void(size_t)> choose = [&](size_t a) {
      if (a < depth) {
        for (int64_t b : sizes[a]) {
          block[a] = b;
          choose(a + 1);
        }
        return;
      }
      bool whole_nest = true; // with no point passes, the plain parallel nest
      bool sliver = false;
      for (size_t i = 0; i < depth; ++i) {
        whole_nest &= block[i] >= (i + 1 == depth ? per_thread : extents[i]);
        sliver |= leaves_sliver(i + 1 == depth ? per_thread : extents[i], block[i]);
      }
      bool fits = block_working_set(k, facts, block) <= cache;
      for (const std::map<std::string, int> &opts : point) {
        for (Decomposition d : {Decomposition::Contiguous, Decomposition::Chunked}) {
          std::vector<Candidate> runs;
          Candidate base{0, t, {}};
          for (size_t i = 0; i < depth; ++i)
            base.tune[axis_name[i]] = block[i];
          if (d == Decomposition::Contiguous) {
            runs.push_back(base);
          } else {
            for (int g : groups)
              for (long chunk : {1, 4}) {
                Candidate c = base;
                c.tune["group"] = g;
                c.tune["chunk"] = chunk;
                for (size_t i = 0; i < depth; ++i)
                  c.tune[thread_axis[i]] =
                      i == 1 || (depth == 2 && i == 0) ? (block[i] + g - 1) / g : block[i];
                runs.push_back(c);
              }
          }
          for (Candidate c : runs)
            for (long pf : {0, 128}) {
              ++space.considered;
              bool plain = opts.at("rx") * opts.at("ry") * (depth == 3 ? opts.at("rz") : 1) == 1 &&
                           !opts.at("indexing") && !opts.at("bypass") && pf == 0 &&
                           d == Decomposition::Contiguous;
              if (whole_nest && plain) {
                ++space.pruned["same as the plain parallel nest"];
                continue;
              }
              if (sliver) {
                ++space.pruned["degenerate remainder blocks"];
                continue;
              }
              if (!fits && !whole_nest) {
                ++space.pruned["block working set exceeds the cache"];
                continue;
              }
              c.variant = find_or_add(space, blocked_variant(d, opts));
              c.tune["pf"] = pf;
              space.candidates.push_back(c);
            }
        }
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
