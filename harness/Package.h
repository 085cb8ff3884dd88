// The library builder's input: what was chosen for every kernel, turned into
// the library's sources, module, header, tuning record and report.
#pragma once

#include "harness/LibraryBuilder.h"
#include "harness/Tuner.h"

#include <optional>
#include <string>
#include <vector>

namespace f2s {

/// The code packaged for one kernel and one target.
struct Choice {
  VariantCode code;
  Candidate candidate;
};

struct KernelBuild {
  Kernel kernel;
  std::vector<Choice> choices;        ///< one per target, in the order asked for
  size_t default_choice = 0;          ///< which one the plain entry point runs
  std::optional<KernelTuning> tuning; ///< absent with --no-tune
};

struct PackageInfo {
  std::string name;                 ///< NAME: module, files, symbol prefix
  std::vector<std::string> sources; ///< the Fortran files read
  std::string machine;              ///< where it was tuned, in words
  std::vector<std::string> cflags;
};

/// Everything the library builder writes. For each kernel K the library
/// exports `K` (symbol NAME_K), running the default choice, and `K_<target>`
/// for each target.
LibraryFiles package_library(const PackageInfo &info, const std::vector<KernelBuild> &kernels);

/// The whole C source of the library (what --emit=c prints).
std::string library_c_source(const PackageInfo &info, const std::vector<KernelBuild> &kernels);

} // namespace f2s
