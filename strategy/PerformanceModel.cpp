#include "strategy/PerformanceModel.h"

#include <algorithm>
#include <cmath>

namespace f2s {

namespace {

int64_t elem_bytes(const Kernel &k, const std::string &grid) {
  const Variable *v = k.find_arg(grid);
  return v ? type_bytes(v->type) : 8;
}

long tune_or(const Candidate &c, const char *name, long fallback) {
  auto it = c.tune.find(name);
  return it == c.tune.end() ? fallback : it->second;
}

} // namespace

int64_t block_working_set(const Kernel &k, const KernelFacts &facts,
                          const std::vector<int64_t> &block) {
  const size_t depth = block.size();
  auto h = [&](size_t axis) { return axis < facts.halo.size() ? facts.halo[axis] : 0; };
  // A plane is everything but the outermost axis.
  int64_t read_plane = 1, write_plane = 1;
  for (size_t a = 0; a + 1 < depth; ++a) {
    read_plane *= block[a] + 2 * h(a);
    write_plane *= block[a];
  }
  int64_t planes = 2 * h(depth - 1) + 1;
  int64_t bytes = 0;
  for (const std::string &g : facts.read_set)
    if (!facts.reused.count(g))
      bytes += planes * read_plane * elem_bytes(k, g);
  for (const std::string &g : facts.write_set)
    bytes += write_plane * elem_bytes(k, g);
  return bytes;
}

int64_t cache_per_thread(const CpuModel &machine) {
  int64_t l2 = machine.cache_bytes_per_core(2);
  const CacheLevel *llc = machine.last_level_cache();
  int64_t llc_share = llc ? machine.cache_bytes_per_core(llc->level) : 0;
  return std::max<int64_t>({l2, llc_share, 256 * 1024});
}

double predict_seconds(const Kernel &k, const KernelFacts &facts, const CpuModel &machine,
                       const std::vector<int64_t> &extents, const SearchSpace &space,
                       const Candidate &c) {
  const Variant &v = space.variants.at(c.variant);
  const size_t depth = extents.size();
  double points = 1;
  for (int64_t e : extents)
    points *= static_cast<double>(e);

  int threads = c.threads > 0 ? c.threads : machine.pus;
  auto option = [&](const char *name) {
    auto it = v.options.find(name);
    return it == v.options.end() ? 0 : it->second;
  };
  bool bypass = option("bypass") != 0;
  double bytes = static_cast<double>(facts.bytes(!bypass));

  // The block each thread streams through: the whole plane of its slab for
  // the plain parallel nest.
  static const char *const axis[] = {"cx", "cy", "cz"};
  std::vector<int64_t> block(depth);
  for (size_t a = 0; a < depth; ++a) {
    int64_t whole = a + 1 == depth ? (extents[a] + threads - 1) / threads : extents[a];
    block[a] = std::min<int64_t>(tune_or(c, a < 3 ? axis[a] : "", whole), whole);
    block[a] = std::max<int64_t>(block[a], 1);
  }
  if (block_working_set(k, facts, block) > cache_per_thread(machine)) {
    // Halo planes fall out of cache and are read again from memory.
    int64_t hz = depth ? facts.halo[depth - 1] : 0;
    bytes +=
        static_cast<double>(facts.read_bytes) * static_cast<double>(std::min<int64_t>(2 * hz, 2));
  }

  // Bandwidth grows with the threads up to one per core: on the 16-core host
  // measured for bench/RESULTS.md it was still growing at 16, so a model that
  // saturated earlier ranked half the cores first and wasted measurements.
  double bandwidth = std::min(1.0, static_cast<double>(threads) / machine.cores);
  // Threads without work add nothing: the contiguous decomposition divides
  // the outermost blocks; the chunked one deals chunks of all the blocks to
  // thread groups.
  double units =
      std::ceil(static_cast<double>(extents[depth - 1]) / static_cast<double>(block[depth - 1]));
  double workers = threads;
  if (c.tune.count("chunk")) {
    double blocks = 1;
    for (size_t a = 0; a < depth; ++a)
      blocks *= std::ceil(static_cast<double>(extents[a]) / static_cast<double>(block[a]));
    units = std::ceil(blocks / static_cast<double>(std::max(1L, tune_or(c, "chunk", 1))));
    workers = std::ceil(threads / static_cast<double>(std::max(1L, tune_or(c, "group", 1))));
  }
  double busy = std::min(1.0, units / workers);
  double overhead = 1.0 + 16.0 / static_cast<double>(block[0]) +
                    (depth > 1 ? 2.0 / static_cast<double>(block[1]) : 0.0);
  // Software prefetch adds work to the inner loop, and hardware prefetchers
  // already follow unit-stride streams: measured only when nothing is better.
  if (tune_or(c, "pf", 0) > 0)
    overhead *= 1.1;
  return bytes * points * 1e-9 / (bandwidth * busy) * overhead;
}

} // namespace f2s
