#include "harness/CudaVariants.h"

#include "codegen/CPrinter.h"
#include "codegen/CudaPrinter.h"
#include "transforms/CudaPlaneSums.h"
#include "transforms/CudaStaging.h"
#include "transforms/Parallelize.h"

namespace f2s {

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
  Kernel ir = map_cuda(k, cuda_mapping_options(v));
  if (auto sh = v.options.find("sh"); sh != v.options.end() && sh->second)
    ir = stage_planes(ir, choose_shared_grids(ir, kStaticSharedBytes));
  if (auto sum = v.options.find("sum"); sum != v.options.end() && sum->second)
    ir = sum_planes(ir);
  else
    ir = pipeline_columns(ir);
  // The CPU path of the same entry point: the plain parallel nest.
  std::string fallback = variant + "_cpu";
  std::string c = print_c_variant(parallelize_outer(k), fallback) +
                  print_cuda_host_stub(k, variant, c_variant_name(k, fallback));
  return {v, ir, c, c_variant_name(k, variant), print_cuda_variant(ir, variant)};
}

} // namespace f2s
