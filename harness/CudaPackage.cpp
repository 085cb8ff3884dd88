#include "harness/CudaPackage.h"

#include "codegen/CPrinter.h"
#include "codegen/CudaPrinter.h"
#include "codegen/Interfaces.h"

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

void add_cuda_to_library(LibraryFiles &files, const PackageInfo &info,
                         const std::vector<KernelBuild> &kernels, const std::string &gpu,
                         const std::map<std::string, std::map<size_t, CudaCandidateTimes>> &times) {
  std::ostringstream cu;
  cu << print_cuda_prelude();
  for (const KernelBuild &b : kernels) {
    cu << print_c_args_struct(b.kernel);
    std::set<std::string> printed;
    for (const Choice &c : b.choices)
      if (c.code.variant.target == "cuda" && printed.insert(c.code.c_name).second)
        cu << c.code.cuda_source;
  }
  cu << print_cuda_data_exports(info.name);
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
  for (nlohmann::json &kj : record["kernels"]) {
    auto t = times.find(kj.value("name", ""));
    if (t == times.end() || !kj.contains("candidates"))
      continue;
    // Candidates are recorded in the order of the tuning results.
    for (const auto &[index, tt] : t->second)
      if (index < kj["candidates"].size()) {
        kj["candidates"][index]["h2d_s"] = tt.h2d_s;
        kj["candidates"][index]["d2h_s"] = tt.d2h_s;
      }
  }
  files.tuning_record = record.dump(2) + "\n";
}

} // namespace f2s
