#include "strategy/MachineModel.h"

#include <hwloc.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <stdexcept>

// NUMA nodes as memory children, cache object types per level and the synthetic `numa` level
// are hwloc 2 behaviour; hwloc 1.x would build a different tree from the same calls.
static_assert(HWLOC_API_VERSION >= 0x00020000, "f2stencil needs hwloc 2.x");

namespace f2s {

namespace {

struct TopologyDeleter {
  void operator()(hwloc_topology *topology) const { hwloc_topology_destroy(topology); }
};
using Topology = std::unique_ptr<hwloc_topology, TopologyDeleter>;

Topology new_topology() {
  hwloc_topology_t raw = nullptr;
  if (hwloc_topology_init(&raw) != 0)
    throw std::runtime_error("Cannot initialise an hwloc topology: " +
                             std::string(std::strerror(errno)));
  return Topology(raw);
}

/// Runs `step` on a fresh topology in a child process with hwloc's `verbose_env` switch set and
/// returns what hwloc wrote to stderr. hwloc explains a bad synthetic string only there and only
/// when asked (it reads HWLOC_SYNTHETIC_VERBOSE on every call); a child keeps both the
/// environment change and the stderr redirection away from this process's other threads.
/// Called on the error path only.
std::string hwloc_complaint(const char *verbose_env,
                            const std::function<int(hwloc_topology_t)> &step) {
  int fds[2];
  if (pipe(fds) != 0)
    return "";
  std::fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return "";
  }
  if (pid == 0) {
    close(fds[0]);
    dup2(fds[1], STDERR_FILENO);
    setenv(verbose_env, "1", 1);
    hwloc_topology_t topology = nullptr;
    if (hwloc_topology_init(&topology) == 0)
      step(topology);
    _exit(0);
  }
  close(fds[1]);
  std::string text;
  char buffer[512];
  ssize_t got;
  while ((got = read(fds[0], buffer, sizeof buffer)) > 0 || (got < 0 && errno == EINTR))
    if (got > 0)
      text.append(buffer, static_cast<size_t>(got));
  close(fds[0]);
  waitpid(pid, nullptr, 0);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
    text.pop_back();
  // hwloc writes one complaint per line; keep them on one line for a one-line message.
  std::replace(text.begin(), text.end(), '\n', ';');
  return text;
}

/// Objects of `type` inside `set`, in logical order.
std::vector<hwloc_obj_t> objects_inside(hwloc_topology_t topology, hwloc_const_cpuset_t set,
                                        hwloc_obj_type_t type) {
  std::vector<hwloc_obj_t> objects;
  hwloc_obj_t obj = nullptr;
  while ((obj = hwloc_get_next_obj_inside_cpuset_by_type(topology, set, type, obj)))
    objects.push_back(obj);
  return objects;
}

/// The NUMA node local to `core`: the first node (logical order) whose locality covers it. A
/// core can be local to several nodes (DRAM plus HBM or CXL memory); the first is normally DRAM.
int numa_node_of(hwloc_topology_t topology, hwloc_obj_t core) {
  int nodes = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_NUMANODE);
  for (int i = 0; i < nodes; ++i) {
    hwloc_obj_t node = hwloc_get_obj_by_type(topology, HWLOC_OBJ_NUMANODE, i);
    if (hwloc_bitmap_isincluded(core->cpuset, node->cpuset))
      return i;
  }
  for (int i = 0; i < nodes; ++i) {
    hwloc_obj_t node = hwloc_get_obj_by_type(topology, HWLOC_OBJ_NUMANODE, i);
    if (hwloc_bitmap_intersects(core->cpuset, node->cpuset))
      return i;
  }
  return 0;
}

std::vector<CpuModel::Core> read_cores(hwloc_topology_t topology) {
  // Some platforms (certain VMs, some ARM firmware) report PUs without cores; then each PU is
  // taken as a core, which is what the OS scheduler does too.
  bool have_cores = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_CORE) > 0;
  hwloc_obj_type_t core_type = have_cores ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
  std::vector<CpuModel::Core> cores;
  int n = hwloc_get_nbobjs_by_type(topology, core_type);
  for (int i = 0; i < n; ++i) {
    hwloc_obj_t obj = hwloc_get_obj_by_type(topology, core_type, i);
    CpuModel::Core core;
    hwloc_obj_t package = hwloc_get_ancestor_obj_by_type(topology, HWLOC_OBJ_PACKAGE, obj);
    core.package = package ? static_cast<int>(package->logical_index) : 0;
    core.numa_node = numa_node_of(topology, obj);
    for (hwloc_obj_t pu : objects_inside(topology, obj->cpuset, HWLOC_OBJ_PU))
      core.pu_os_index.push_back(static_cast<int>(pu->os_index));
    if (core.pu_os_index.empty())
      continue; // All its PUs are outside what this process may use.
    cores.push_back(std::move(core));
  }
  return cores;
}

/// One entry per cache level hwloc reports. Levels can differ between instances (hybrid CPUs
/// have small-core clusters sharing one L2); the smallest size and the widest sharing are kept,
/// so per-core capacity is never overestimated when sizing blocks.
std::vector<CacheLevel> read_caches(hwloc_topology_t topology) {
  static constexpr hwloc_obj_type_t kLevels[] = {HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L2CACHE,
                                                 HWLOC_OBJ_L3CACHE, HWLOC_OBJ_L4CACHE,
                                                 HWLOC_OBJ_L5CACHE};
  bool have_cores = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_CORE) > 0;
  std::vector<CacheLevel> caches;
  for (int i = 0; i < 5; ++i) {
    int n = hwloc_get_nbobjs_by_type(topology, kLevels[i]);
    CacheLevel level;
    level.level = i + 1;
    level.size_bytes = 0;
    level.line_bytes = 0;
    level.shared_by_cores = 0;
    level.instances = 0;
    for (int k = 0; k < n; ++k) {
      hwloc_obj_t cache = hwloc_get_obj_by_type(topology, kLevels[i], k);
      if (cache->attr->cache.type == HWLOC_OBJ_CACHE_INSTRUCTION || cache->attr->cache.size == 0)
        continue;
      auto size = static_cast<int64_t>(cache->attr->cache.size);
      level.size_bytes = level.instances == 0 ? size : std::min(level.size_bytes, size);
      if (level.line_bytes == 0)
        level.line_bytes = cache->attr->cache.linesize;
      int sharers = hwloc_get_nbobjs_inside_cpuset_by_type(
          topology, cache->cpuset, have_cores ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU);
      level.shared_by_cores = std::max({level.shared_by_cores, sharers, 1});
      ++level.instances;
    }
    if (level.instances == 0)
      continue;
    if (level.line_bytes <= 0)
      level.line_bytes = 64; // Every x86-64 and most AArch64 parts; hwloc left it out.
    caches.push_back(level);
  }
  return caches;
}

int max_cores_per_package(const std::vector<CpuModel::Core> &cores, int packages) {
  std::vector<int> count(static_cast<size_t>(packages), 0);
  for (const CpuModel::Core &core : cores)
    ++count[static_cast<size_t>(core.package)];
  return std::max(1, *std::max_element(count.begin(), count.end()));
}

/// Caches for a machine hwloc reported none for (common in containers and VMs). On the host,
/// glibc's sysconf may still know the sizes (from CPUID); sharing is then assumed to be the
/// usual one: L1 and L2 per core, L3 per package. A synthetic or XML machine is not the host, so
/// its sizes are assumed outright: L1d 32 KiB and L2 1 MiB per core, L3 2 MiB per core shared
/// by a package — middle-of-the-road server figures, flagged as assumed in the description.
std::vector<CacheLevel> fallback_caches(bool ask_sysconf, int packages, int cores,
                                        int cores_per_package, bool &any_from_sysconf) {
  constexpr int64_t kKiB = 1024;
  constexpr int64_t kMiB = 1024 * kKiB;
  auto query = [&](int name) -> int64_t {
    if (!ask_sysconf)
      return 0;
    long value = sysconf(name);
    return value > 0 ? value : 0;
  };
  int64_t l1 = query(_SC_LEVEL1_DCACHE_SIZE);
  int64_t l2 = query(_SC_LEVEL2_CACHE_SIZE);
  int64_t l3 = query(_SC_LEVEL3_CACHE_SIZE);
  int64_t line = query(_SC_LEVEL1_DCACHE_LINESIZE);
  any_from_sysconf = l1 > 0 || l2 > 0 || l3 > 0;
  if (line == 0)
    line = 64;
  return {
      {1, l1 > 0 ? l1 : 32 * kKiB, line, 1, cores},
      {2, l2 > 0 ? l2 : 1 * kMiB, line, 1, cores},
      {3, l3 > 0 ? l3 : 2 * kMiB * cores_per_package, line, cores_per_package, packages},
  };
}

std::string format_bytes(int64_t bytes) {
  static constexpr const char *kUnits[] = {"GiB", "MiB", "KiB"};
  static constexpr int64_t kSizes[] = {int64_t{1} << 30, int64_t{1} << 20, int64_t{1} << 10};
  for (int i = 0; i < 3; ++i) {
    if (bytes < kSizes[i])
      continue;
    char text[32];
    if (bytes % kSizes[i] == 0)
      std::snprintf(text, sizeof text, "%lld %s", static_cast<long long>(bytes / kSizes[i]),
                    kUnits[i]);
    else
      std::snprintf(text, sizeof text, "%.1f %s",
                    static_cast<double>(bytes) / static_cast<double>(kSizes[i]), kUnits[i]);
    return text;
  }
  return std::to_string(bytes) + " B";
}

std::string count_of(int n, const char *singular, const char *plural) {
  return std::to_string(n) + " " + (n == 1 ? singular : plural);
}

std::string describe(const CpuModel &model, const std::string &cache_note) {
  std::string text = count_of(model.packages, "package", "packages") + ", " +
                     count_of(model.numa_nodes, "NUMA node", "NUMA nodes") + ", " +
                     count_of(model.cores, "core", "cores") + ", " +
                     count_of(model.pus, "PU", "PUs");
  const char *separator = "; ";
  for (const CacheLevel &cache : model.caches) {
    text += separator;
    separator = ", ";
    text += "L" + std::to_string(cache.level) + (cache.level == 1 ? "d " : " ") +
            format_bytes(cache.size_bytes);
    text += cache.shared_by_cores == 1
                ? " per core"
                : " shared by " + std::to_string(cache.shared_by_cores) + " cores";
    if (cache.instances > 1 && cache.shared_by_cores > 1)
      text += " (x" + std::to_string(cache.instances) + ")";
  }
  if (!cache_note.empty())
    text += " (" + cache_note + ")";
  return text;
}

enum class Origin { Host, Elsewhere };

CpuModel model_from_topology(hwloc_topology_t topology, std::string source, Origin origin) {
  CpuModel model;
  model.source = std::move(source);
  model.core_list = read_cores(topology);
  if (model.core_list.empty())
    throw std::invalid_argument("hwloc topology from " + model.source + " has no usable PU");
  model.cores = static_cast<int>(model.core_list.size());
  model.pus = 0;
  for (const CpuModel::Core &core : model.core_list)
    model.pus += static_cast<int>(core.pu_os_index.size());
  // hwloc 2 always creates at least one NUMA node and usually a package, but an XML file from an
  // older or stripped export may lack either: one of each is then the truthful default.
  model.packages = std::max(1, hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_PACKAGE));
  model.numa_nodes = std::max(1, hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_NUMANODE));

  model.caches = read_caches(topology);
  std::string cache_note;
  if (model.caches.empty()) {
    bool from_sysconf = false;
    model.caches =
        fallback_caches(origin == Origin::Host, model.packages, model.cores,
                        max_cores_per_package(model.core_list, model.packages), from_sysconf);
    model.caches_assumed = true;
    cache_note = from_sysconf ? "hwloc reported no caches: sizes from sysconf, sharing assumed"
                              : "hwloc reported no caches: sizes assumed";
  }
  model.description = describe(model, cache_note);
  if (hwloc_obj_t package = hwloc_get_obj_by_type(topology, HWLOC_OBJ_PACKAGE, 0))
    if (const char *name = hwloc_obj_get_info_by_name(package, "CPUModel"))
      model.cpu_name = name;
  return model;
}

} // namespace

int CpuModel::cores_per_numa_node() const {
  std::vector<int> count(static_cast<size_t>(numa_nodes), 0);
  for (const Core &core : core_list)
    ++count[static_cast<size_t>(core.numa_node)];
  int smallest = 0;
  for (int n : count)
    if (n > 0 && (smallest == 0 || n < smallest))
      smallest = n;
  return std::max(smallest, 1);
}

const CacheLevel *CpuModel::last_level_cache() const {
  return caches.empty() ? nullptr : &caches.back();
}

int64_t CpuModel::cache_bytes_per_core(int level) const {
  for (const CacheLevel &cache : caches)
    if (cache.level == level)
      return cache.size_bytes / std::max(cache.shared_by_cores, 1);
  return 0;
}

std::vector<int> CpuModel::placement(int nthreads) const {
  if (nthreads < 1 || nthreads > pus)
    throw std::invalid_argument("Cannot place " + std::to_string(nthreads) +
                                " threads on a machine with " + std::to_string(pus) +
                                " hardware threads");
  // Domains are the (package, NUMA node) pairs in logical order; core_list is in logical order,
  // so each domain's cores come out in order too.
  std::vector<std::pair<int, int>> keys;
  std::vector<std::vector<const Core *>> domains;
  for (const Core &core : core_list) {
    std::pair<int, int> key{core.package, core.numa_node};
    auto it = std::find(keys.begin(), keys.end(), key);
    if (it == keys.end()) {
      keys.push_back(key);
      domains.emplace_back();
      it = keys.end() - 1;
    }
    domains[static_cast<size_t>(it - keys.begin())].push_back(&core);
  }
  // Visit domains alternating packages: the r-th domain of each package, for r = 0, 1, ...
  std::vector<size_t> order(domains.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  auto rank_in_package = [&](size_t d) {
    return std::count_if(keys.begin(), keys.begin() + static_cast<ptrdiff_t>(d),
                         [&](const auto &key) { return key.first == keys[d].first; });
  };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::pair(rank_in_package(a), keys[a].first) <
           std::pair(rank_in_package(b), keys[b].first);
  });
  // Cores round robin over the domains, then the k-th PU of every core in that core order.
  std::vector<const Core *> core_order;
  size_t widest_core = 0;
  for (size_t round = 0; core_order.size() < core_list.size(); ++round)
    for (size_t d : order)
      if (round < domains[d].size()) {
        core_order.push_back(domains[d][round]);
        widest_core = std::max(widest_core, domains[d][round]->pu_os_index.size());
      }
  std::vector<int> cpus;
  for (size_t k = 0; k < widest_core && cpus.size() < static_cast<size_t>(nthreads); ++k)
    for (const Core *core : core_order)
      if (k < core->pu_os_index.size() && cpus.size() < static_cast<size_t>(nthreads))
        cpus.push_back(core->pu_os_index[k]);
  return cpus;
}

CpuModel cpu_model_from_host() {
  Topology topology = new_topology();
  if (hwloc_topology_load(topology.get()) != 0)
    throw std::runtime_error("Cannot read this machine's topology with hwloc: " +
                             std::string(std::strerror(errno)));
  return model_from_topology(topology.get(), "host", Origin::Host);
}

CpuModel cpu_model_from_synthetic(const std::string &description) {
  auto step = [&](hwloc_topology_t topology) {
    if (hwloc_topology_set_synthetic(topology, description.c_str()) != 0)
      return -1;
    return hwloc_topology_load(topology);
  };
  Topology topology = new_topology();
  if (step(topology.get()) != 0) {
    std::string why = hwloc_complaint("HWLOC_SYNTHETIC_VERBOSE", step);
    throw std::invalid_argument("Invalid hwloc synthetic topology '" + description +
                                "': " + (why.empty() ? std::strerror(EINVAL) : why));
  }
  return model_from_topology(topology.get(), "synthetic:" + description, Origin::Elsewhere);
}

CpuModel cpu_model_from_xml(const std::string &path) {
  // hwloc explains a bad XML file only with HWLOC_XML_VERBOSE, which it reads once per process
  // and caches (so the child-process trick used for synthetic strings cannot turn it on after
  // the first attempt). The usual mistakes are caught here instead, and the message says how to
  // get hwloc's own reasons for the rest.
  std::ifstream file(path);
  if (!file)
    throw std::invalid_argument("Cannot read hwloc XML topology '" + path +
                                "': " + std::strerror(errno));
  std::string head(4096, '\0');
  file.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(file.gcount()));
  if (head.find("<topology") == std::string::npos)
    throw std::invalid_argument("Invalid hwloc XML topology '" + path +
                                "': no <topology> element near its start (write one with "
                                "'lstopo FILE.xml')");
  Topology topology = new_topology();
  if (hwloc_topology_set_xml(topology.get(), path.c_str()) != 0 ||
      hwloc_topology_load(topology.get()) != 0)
    throw std::invalid_argument("Invalid hwloc XML topology '" + path +
                                "': hwloc cannot load it (HWLOC_XML_VERBOSE=1 lstopo --input '" +
                                path + "' says why)");
  return model_from_topology(topology.get(), "xml:" + path, Origin::Elsewhere);
}

} // namespace f2s
