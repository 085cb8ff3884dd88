#include "harness/CudaToolkit.h"

#include "harness/Process.h"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

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

std::string require_nvcc() {
  auto nvcc = find_nvcc();
  if (!nvcc)
    throw std::runtime_error("--target=cuda needs nvcc (not in PATH, $NVCC unset, no "
                             "/usr/local/cuda/bin/nvcc)");
  return *nvcc;
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
  // nvcc may be a wrapper script (e.g. /usr/local/bin/nvcc exec'ing the real
  // toolkit), so its own path says nothing about where the libraries are. Ask
  // nvcc: a dry run prints the -L directories it would link with.
  ProcessResult dry = run_process(
      {{nvcc, "-dryrun", "-x", "cu", "-c", "/dev/null", "-o", "/dev/null"}, 30, "", {}});
  std::string text = dry.out + dry.err;
  for (size_t pos = text.find("-L"); pos != std::string::npos; pos = text.find("-L", pos + 2)) {
    size_t end = text.find_first_of("\" \n", pos);
    fs::path dir = text.substr(pos + 2, end == std::string::npos ? end : end - pos - 2);
    if (fs::exists(dir / "libcudart_static.a"))
      return fs::weakly_canonical(dir).string();
  }
  fs::path root = fs::weakly_canonical(fs::path(nvcc)).parent_path().parent_path();
  for (const char *sub : {"lib64", "targets/x86_64-linux/lib", "lib"})
    if (fs::exists(root / sub / "libcudart_static.a"))
      return (root / sub).string();
  return (root / "lib64").string();
}

} // namespace f2s
