// The code of one CUDA variant: the strategy's options turned into a mapped
// nest (transforms/CudaMapping) and printed (codegen/CudaPrinter).
#pragma once

#include "harness/Variants.h"
#include "transforms/CudaMapping.h"

namespace f2s {

/// The mapping a "cuda" variant's options ask for (bx, by, px, py, sz;
/// defaults of CudaMappingOptions for absent ones). Option sh=1 also stages
/// the planes of the grids choose_shared_grids picks in shared memory.
CudaMappingOptions cuda_mapping_options(const Variant &v);

/// `k` mapped as variant `v`'s options ask: the `ir` of cuda_variant_code,
/// without the aliased nests (and their dependence analysis).
Kernel map_cuda_variant(const Kernel &k, const Variant &v);

/// `ir` mapped, `cuda_source` its CUDA C++ (with the nests of the aliasings
/// it runs on the GPU), and `c_function` the C declaration of its run
/// function, which the library's entry points call with their CPU code
/// (harness/Package.cpp).
VariantCode cuda_variant_code(const Kernel &k, const Variant &v);

} // namespace f2s
