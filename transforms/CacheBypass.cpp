#include "transforms/CacheBypass.h"

#include "ast/Analysis.h"

#include <algorithm>

namespace f2s {

Kernel bypass_cache(const Kernel &k, const CacheBypassOptions &options) {
  if (!options.enabled)
    return k;
  KernelFacts facts = analyze(k);
  Kernel out = k;
  out.streamed.clear();
  for (const std::string &g : facts.write_set)
    if (std::find(facts.read_set.begin(), facts.read_set.end(), g) == facts.read_set.end())
      out.streamed.push_back(g);
  return out;
}

} // namespace f2s
