#include "harness/CudaPackage.h"

#include "codegen/CPrinter.h"
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
    std::vector<const KernelBuild *> sizes = {&b};
    for (const KernelBuild &s : b.other_sizes)
      sizes.push_back(&s);
    for (const KernelBuild *s : sizes)
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
      const Variant &v = b.choices[b.default_choice].code.variant;
      // The kernel and its launcher: the box entry launches on the device
      // copies, so the variant's run function (which maps host grids) would
      // be dead code.
      cu << print_c_args_struct(box)
         << print_cuda_variant(cuda_variant_code(box, v).ir, v.target + "_" + v.name, false)
         << print_cuda_box_entry(box, v.target + "_" + v.name,
                                 info.name + "_" + b.kernel.name + "_box_cuda");
    }
  }
  files.cuda_source = cu.str();

  insert_before(files.header, "#ifdef __cplusplus\n}",
                "#include <stddef.h>\n" + print_cuda_data_c_prototypes(info.name) + "\n");
  std::string publics;
  for (const char *what : {"enter", "update_host", "update_device", "exit", "delete", "transfers"})
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
