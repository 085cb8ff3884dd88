// The CUDA variant of a mapping shape, for the tests that build every kind of
// mapping (tests/cuda/CudaCodegenTest.cpp, CudaEmulationTest.cpp).
#pragma once

#include "strategy/CpuEngine.h"

#include <string>

namespace f2s::test {

/// A "cuda" variant with the mapping options bx, by, px, py, sz, sh (shared
/// planes) and, when `sum` is set, plane sums; named `prefix` and the options.
inline Variant cuda_shape(const std::string &prefix, int bx, int by, int px, int py, int sz,
                          int sh = 0, int sum = 0) {
  Variant v;
  v.target = "cuda";
  v.name = prefix + std::to_string(bx) + "_" + std::to_string(by) + "_" + std::to_string(px) + "_" +
           std::to_string(py) + "_" + std::to_string(sz) + (sh ? "_sh" : "") + (sum ? "_sums" : "");
  v.options = {{"bx", bx}, {"by", by}, {"px", px}, {"py", py}, {"sz", sz}, {"sh", sh}};
  if (sum)
    v.options["sum"] = 1;
  return v;
}

} // namespace f2s::test
