// The targets f2stencil knows, and which of them a run's --target builds.
#pragma once

#include "targets/Target.h"

#include <memory>
#include <string>
#include <vector>

namespace f2s {

/// Every name --target accepts, in the order the targets run.
std::vector<std::string> target_names();

/// The targets that build `names` (each a name of target_names()), in the
/// order they run: the CPU target first (c and pthreads, tuned in one
/// search, so that its default choice is the fastest of both), then cuda,
/// whose choice becomes each kernel's default. A target none of whose names
/// is asked for is not made.
std::vector<std::unique_ptr<Target>> make_targets(const std::vector<std::string> &names);

} // namespace f2s
