// Kinds end to end: a library must type its arguments as gfortran's build of
// the original does, or a caller gets wrong data (REAL(4) read from REAL(8)
// memory) or no build at all. Each input's checking program compares the
// library with the original bit for bit.
#include "e2e/E2E.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace f2s {
namespace {

namespace fs = std::filesystem;
using test::f2stencil;
using test::run;
using test::source;

/// tests/inputs/e2e/<name>.f90 through f2stencil with `options` (tuned, c
/// and pthreads), linked with <name>_main.f90, both built by gfortran with
/// `gfortran_flags`, and run at 2D sizes with 1 and 3 threads.
void expect_input_matches(const std::string &name, const std::vector<std::string> &options,
                          const std::vector<std::string> &gfortran_flags = {}) {
  test::ScratchDir dir;
  fs::path out = dir.path() / "out";
  std::string f90 = source("tests/inputs/e2e/" + name + ".f90");
  std::vector<std::string> args = {"--reps=1",          "-q", "--target=c,pthreads",
                                   "--lib=f2s_" + name, "-o", out.string()};
  args.insert(args.end(), options.begin(), options.end());
  args.push_back(f90);
  ProcessResult r = f2stencil(test::quick_tuning(args));
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  std::string exe = (dir.path() / name).string();
  std::vector<std::string> build = {"gfortran", "-O2", "-J", dir.path().string()};
  build.insert(build.end(), gfortran_flags.begin(), gfortran_flags.end());
  build.insert(build.end(),
               {"-o", exe, f90, source("tests/inputs/e2e/" + name + "_main.f90"),
                "-I" + out.string(), (out / ("libf2s_" + name + ".a")).string(), "-lpthread"});
  r = run(build);
  ASSERT_TRUE(r.ok()) << r.err;
  for (std::vector<std::string> size :
       std::vector<std::vector<std::string>>{{}, {"1", "1"}, {"513", "3"}, {"4", "77"}})
    for (const char *threads : {"1", "3"}) {
      size.insert(size.begin(), exe);
      ProcessResult p = run(size, {{"F2S_NUM_THREADS", threads}});
      EXPECT_TRUE(p.ok() && p.out.find("PASSED") != std::string::npos)
          << "size " << (size.size() > 1 ? size[1] : "default") << ", " << threads
          << " threads: " << p.describe() << "\n"
          << p.out << p.err;
      size.erase(size.begin());
    }
}

// selected_real_kind(p=6, r=70) is REAL(8), selected_int_kind(9) INTEGER(4).
TEST(Kinds, SelectedKindsMatchTheOriginal) {
  expect_input_matches("kinds2d", {});
}

// Default REAL, an implicit REAL temporary, a REAL constant and literals
// such as 0.1, all REAL(8) under -fdefault-real-8, in gfortran's spelling.
TEST(Kinds, DefaultReal8MatchesTheOriginalBuiltWithIt) {
  expect_input_matches("real8_2d", {"-fdefault-real-8"}, {"-fdefault-real-8"});
}

// -r8 and --fdefault-real-8 give the library -fdefault-real-8 gives; without
// either, the same source is REAL(4) throughout.
TEST(Kinds, DefaultReal8SpellingsGiveOneLibrary) {
  std::string f90 = source("tests/inputs/e2e/real8_2d.f90");
  ProcessResult gcc = f2stencil({"--emit=ir", "-fdefault-real-8", f90});
  ASSERT_TRUE(gcc.ok()) << gcc.err;
  EXPECT_NE(gcc.out.find("f64"), std::string::npos) << gcc.out;
  EXPECT_EQ(gcc.out.find("f32"), std::string::npos) << gcc.out;
  for (const char *spelling : {"-r8", "--r8", "--fdefault-real-8"}) {
    ProcessResult r = f2stencil({"--emit=ir", spelling, f90});
    ASSERT_TRUE(r.ok()) << spelling << ": " << r.err;
    EXPECT_EQ(r.out, gcc.out) << spelling;
  }
  ProcessResult plain = f2stencil({"--emit=ir", f90});
  ASSERT_TRUE(plain.ok()) << plain.err;
  EXPECT_EQ(plain.out.find("f64"), std::string::npos) << plain.out;
}

} // namespace
} // namespace f2s
