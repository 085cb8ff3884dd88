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
  // A grid that some points leave unwritten cannot go through a row
  // buffer: the copy back would write the buffer's stale values there.
  auto in = [](const std::vector<std::string> &set, const std::string &g) {
    return std::find(set.begin(), set.end(), g) != set.end();
  };
  for (const std::string &g : facts.write_set)
    if (!in(facts.read_set, g) && !in(facts.conditional_write_set, g))
      out.streamed.push_back(g);
  return out;
}

} // namespace f2s
