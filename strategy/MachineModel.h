// The CPU machine model: what the CPU strategy engine needs to know about a machine to size core
// blocks (cache capacities and who shares them) and to place threads (packages, NUMA nodes,
// cores, hardware threads). Built from an hwloc topology: the host's, a synthetic description, or
// an XML file exported on another machine, so that the multi-socket logic can be exercised and
// tuned for machines other than the one the tool runs on.
//
// Bandwidth is deliberately absent: it is measured on the target (harness), never guessed here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace f2s {

/// One level of data (or unified) cache. Instruction caches are left out: stencil blocking only
/// cares about where data lives.
struct CacheLevel {
  int level = 0;           ///< 1 for L1d, 2 for L2, ...
  int64_t size_bytes = 0;  ///< Capacity of one instance.
  int64_t line_bytes = 0;  ///< Line size; 64 where hwloc did not say.
  int shared_by_cores = 1; ///< Cores sharing one instance.
  int instances = 1;       ///< Instances of this level in the whole machine.
};

struct CpuModel {
  /// Where the model came from: "host", "synthetic:<description>" or "xml:<path>".
  std::string source;
  /// One line for reports and the tuning record, e.g.
  /// "2 packages, 4 NUMA nodes, 32 cores, 64 PUs; L1d 32 KiB per core, L2 1 MiB per core,
  ///  L3 32 MiB shared by 8 cores (x4)". Assumed figures are said to be assumed.
  std::string description;
  /// The processor's name as hwloc reports it (the first package's CPUModel,
  /// e.g. "AMD EPYC 9654 96-Core Processor"); "" where hwloc does not say.
  std::string cpu_name;

  // Totals over the whole machine; each is at least 1.
  int packages = 1;
  int numa_nodes = 1;
  int cores = 1;
  int pus = 1;

  /// Data and unified caches, L1 first, one entry per level.
  std::vector<CacheLevel> caches;
  /// True when hwloc reported no data cache and `caches` holds sysconf figures or assumptions.
  bool caches_assumed = false;

  /// One core (a PU where hwloc reports no core objects).
  struct Core {
    int package = 0;   ///< Logical index of its package (0 where the machine has none).
    int numa_node = 0; ///< Logical index of the NUMA node whose memory is local to it.
    /// OS indexes of its hardware threads, in hwloc logical order; never empty. These are the
    /// numbers pthread_setaffinity_np / sched_setaffinity take.
    std::vector<int> pu_os_index;
    int first_pu() const { return pu_os_index.front(); }
  };
  /// Every core, in hwloc logical order (cores of one package and NUMA node are adjacent).
  std::vector<Core> core_list;

  /// The smallest number of cores local to one NUMA node, counting only nodes that have cores
  /// (memory-only nodes, e.g. CXL or HBM, would otherwise make this 0).
  int cores_per_numa_node() const;
  /// The outermost data cache, or nullptr if there is none (never after a model is built).
  const CacheLevel *last_level_cache() const;
  /// Capacity of cache `level` available to one core when all its sharers are busy
  /// (size / shared_by_cores); 0 if the machine has no such level.
  int64_t cache_bytes_per_core(int level) const;

  /// The CPUs (OS indexes) to pin `nthreads` threads to; entry i is thread i's CPU.
  ///
  /// Policy: threads are spread over NUMA nodes first, alternating packages (node 0 of package 0,
  /// node 0 of package 1, node 1 of package 0, ...), then fill further cores of each node round
  /// robin; only once every core has a thread do second (then third...) hardware threads get
  /// one. Why: the stencils this tool tunes are memory-bandwidth bound (Kamil et al. 2010, VII-B),
  /// and each NUMA node brings its own memory controllers, so a small thread count reaches the
  /// most bandwidth when its threads sit on different nodes; a second hardware thread of a busy
  /// core adds no bandwidth and halves that core's share of L1/L2. With first-touch
  /// initialisation each thread's pages land on its own node.
  ///
  /// placement(n) is a prefix of placement(m) for n <= m, so the first n threads of any pool are
  /// themselves well spread. Throws std::invalid_argument unless 1 <= nthreads <= pus: pinning
  /// more threads than hardware threads only time-slices them, which the tuner must never time.
  std::vector<int> placement(int nthreads) const;
};

/// The machine this runs on, from hwloc. Restricted to the PUs this process may use (cgroups,
/// taskset), as hwloc does by default, since those are the only ones threads can be pinned to.
CpuModel cpu_model_from_host();

/// A model from an hwloc synthetic description, e.g.
/// "pack:2 numa:2 l3:1(size=32MiB) core:8 l2:1(size=1MiB) l1d:1(size=32KiB) pu:2".
/// What hwloc 2.9 accepts (checked with `lstopo --input "..." --of synthetic`):
/// - Levels from the outside in, ending with `pu:N`; type names `pack`, `numa`, `group`, `l3`,
///   `l2`, `l1d`, `core`, `pu` (also the full hwloc names, e.g. `Package`, `L2Cache`).
/// - Cache sizes as attributes: `l2:1(size=1MiB)`; `KiB`/`MiB`/`GiB` are powers of 1024 while
///   `KB`/`MB`/`GB` are powers of 1000 (`size=1MB` gives 977 KiB). Without a size hwloc invents
///   one (L1d 32 KiB, L2 4 MiB, L3 16 MiB in 2.9) — give sizes when they matter.
/// - `numa:N` is accepted: in hwloc 2.x a NUMA node is a memory child, so hwloc attaches one to
///   each object of the next normal level (or inserts a Group to carry it), e.g.
///   "pack:2 numa:2 l3:1 ..." becomes "Package:2 L3Cache:2 [NUMANode] ...". Without `numa`,
///   hwloc inserts a single NUMA node.
/// Throws std::invalid_argument with hwloc's complaint for a bad description.
CpuModel cpu_model_from_synthetic(const std::string &description);

/// A model from an hwloc XML topology file, e.g. one exported on the target machine with
/// `lstopo target.xml`. Throws std::invalid_argument if the file cannot be read as one.
CpuModel cpu_model_from_xml(const std::string &path);

} // namespace f2s
