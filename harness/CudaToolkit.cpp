#include "harness/CudaToolkit.h"

#include "harness/Process.h"

#include <cstdlib>
#include <filesystem>

namespace f2s {

namespace fs = std::filesystem;

std::optional<std::string> find_nvcc() {
  if (const char *env = std::getenv("NVCC"); env && *env)
    return std::string(env);
  if (auto p = find_program("nvcc"))
    return p;
  if (fs::exists("/usr/local/cuda/bin/nvcc"))
    return std::string("/usr/local/cuda/bin/nvcc");
  return std::nullopt;
}

std::string cuda_arch() {
  if (const char *env = std::getenv("F2S_CUDA_ARCH"); env && *env)
    return env;
  return "sm_90";
}

std::vector<std::string> nvcc_flags() {
  return {"-O3", "-arch=" + cuda_arch(), "--fmad=false", "-std=c++17", "-Xcompiler", "-fPIC"};
}

std::string cuda_library_dir(const std::string &nvcc) {
  fs::path root = fs::weakly_canonical(fs::path(nvcc)).parent_path().parent_path();
  for (const char *sub : {"lib64", "targets/x86_64-linux/lib", "lib"})
    if (fs::exists(root / sub / "libcudart_static.a"))
      return (root / sub).string();
  return (root / "lib64").string();
}

} // namespace f2s
