// Where the CUDA toolkit is, and how f2stencil calls nvcc. f2stencil itself
// never links CUDA; it runs nvcc for harnesses, probes and libraries.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace f2s {

/// nvcc: $NVCC, else nvcc in PATH, else /usr/local/cuda/bin/nvcc.
std::optional<std::string> find_nvcc();

/// find_nvcc's nvcc; throws std::runtime_error saying where it was looked
/// for when there is none.
std::string require_nvcc();

/// The GPU architecture code is built for: $F2S_CUDA_ARCH, else sm_90.
std::string cuda_arch();

/// Flags of every nvcc compile: optimised, for cuda_arch(), position
/// independent, and without contracting a*b+c into an FMA, so results round
/// as the serial reference and the Fortran original do.
std::vector<std::string> nvcc_flags();

/// The toolkit's library directory (holding libcudart_static.a), as nvcc reports it.
std::string cuda_library_dir(const std::string &nvcc);

} // namespace f2s
