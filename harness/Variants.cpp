#include "harness/Variants.h"

#include "codegen/CPrinter.h"
#include "transforms/Chunking.h"
#include "transforms/CoreBlocking.h"
#include "transforms/FirstTouch.h"
#include "transforms/Parallelize.h"
#include "transforms/ThreadBlocking.h"

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
    case Pass::Chunking:
      out = chunk_blocks(out);
      break;
    case Pass::ThreadBlocking:
      out = block_threads(out);
      break;
    }
  }
  return out;
}

Kernel first_touch_variant(const Kernel &k, const Variant &v, const Kernel &variant_ir) {
  // Only the passes that decide which thread runs which point; the per-point
  // passes change how a point is computed, not where.
  Variant decomposition = v;
  decomposition.passes.clear();
  for (Pass p : v.passes)
    if (p == Pass::BlockLoops || p == Pass::ParallelizeOuter || p == Pass::Chunking ||
        p == Pass::ThreadBlocking)
      decomposition.passes.push_back(p);
  Kernel ft = apply_variant(first_touch_kernel(k), decomposition);
  for (const Variable &t : ft.tuning) {
    bool shared = false;
    for (const Variable &u : variant_ir.tuning)
      shared |= u.name == t.name;
    if (!shared)
      throw std::logic_error("first touch of variant '" + v.name + "' has tuning parameter '" +
                             t.name + "' that the variant lacks");
  }
  ft.tuning = variant_ir.tuning;
  return ft;
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
    VariantCode &c = code.back();
    c.first_touch_ir = first_touch_variant(k, v, ir);
    c.first_touch_name = c_variant_name(c.first_touch_ir, v.target + "_" + v.name);
    c.first_touch_function = print_c_variant(c.first_touch_ir, v.target + "_" + v.name);
  }
  return code;
}

} // namespace f2s
