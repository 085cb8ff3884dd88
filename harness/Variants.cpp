#include "harness/Variants.h"

#include "codegen/CPrinter.h"
#include "transforms/CoreBlocking.h"
#include "transforms/Parallelize.h"

#include <stdexcept>

namespace f2s {

Kernel apply_variant(const Kernel &k, const Variant &v) {
  Kernel out = k;
  for (Pass p : v.passes) {
    switch (p) {
    case Pass::BlockLoops:
      out = block_loops(out);
      break;
    case Pass::ParallelizeOuter:
      out = parallelize_outer(out);
      break;
    }
  }
  return out;
}

std::vector<long> tune_values(const VariantCode &variant, const Candidate &c) {
  std::vector<long> values;
  for (const Variable &p : variant.ir.tuning) {
    auto it = c.tune.find(p.name);
    if (it == c.tune.end())
      throw std::logic_error("candidate has no value for tuning parameter '" + p.name +
                             "' of variant '" + variant.variant.name + "'");
    values.push_back(it->second);
  }
  return values;
}

std::vector<VariantCode> generate_variants(const Kernel &k, const SearchSpace &space) {
  std::vector<VariantCode> code;
  for (const Variant &v : space.variants) {
    Kernel ir = apply_variant(k, v);
    std::string fn = c_variant_name(ir, v.target + "_" + v.name);
    code.push_back({v, ir, print_c_variant(ir, v.target + "_" + v.name), fn});
  }
  return code;
}

} // namespace f2s
