#include "harness/CudaPackage.h"

#include "codegen/CPrinter.h"
#include "codegen/CSizeDispatch.h"
#include "codegen/CudaPrinter.h"
#include "codegen/Interfaces.h"
#include "harness/CudaVariants.h"
#include "transforms/RestrictToBox.h"

#include <nlohmann/json.hpp>

#include <set>
#include <sstream>
#include <stdexcept>

namespace f2s {

namespace {

void insert_before(std::string &text, const std::string &marker, const std::string &what) {
  size_t at = text.rfind(marker);
  if (at == std::string::npos)
    throw std::logic_error("CUDA packaging: '" + marker + "' not found in the generated text");
  text.insert(at, what);
}

/// The builds of `b`'s kernel at each tuning size, smallest working set first.
std::vector<const KernelBuild *> sizes_of(const KernelBuild &b) {
  std::vector<const KernelBuild *> sizes = {&b};
  for (const KernelBuild &s : b.other_sizes)
    sizes.push_back(&s);
  return sizes;
}

/// The choice at one size that runs on the GPU: the default where it does
/// (as at the first size, for a kernel whose K_mpi computes there), else the
/// cuda target's.
const Choice &gpu_choice(const KernelBuild &at) {
  const Choice &d = at.choices[at.default_choice];
  if (d.code.runs_on_gpu())
    return d;
  for (const Choice &c : at.choices)
    if (c.code.runs_on_gpu())
      return c;
  throw std::logic_error("no GPU choice for '" + at.kernel.name + "' at one of its sizes");
}

} // namespace

bool cuda_box_for_mpi(const KernelBuild &b) {
  return b.choices[b.default_choice].code.runs_on_gpu();
}

std::string cuda_times_key(const std::string &kernel, size_t size) {
  return size ? kernel + "@" + std::to_string(size) : kernel;
}

void add_cuda_to_library(LibraryFiles &files, const PackageInfo &info,
                         const std::vector<KernelBuild> &kernels, const std::string &gpu,
                         const std::map<std::string, std::map<size_t, CudaCandidateTimes>> &times) {
  std::ostringstream cu;
  cu << print_cuda_prelude();
  for (const KernelBuild &b : kernels) {
    cu << print_c_args_struct(b.kernel);
    std::set<std::string> printed;
    for (const KernelBuild *s : sizes_of(b))
      for (const Choice &c : s->choices)
        if (c.code.runs_on_gpu() && printed.insert(c.code.c_name).second)
          cu << c.code.cuda_source;
  }
  cu << print_cuda_data_exports(info.name);
  if (info.mpi) {
    // The device side of the halo exchanges (docs/mpi.md, "On the GPU"), and
    // for K_mpi the kernel on a box of its points, mapped as its default
    // choice is.
    cu << print_cuda_halo_exports(info.name);
    for (const KernelBuild &b : kernels) {
      if (!cuda_box_for_mpi(b))
        continue;
      Kernel box = restrict_to_box(b.kernel);
      cu << print_c_args_struct(box);
      // At each tuned size, the mapping of that size's GPU choice. Each is
      // printed once, as its kernel and launcher: the box entry launches on
      // the device copies, so a run function (which maps host grids) would
      // be dead code.
      std::vector<std::string> variants;
      std::set<std::string> printed_boxes;
      for (const KernelBuild *s : sizes_of(b)) {
        const Variant &v = gpu_choice(*s).code.variant;
        variants.push_back(v.target + "_" + v.name);
        if (printed_boxes.insert(variants.back()).second)
          cu << print_cuda_variant(map_cuda_variant(box, v), variants.back(), false);
      }
      std::string selector;
      if (std::set<std::string>(variants.begin(), variants.end()).size() > 1) {
        selector = "f2s_" + box.name + "_nearest_size";
        cu << print_c_size_selector(b.kernel, box.name, selector, tuned_sizes(b),
                                    bytes_per_point(b.kernel));
      }
      cu << print_cuda_box_entry(box, variants, info.name + "_" + b.kernel.name + "_box_cuda",
                                 selector);
    }
  }
  files.cuda_source = cu.str();

  insert_before(files.header, "#ifdef __cplusplus\n}",
                "#include <stddef.h>\n" + print_cuda_data_c_prototypes(info.name) + "\n");
  std::string publics;
  for (const char *what : {"enter", "update_host", "update_device", "exit", "delete",
                           "update_host_if_present", "update_device_if_present", "transfers"})
    publics += "  public :: " + info.name + "_data_" + what + "\n";
  insert_before(files.fortran_module, "\n  interface\n", wrap_fortran_lines(publics));
  insert_before(files.fortran_module, "  end interface\n",
                print_cuda_data_fortran_interfaces(info.name));

  // The record says which GPU, and what the transfers the kernel times
  // exclude cost.
  nlohmann::json record = nlohmann::json::parse(files.tuning_record);
  record["gpu"] = gpu.empty() ? nlohmann::json() : nlohmann::json(gpu);
  // Candidates are recorded in the order of the tuning results, at each size
  // of a kernel tuned at several (harness/Package.cpp's "sizes").
  auto add_times = [&](nlohmann::json &kj, const std::string &key) {
    auto t = times.find(key);
    if (t == times.end() || !kj.contains("candidates"))
      return;
    for (const auto &[index, tt] : t->second)
      if (index < kj["candidates"].size()) {
        kj["candidates"][index]["h2d_s"] = tt.h2d_s;
        kj["candidates"][index]["d2h_s"] = tt.d2h_s;
      }
  };
  for (nlohmann::json &kj : record["kernels"]) {
    std::string name = kj.value("name", "");
    add_times(kj, cuda_times_key(name, 0));
    if (kj.contains("sizes"))
      for (size_t i = 0; i < kj["sizes"].size(); ++i)
        add_times(kj["sizes"][i], cuda_times_key(name, i));
  }
  files.tuning_record = record.dump(2) + "\n";
}

} // namespace f2s
