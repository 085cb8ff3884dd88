#include "targets/Targets.h"

#include "targets/CpuTarget.h"
#include "targets/CudaTarget.h"

#include <algorithm>
#include <functional>

namespace f2s {

namespace {

struct Registered {
  std::vector<std::string> names; ///< the names the target can build
  std::function<std::unique_ptr<Target>(std::vector<std::string>)> make;
};

/// The one list a new target joins, in the order targets run.
const std::vector<Registered> &registry() {
  static const std::vector<Registered> targets = {
      {{"c", "pthreads"},
       [](std::vector<std::string> names) { return std::make_unique<CpuTarget>(names); }},
      {{"cuda"},
       [](std::vector<std::string> names) { return std::make_unique<CudaTarget>(names); }},
  };
  return targets;
}

} // namespace

std::vector<std::string> target_names() {
  std::vector<std::string> names;
  for (const Registered &r : registry())
    names.insert(names.end(), r.names.begin(), r.names.end());
  return names;
}

std::vector<std::unique_ptr<Target>> make_targets(const std::vector<std::string> &names) {
  std::vector<std::unique_ptr<Target>> targets;
  for (const Registered &r : registry()) {
    std::vector<std::string> asked;
    for (const std::string &n : names)
      if (std::find(r.names.begin(), r.names.end(), n) != r.names.end())
        asked.push_back(n);
    if (!asked.empty())
      targets.push_back(r.make(std::move(asked)));
  }
  return targets;
}

} // namespace f2s
