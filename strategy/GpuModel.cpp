#include "strategy/GpuModel.h"

#include <cstdio>
#include <map>
#include <sstream>

namespace f2s {

std::string GpuModel::arch() const {
  return "sm_" + std::to_string(major) + std::to_string(minor);
}

std::string GpuModel::description() const {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s (%s, %d SMs, %ld MiB L2, %ld GiB)", name.c_str(),
                arch().c_str(), sms, l2_bytes >> 20, global_bytes >> 30);
  return buf;
}

const char *gpu_probe_source() {
  return R"(#include <cuda_runtime.h>
#include <stdio.h>
int main(void) {
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess || n == 0) {
    printf("F2S-GPU-ERROR %s\n", e != cudaSuccess ? cudaGetErrorString(e) : "no CUDA device");
    return 3;
  }
  cudaDeviceProp p;
  e = cudaGetDeviceProperties(&p, 0);
  if (e != cudaSuccess) {
    printf("F2S-GPU-ERROR %s\n", cudaGetErrorString(e));
    return 3;
  }
  printf("F2S-GPU major=%d;minor=%d;sms=%d;warp=%d;max_threads_block=%d;max_threads_sm=%d;"
         "regs_per_block=%d;regs_per_sm=%d;smem_per_block=%zu;smem_per_block_optin=%zu;"
         "smem_per_sm=%zu;l2_bytes=%d;global_bytes=%zu;name=%s\n",
         p.major, p.minor, p.multiProcessorCount, p.warpSize, p.maxThreadsPerBlock,
         p.maxThreadsPerMultiProcessor, p.regsPerBlock, p.regsPerMultiprocessor,
         p.sharedMemPerBlock, p.sharedMemPerBlockOptin, p.sharedMemPerMultiprocessor,
         p.l2CacheSize, p.totalGlobalMem, p.name);
  return 0;
}
)";
}

std::optional<GpuModel> gpu_model_from_probe(const std::string &output, std::string *error) {
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("F2S-GPU-ERROR ", 0) == 0) {
      if (error)
        *error = line.substr(14);
      return std::nullopt;
    }
    if (line.rfind("F2S-GPU ", 0) != 0)
      continue;
    std::map<std::string, std::string> kv;
    std::string rest = line.substr(8);
    // name= is last and may hold ';'.
    size_t name_at = rest.find("name=");
    std::string fields = rest.substr(0, name_at);
    std::istringstream f(fields);
    for (std::string item; std::getline(f, item, ';');) {
      size_t eq = item.find('=');
      if (eq != std::string::npos)
        kv[item.substr(0, eq)] = item.substr(eq + 1);
    }
    GpuModel m;
    m.name = name_at == std::string::npos ? "GPU" : rest.substr(name_at + 5);
    auto num = [&](const char *key, long fallback) {
      auto it = kv.find(key);
      return it == kv.end() ? fallback : std::stol(it->second);
    };
    m.major = num("major", 0);
    m.minor = num("minor", 0);
    m.sms = num("sms", 0);
    m.warp = num("warp", 32);
    m.max_threads_block = num("max_threads_block", 1024);
    m.max_threads_sm = num("max_threads_sm", 2048);
    m.regs_per_block = num("regs_per_block", 65536);
    m.regs_per_sm = num("regs_per_sm", 65536);
    m.smem_per_block = num("smem_per_block", 48 * 1024);
    m.smem_per_block_optin = num("smem_per_block_optin", m.smem_per_block);
    m.smem_per_sm = num("smem_per_sm", 0);
    m.l2_bytes = num("l2_bytes", 0);
    m.global_bytes = num("global_bytes", 0);
    if (m.sms <= 0) {
      if (error)
        *error = "the probe reported no multiprocessors: '" + line + "'";
      return std::nullopt;
    }
    return m;
  }
  if (error)
    *error = "the probe printed no F2S-GPU line";
  return std::nullopt;
}

GpuModel gpu_model_h100() {
  GpuModel m;
  m.name = "NVIDIA H100 (published properties)";
  m.major = 9;
  m.minor = 0;
  m.sms = 132;
  m.smem_per_block_optin = 227 * 1024;
  m.smem_per_sm = 228 * 1024;
  m.l2_bytes = 50L << 20;
  m.global_bytes = 80L << 30;
  return m;
}

} // namespace f2s
