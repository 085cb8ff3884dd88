// The GPU machine model: what the CUDA strategy engine needs to know of the
// device it tunes for, from cudaGetDeviceProperties. f2stencil never links
// CUDA: the harness compiles and runs gpu_probe_source() with nvcc and hands
// its output to gpu_model_from_probe().
#pragma once

#include <optional>
#include <string>

namespace f2s {

struct GpuModel {
  std::string name;         ///< "NVIDIA H100 80GB HBM3"
  int major = 0, minor = 0; ///< compute capability
  int sms = 0;              ///< multiprocessors
  int warp = 32;
  int max_threads_block = 1024;
  int max_threads_sm = 2048;
  int regs_per_block = 65536, regs_per_sm = 65536;
  long smem_per_block = 48 * 1024;       ///< without opting in
  long smem_per_block_optin = 48 * 1024; ///< with cudaFuncSetAttribute
  long smem_per_sm = 0;
  long l2_bytes = 0;
  long global_bytes = 0;
  std::string description() const; ///< "NVIDIA H100 (sm_90, 132 SMs, 50 MiB L2)"
  std::string arch() const;        ///< "sm_90"
};

/// A CUDA program that prints the properties of device 0 as one line
/// "F2S-GPU key=value;...", or "F2S-GPU-ERROR message" and exit status 3.
const char *gpu_probe_source();

/// Parses the probe's output; nullopt (with `error` set) when it reported
/// no usable device.
std::optional<GpuModel> gpu_model_from_probe(const std::string &output, std::string *error);

/// The H100 SXM's published properties, for tests and untuned builds.
GpuModel gpu_model_h100();

} // namespace f2s
