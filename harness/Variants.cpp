#include "harness/Variants.h"

#include "codegen/CPrinter.h"
#include "harness/CudaVariants.h"
#include "transforms/ArrayIndexing.h"
#include "transforms/CacheBypass.h"
#include "transforms/Chunking.h"
#include "transforms/CommonSubexpressions.h"
#include "transforms/CoreBlocking.h"
#include "transforms/FirstTouch.h"
#include "transforms/Parallelize.h"
#include "transforms/Prefetch.h"
#include "transforms/RegisterBlocking.h"
#include "transforms/ThreadBlocking.h"

#include <cctype>
#include <stdexcept>

namespace f2s {

namespace {

/// A compile-time option of the variant; `fallback` (the pass's default)
/// when the variant does not set it.
int option(const Variant &v, const std::string &name, int fallback) {
  auto it = v.options.find(name);
  return it == v.options.end() ? fallback : it->second;
}

} // namespace

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
    case Pass::RegisterBlock: {
      RegisterBlockingOptions o;
      o.rx = option(v, "rx", o.rx);
      o.ry = option(v, "ry", o.ry);
      o.rz = option(v, "rz", o.rz);
      out = register_block(out, o);
      break;
    }
    case Pass::CommonSubexpressions:
      out = eliminate_common_subexpressions(out, {option(v, "cse", 1) != 0});
      break;
    case Pass::ArrayIndexing:
      out = choose_array_indexing(out, {option(v, "indexing", ArrayIndexingOptions{}.indexing)});
      break;
    case Pass::CacheBypass:
      out = bypass_cache(out, {option(v, "bypass", 1) != 0});
      break;
    case Pass::Prefetch:
      out = add_prefetch(out, {option(v, "prefetch", 1) != 0});
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
    // A pass names its parameter `pf2` when the kernel already has a `pf`;
    // the engine knows it by its plain name.
    if (it == c.tune.end()) {
      std::string base = p.name;
      while (!base.empty() && std::isdigit(static_cast<unsigned char>(base.back())))
        base.pop_back();
      it = c.tune.find(base);
    }
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
    if (v.target == "cuda") {
      code.push_back(cuda_variant_code(k, v));
      continue;
    }
    Kernel ir = apply_variant(k, v);
    std::string fn = c_variant_name(ir, v.target + "_" + v.name);
    code.push_back({v, ir, print_c_variant(ir, v.target + "_" + v.name), fn, {}});
    VariantCode &c = code.back();
    c.first_touch_ir = first_touch_variant(k, v, ir);
    c.first_touch_name = c_variant_name(c.first_touch_ir, v.target + "_" + v.name);
    c.first_touch_function = print_c_variant(c.first_touch_ir, v.target + "_" + v.name);
  }
  return code;
}

} // namespace f2s
