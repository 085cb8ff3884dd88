// Helpers shared by the front end's tests: each test writes a small Fortran
// file into its own temporary folder and lowers it.
#pragma once

#include "ast/Dependence.h"
#include "ast/IR.h"
#include "frontend/Frontend.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace f2s::test {

/// A temporary folder named after the running test, removed afterwards.
class TempDir {
public:
  TempDir() {
    const auto *info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           ("f2s_frontend_" + std::string(info->test_suite_name()) + "_" + info->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  ~TempDir() { std::filesystem::remove_all(dir_); }

  std::string write(const std::string &name, const std::string &text) const {
    std::string path = (dir_ / name).string();
    std::ofstream(path) << text;
    return path;
  }
  std::string path() const { return dir_.string(); }

private:
  std::filesystem::path dir_;
};

/// `head` (a subroutine's first line and its declarations), then the
/// annotated nest `do k`, `do j`, `do i = 1, n` around `body`, and the end of
/// the subroutine.
inline std::string around_nest3(const std::string &head, const std::string &body) {
  return head + R"(  !$f2s stencil
  do k = 1, n
    do j = 1, n
      do i = 1, n
)" + body +
         R"(
      end do
    end do
  end do
end subroutine
)";
}

/// "line:column" of the first occurrence of `needle` in `text` (1-based),
/// so that tests name positions by what is there rather than by counting.
inline std::string loc_of(const std::string &text, const std::string &needle, int nth = 1) {
  size_t at = std::string::npos;
  for (int n = 0; n < nth; ++n)
    at = text.find(needle, at == std::string::npos ? 0 : at + 1);
  if (at == std::string::npos)
    return "<'" + needle + "' not in the source>";
  int line = 1, column = 1;
  for (size_t i = 0; i < at; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return std::to_string(line) + ":" + std::to_string(column);
}

inline std::string line_col(const SourceLoc &l) {
  return std::to_string(l.line) + ":" + std::to_string(l.column);
}

/// Lowers `text` written to `name` in a fresh folder.
inline std::vector<Kernel> lower_text(const TempDir &dir, const std::string &text,
                                      const std::string &name = "input.f90",
                                      const FrontendOptions &options = {}) {
  return lower_file(dir.write(name, text), options);
}

/// The diagnostic that lowering `text` throws; fails the test when it
/// throws none.
inline Diagnostic error_of(const TempDir &dir, const std::string &text,
                           const std::string &name = "input.f90") {
  std::string path = dir.write(name, text);
  try {
    lower_file(path);
  } catch (const UserError &e) {
    EXPECT_EQ(e.diagnostic().loc.file, path);
    return e.diagnostic();
  }
  ADD_FAILURE() << "lowering succeeded, but an error was expected";
  return {};
}

/// The refusal of `text`: the front end's error, or the dependence the
/// analysis finds; fails the test when the region is accepted.
inline Diagnostic refusal(const std::string &text) {
  TempDir dir;
  std::vector<Kernel> ks;
  try {
    ks = lower_text(dir, text);
  } catch (const UserError &e) {
    return e.diagnostic();
  }
  for (const Kernel &k : ks)
    if (auto d = find_dependence(k))
      return *d;
  ADD_FAILURE() << "the region was accepted, but a refusal was expected";
  return {};
}

} // namespace f2s::test
