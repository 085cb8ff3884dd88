#include "strategy/MachineModel.h"

#include <gtest/gtest.h>
#include <hwloc.h>

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>
#include <stdexcept>

namespace f2s {
namespace {

// Two sockets, each with two NUMA nodes of eight two-way SMT cores; one L3 per NUMA node.
const char *const kTwoSocket =
    "pack:2 numa:2 l3:1(size=32MiB) core:8 l2:1(size=1MiB) l1d:1(size=32KiB) pu:2";

constexpr int64_t KiB = 1024;
constexpr int64_t MiB = 1024 * KiB;

/// Index in core_list of the core that owns PU `os_index`, or -1.
int core_of(const CpuModel &model, int os_index) {
  for (size_t i = 0; i < model.core_list.size(); ++i) {
    const auto &pus = model.core_list[i].pu_os_index;
    if (std::find(pus.begin(), pus.end(), os_index) != pus.end())
      return static_cast<int>(i);
  }
  return -1;
}

TEST(MachineModel, TwoSocketCounts) {
  CpuModel model = cpu_model_from_synthetic(kTwoSocket);
  EXPECT_EQ(model.source, std::string("synthetic:") + kTwoSocket);
  EXPECT_EQ(model.packages, 2);
  EXPECT_EQ(model.numa_nodes, 4);
  EXPECT_EQ(model.cores, 32);
  EXPECT_EQ(model.pus, 64);
  EXPECT_EQ(model.cores_per_numa_node(), 8);
  ASSERT_EQ(model.core_list.size(), 32u);
  // Logical order: cores 0-7 on node 0 of package 0, 8-15 on node 1, 16-23 on node 2 of
  // package 1; synthetic PU OS indexes are consecutive.
  EXPECT_EQ(model.core_list[0].package, 0);
  EXPECT_EQ(model.core_list[0].numa_node, 0);
  EXPECT_EQ(model.core_list[0].pu_os_index, (std::vector<int>{0, 1}));
  EXPECT_EQ(model.core_list[8].package, 0);
  EXPECT_EQ(model.core_list[8].numa_node, 1);
  EXPECT_EQ(model.core_list[16].package, 1);
  EXPECT_EQ(model.core_list[16].numa_node, 2);
  EXPECT_EQ(model.core_list[16].first_pu(), 32);
  EXPECT_EQ(model.core_list[31].package, 1);
  EXPECT_EQ(model.core_list[31].numa_node, 3);
  EXPECT_EQ(model.core_list[31].pu_os_index, (std::vector<int>{62, 63}));
}

TEST(MachineModel, TwoSocketCaches) {
  CpuModel model = cpu_model_from_synthetic(kTwoSocket);
  EXPECT_FALSE(model.caches_assumed);
  ASSERT_EQ(model.caches.size(), 3u);
  const CacheLevel &l1 = model.caches[0], &l2 = model.caches[1], &l3 = model.caches[2];
  EXPECT_EQ(l1.level, 1);
  EXPECT_EQ(l1.size_bytes, 32 * KiB);
  EXPECT_EQ(l1.line_bytes, 64);
  EXPECT_EQ(l1.shared_by_cores, 1);
  EXPECT_EQ(l1.instances, 32);
  EXPECT_EQ(l2.level, 2);
  EXPECT_EQ(l2.size_bytes, 1 * MiB);
  EXPECT_EQ(l2.shared_by_cores, 1);
  EXPECT_EQ(l3.level, 3);
  EXPECT_EQ(l3.size_bytes, 32 * MiB);
  EXPECT_EQ(l3.shared_by_cores, 8);
  EXPECT_EQ(l3.instances, 4);
  ASSERT_NE(model.last_level_cache(), nullptr);
  EXPECT_EQ(model.last_level_cache()->level, 3);
  EXPECT_EQ(model.cache_bytes_per_core(1), 32 * KiB);
  EXPECT_EQ(model.cache_bytes_per_core(3), 4 * MiB);
  EXPECT_EQ(model.cache_bytes_per_core(4), 0);
  EXPECT_EQ(model.description, "2 packages, 4 NUMA nodes, 32 cores, 64 PUs; L1d 32 KiB per core, "
                               "L2 1 MiB per core, L3 32 MiB shared by 8 cores (x4)");
}

TEST(MachineModel, SyntheticDecimalUnitsArePowersOfTen) {
  // Pins the documented hwloc behaviour: "KB" is 1000 bytes, "KiB" 1024.
  CpuModel model = cpu_model_from_synthetic("pack:1 l1d:1(size=32KB) core:1 pu:1");
  ASSERT_EQ(model.caches.size(), 1u);
  EXPECT_EQ(model.caches[0].size_bytes, 32000);
}

TEST(MachineModel, PlacementSpreadsOverNumaNodesAndPackagesFirst) {
  CpuModel model = cpu_model_from_synthetic(kTwoSocket);
  // Node 0 (package 0), node 2 (package 1), node 1 (package 0), node 3 (package 1).
  std::vector<int> four = model.placement(4);
  EXPECT_EQ(four, (std::vector<int>{0, 32, 16, 48}));
  std::set<int> nodes, packages;
  for (int cpu : four) {
    const CpuModel::Core &core = model.core_list[static_cast<size_t>(core_of(model, cpu))];
    nodes.insert(core.numa_node);
    packages.insert(core.package);
  }
  EXPECT_EQ(nodes.size(), 4u);
  EXPECT_EQ(packages.size(), 2u);
  // Two threads: one per package.
  std::vector<int> two = model.placement(2);
  EXPECT_NE(model.core_list[static_cast<size_t>(core_of(model, two[0]))].package,
            model.core_list[static_cast<size_t>(core_of(model, two[1]))].package);
}

TEST(MachineModel, PlacementUsesEveryCoreBeforeSecondPus) {
  CpuModel model = cpu_model_from_synthetic(kTwoSocket);
  std::vector<int> cpus = model.placement(32);
  ASSERT_EQ(cpus.size(), 32u);
  std::set<int> cores;
  for (int cpu : cpus) {
    int core = core_of(model, cpu);
    ASSERT_GE(core, 0) << cpu;
    EXPECT_EQ(model.core_list[static_cast<size_t>(core)].first_pu(), cpu);
    cores.insert(core);
  }
  EXPECT_EQ(cores.size(), 32u);
  // Each NUMA node gets 8 of the 32 threads.
  for (int node = 0; node < 4; ++node)
    EXPECT_EQ(std::count_if(
                  cpus.begin(), cpus.end(),
                  [&](int cpu) {
                    return model.core_list[static_cast<size_t>(core_of(model, cpu))].numa_node ==
                           node;
                  }),
              8);
  // The 33rd thread is the first core's second hardware thread.
  EXPECT_EQ(model.placement(33).back(), 1);
}

TEST(MachineModel, PlacementOfEveryPuIsAPermutationAndPrefixStable) {
  CpuModel model = cpu_model_from_synthetic(kTwoSocket);
  std::vector<int> all = model.placement(64);
  std::vector<int> sorted = all;
  std::sort(sorted.begin(), sorted.end());
  for (int i = 0; i < 64; ++i)
    EXPECT_EQ(sorted[static_cast<size_t>(i)], i);
  for (int n : {1, 3, 7, 17, 40}) {
    std::vector<int> some = model.placement(n);
    EXPECT_TRUE(std::equal(some.begin(), some.end(), all.begin())) << n;
  }
}

TEST(MachineModel, PlacementRejectsImpossibleCounts) {
  CpuModel model = cpu_model_from_synthetic(kTwoSocket);
  EXPECT_THROW(model.placement(65), std::invalid_argument);
  EXPECT_THROW(model.placement(0), std::invalid_argument);
  EXPECT_THROW(model.placement(-1), std::invalid_argument);
}

TEST(MachineModel, SingleCore) {
  CpuModel model = cpu_model_from_synthetic("pack:1 l2:1(size=2MiB) l1d:1(size=48KiB) core:1 pu:1");
  EXPECT_EQ(model.packages, 1);
  EXPECT_EQ(model.numa_nodes, 1);
  EXPECT_EQ(model.cores, 1);
  EXPECT_EQ(model.pus, 1);
  EXPECT_EQ(model.cores_per_numa_node(), 1);
  ASSERT_EQ(model.caches.size(), 2u);
  EXPECT_EQ(model.caches[0].size_bytes, 48 * KiB);
  EXPECT_EQ(model.last_level_cache()->level, 2);
  EXPECT_EQ(model.last_level_cache()->size_bytes, 2 * MiB);
  EXPECT_EQ(model.placement(1), std::vector<int>{0});
  EXPECT_THROW(model.placement(2), std::invalid_argument);
  EXPECT_EQ(model.description, "1 package, 1 NUMA node, 1 core, 1 PU; L1d 48 KiB per core, "
                               "L2 2 MiB per core");
}

TEST(MachineModel, NoCachesFallsBackToStatedAssumptions) {
  // Without cache levels hwloc reports none. A synthetic machine is not the host, so its sizes
  // must be the documented assumptions, not this machine's sysconf figures.
  CpuModel model = cpu_model_from_synthetic("pack:2 core:4 pu:2");
  EXPECT_TRUE(model.caches_assumed);
  EXPECT_EQ(model.numa_nodes, 1);
  ASSERT_EQ(model.caches.size(), 3u);
  EXPECT_EQ(model.caches[0].size_bytes, 32 * KiB);
  EXPECT_EQ(model.caches[1].size_bytes, 1 * MiB);
  EXPECT_EQ(model.caches[2].size_bytes, 8 * MiB);
  EXPECT_EQ(model.caches[2].shared_by_cores, 4);
  EXPECT_EQ(model.caches[2].instances, 2);
  EXPECT_EQ(model.cache_bytes_per_core(3), 2 * MiB);
  EXPECT_NE(model.description.find("sizes assumed"), std::string::npos) << model.description;
  // One NUMA node but two packages: two threads still go to different packages.
  EXPECT_EQ(model.placement(2), (std::vector<int>{0, 8}));
}

TEST(MachineModel, HostModelIsSelfConsistent) {
  CpuModel model = cpu_model_from_host();
  EXPECT_EQ(model.source, "host");
  EXPECT_GE(model.packages, 1);
  EXPECT_GE(model.numa_nodes, 1);
  EXPECT_GE(model.cores, 1);
  EXPECT_GE(model.pus, model.cores);
  EXPECT_EQ(model.core_list.size(), static_cast<size_t>(model.cores));
  // hwloc keeps only the PUs this process may run on, so the model agrees with the affinity mask.
  cpu_set_t allowed;
  ASSERT_EQ(sched_getaffinity(0, sizeof allowed, &allowed), 0);
  EXPECT_EQ(model.pus, CPU_COUNT(&allowed));
  ASSERT_FALSE(model.caches.empty());
  for (size_t i = 0; i < model.caches.size(); ++i) {
    EXPECT_GT(model.caches[i].size_bytes, 0);
    EXPECT_GT(model.caches[i].line_bytes, 0);
    EXPECT_GE(model.caches[i].shared_by_cores, 1);
    if (i > 0) {
      EXPECT_GT(model.caches[i].level, model.caches[i - 1].level);
    }
  }
  EXPECT_FALSE(model.description.empty());

  std::vector<int> per_core = model.placement(model.cores);
  std::set<int> cores;
  for (int cpu : per_core) {
    EXPECT_TRUE(CPU_ISSET(cpu, &allowed)) << cpu;
    cores.insert(core_of(model, cpu));
  }
  EXPECT_EQ(cores.size(), static_cast<size_t>(model.cores));
  EXPECT_EQ(cores.count(-1), 0u);
  std::vector<int> every = model.placement(model.pus);
  EXPECT_EQ(std::set<int>(every.begin(), every.end()).size(), static_cast<size_t>(model.pus));
}

TEST(MachineModel, BadSyntheticThrowsWithHwlocsReason) {
  try {
    cpu_model_from_synthetic("pack:2 bogus:3 pu:1");
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument &e) {
    std::string what = e.what();
    EXPECT_NE(what.find("pack:2 bogus:3 pu:1"), std::string::npos) << what;
    EXPECT_NE(what.find("unknown object type"), std::string::npos) << what;
  }
  EXPECT_THROW(cpu_model_from_synthetic(""), std::invalid_argument);
  EXPECT_THROW(cpu_model_from_synthetic("pack:2 core:0 pu:1"), std::invalid_argument);
}

/// A temporary file path that is removed at the end of the test.
struct TempFile {
  std::string path;
  explicit TempFile(const char *name)
      : path(testing::TempDir() + name + std::to_string(getpid()) + ".xml") {}
  ~TempFile() { std::remove(path.c_str()); }
};

TEST(MachineModel, XmlRoundTrip) {
  hwloc_topology_t topology;
  ASSERT_EQ(hwloc_topology_init(&topology), 0);
  ASSERT_EQ(hwloc_topology_set_synthetic(topology, kTwoSocket), 0);
  ASSERT_EQ(hwloc_topology_load(topology), 0);
  TempFile file("f2s_machine_model_");
  int exported = hwloc_topology_export_xml(topology, file.path.c_str(), 0);
  hwloc_topology_destroy(topology);
  ASSERT_EQ(exported, 0);

  CpuModel from_xml = cpu_model_from_xml(file.path);
  CpuModel expected = cpu_model_from_synthetic(kTwoSocket);
  EXPECT_EQ(from_xml.source, "xml:" + file.path);
  EXPECT_EQ(from_xml.description, expected.description);
  EXPECT_EQ(from_xml.packages, 2);
  EXPECT_EQ(from_xml.numa_nodes, 4);
  EXPECT_EQ(from_xml.cores, 32);
  EXPECT_EQ(from_xml.pus, 64);
  ASSERT_EQ(from_xml.caches.size(), expected.caches.size());
  for (size_t i = 0; i < expected.caches.size(); ++i) {
    EXPECT_EQ(from_xml.caches[i].size_bytes, expected.caches[i].size_bytes);
    EXPECT_EQ(from_xml.caches[i].shared_by_cores, expected.caches[i].shared_by_cores);
    EXPECT_EQ(from_xml.caches[i].instances, expected.caches[i].instances);
  }
  ASSERT_EQ(from_xml.core_list.size(), expected.core_list.size());
  for (size_t i = 0; i < expected.core_list.size(); ++i) {
    EXPECT_EQ(from_xml.core_list[i].package, expected.core_list[i].package) << i;
    EXPECT_EQ(from_xml.core_list[i].numa_node, expected.core_list[i].numa_node) << i;
    EXPECT_EQ(from_xml.core_list[i].pu_os_index, expected.core_list[i].pu_os_index) << i;
  }
  EXPECT_EQ(from_xml.placement(64), expected.placement(64));
}

/// The message of the std::invalid_argument that cpu_model_from_xml(path) throws, or "".
std::string xml_error(const std::string &path) {
  try {
    cpu_model_from_xml(path);
  } catch (const std::invalid_argument &e) {
    return e.what();
  }
  return "";
}

TEST(MachineModel, BadXmlThrows) {
  EXPECT_NE(xml_error("/nonexistent/f2s/topology.xml").find("No such file"), std::string::npos);
  TempFile text("f2s_not_a_topology_");
  std::ofstream(text.path) << "this is not XML\n";
  EXPECT_NE(xml_error(text.path).find("no <topology> element"), std::string::npos);
  TempFile truncated("f2s_truncated_topology_");
  std::ofstream(truncated.path) << "<?xml version=\"1.0\"?>\n<topology version=\"2.0\">\n"
                                   "<object type=\"Machine\"";
  EXPECT_NE(xml_error(truncated.path).find("hwloc cannot load it"), std::string::npos);
}

} // namespace
} // namespace f2s
