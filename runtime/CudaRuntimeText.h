// The CUDA run-time support as text, for the CUDA printer to put into the
// CUDA source of every generated library and harness.
#pragma once

namespace f2s {

/// runtime/f2s_cuda_runtime.h followed by runtime/f2s_cuda_runtime.cu:
/// device residency (data regions, per-call copies), the transfer counter
/// and CUDA error checking; every name static. Embedded at build time.
const char *cuda_runtime_text();

} // namespace f2s
