// Helpers shared by the unit tests of several folders: the three operators
// of Kamil et al. as the front end lowers them, and small temporary files.
#pragma once

#include "ast/IR.h"
#include "frontend/Frontend.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

namespace f2s::test {

/// examples/<name>/<name>.<ext>: the example's annotated source, free form
/// (.f90) or fixed form (.f).
inline std::string example_source(const std::string &name) {
  std::string stem = std::string(F2S_SOURCE_DIR) + "/examples/" + name + "/" + name;
  for (const char *ext : {".f90", ".F90", ".f", ".F"})
    if (std::filesystem::exists(stem + ext))
      return stem + ext;
  ADD_FAILURE() << "no source for example '" << name << "'";
  return stem + ".f90";
}

/// Every kernel of the example `name`, in source order.
inline std::vector<Kernel> example_kernels(const std::string &name) {
  return lower_file(example_source(name));
}

/// The kernel of the example `name`, which has one.
inline Kernel example_kernel(const std::string &name) {
  std::string path = example_source(name);
  std::vector<Kernel> ks = lower_file(path);
  EXPECT_EQ(ks.size(), 1u) << path;
  return ks.at(0);
}

/// A 2D Jacobi sweep (one input, one output grid, halo 1), named jac: the
/// small kernel several passes' tests start from.
inline constexpr const char *kJacobi2D = R"(subroutine jacobi(n, m, u, v)
  integer :: n, m, i, j
  real(8) :: u(0:n+1, 0:m+1), v(0:n+1, 0:m+1)
  !$f2s stencil name(jac)
  do j = 1, m
    do i = 1, n
      v(i, j) = 0.25d0*(u(i-1, j) + u(i+1, j) + u(i, j-1) + u(i, j+1))
    end do
  end do
end subroutine
)";

/// A directory of its own for the running test (and process: several build
/// trees may run the same test at once), removed afterwards.
class ScratchDir {
public:
  ScratchDir() {
    const auto *info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           ("f2s_" + std::string(info->test_suite_name()) + "_" + info->name() + "_" +
            std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  ~ScratchDir() { std::filesystem::remove_all(dir_); }
  ScratchDir(const ScratchDir &) = delete;
  ScratchDir &operator=(const ScratchDir &) = delete;

  std::filesystem::path path() const { return dir_; }
  std::string write(const std::string &name, const std::string &text) const {
    std::ofstream(dir_ / name) << text;
    return (dir_ / name).string();
  }

private:
  std::filesystem::path dir_;
};

/// The whole content of a file (empty when it cannot be read).
inline std::string read_file(const std::filesystem::path &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The environment an `mpirun` of a test runs in: Open MPI refuses root
/// unless told, needs leave to start more ranks than the machine has
/// processors, and keeps its session in TMPDIR, here the test's own, so
/// that two tests' mpiruns never race for one directory.
inline std::vector<std::pair<std::string, std::string>> mpirun_env(const ScratchDir &dir) {
  return {{"OMPI_ALLOW_RUN_AS_ROOT", "1"},
          {"OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"},
          {"OMPI_MCA_rmaps_base_oversubscribe", "1"},
          {"TMPDIR", dir.path().string()}};
}

/// Lowers a Fortran source given as text; expects exactly one kernel.
inline Kernel lower_text(const ScratchDir &dir, const std::string &text,
                         const std::string &name = "kernel.f90") {
  std::vector<Kernel> ks = lower_file(dir.write(name, text));
  EXPECT_EQ(ks.size(), 1u);
  return ks.at(0);
}

/// The text of the C function `symbol` in `c`, up to its closing brace (a
/// failure where `c` has none).
inline std::string function_body(const std::string &c, const std::string &symbol) {
  size_t at = c.find("void " + symbol + "(");
  EXPECT_NE(at, std::string::npos) << symbol;
  return at == std::string::npos ? "" : c.substr(at, c.find("\n}\n", at) - at);
}

} // namespace f2s::test
