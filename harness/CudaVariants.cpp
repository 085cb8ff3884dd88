#include "harness/CudaVariants.h"

#include "ast/Aliasing.h"
#include "codegen/CPrinter.h"
#include "codegen/CudaPrinter.h"
#include "transforms/CudaPlaneSums.h"
#include "transforms/CudaStaging.h"

#include <map>

namespace f2s {

namespace {

/// The aliasings (ast/Aliasing's `safe`, likeliest first) a CUDA variant has
/// a form for; a call with another runs on the CPU. Each is one more kernel
/// to compile, and a legacy code passes one array as two in one way or two.
constexpr size_t kMaxGpuAliasings = 2;

} // namespace

Kernel map_cuda_variant(const Kernel &k, const Variant &v) {
  Kernel ir = map_cuda(k, cuda_mapping_options(v));
  if (auto sh = v.options.find("sh"); sh != v.options.end() && sh->second)
    ir = stage_planes(ir, choose_shared_grids(ir, kStaticSharedBytes));
  if (auto sum = v.options.find("sum"); sum != v.options.end() && sum->second)
    return sum_planes(ir);
  return pipeline_columns(ir);
}

CudaMappingOptions cuda_mapping_options(const Variant &v) {
  CudaMappingOptions o;
  auto get = [&](const char *name, int fallback) {
    auto it = v.options.find(name);
    return it == v.options.end() ? fallback : it->second;
  };
  o.block_x = get("bx", o.block_x);
  o.block_y = get("by", o.block_y);
  o.points_x = get("px", o.points_x);
  o.points_y = get("py", o.points_y);
  o.stream_z = get("sz", o.stream_z);
  return o;
}

VariantCode cuda_variant_code(const Kernel &k, const Variant &v) {
  std::string variant = v.target + "_" + v.name;
  Kernel ir = map_cuda_variant(k, v);
  // A call passing one array as two arguments, where the nest with them
  // identified is still free of dependences, runs that nest, mapped alike:
  // no two restrict pointers of the GPU code then name one array, and a
  // value one statement stores is the value a later one loads.
  std::string cuda;
  std::vector<std::string> aliased;
  Aliasing al = analyze_aliasing(k);
  for (size_t s = 0; needs_aliasing_check(al) && s < al.safe.size() && s < kMaxGpuAliasings; ++s) {
    std::map<std::string, std::string> same_as;
    for (size_t i = 0; i < al.grids.size(); ++i)
      if (al.safe[s][i] != static_cast<int>(i))
        same_as[al.grids[i]] = al.grids[al.safe[s][i]];
    aliased.push_back(variant + "_aliased" + std::to_string(s + 1));
    cuda +=
        print_cuda_variant(map_cuda_variant(identify_grids(k, same_as), v), aliased.back(), false);
  }
  cuda += print_cuda_variant(ir, variant, true, aliased);
  return {v, ir, print_cuda_run_prototype(k, variant), c_variant_name(k, variant), cuda};
}

} // namespace f2s
