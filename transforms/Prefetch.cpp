#include "transforms/Prefetch.h"

#include "transforms/Names.h"
#include "transforms/PointLoops.h"

namespace f2s {

Kernel add_prefetch(const Kernel &k, const PrefetchOptions &options) {
  if (!options.enabled || !k.prefetch_distance.empty())
    return k;
  Kernel out = k;
  std::set<std::string> used = names::in_use(k);
  out.prefetch_distance = names::fresh(used, "pf");
  out.tuning.push_back(Variable{out.prefetch_distance, Type::Int32, {}, k.loc});
  return out;
}

} // namespace f2s
