// --rewrite's data regions, end to end (tests/inputs/data_regions): the rewritten
// program, linked against its library, prints the original's numbers.
// - Under the CPU emulation of CUDA (tests/cuda/emulation, whose device
//   memory is apart from the host's), the calls take the GPU path, since the
//   region makes their arrays present; a host statement that read an array
//   without its update would read the device's old values and print other
//   numbers, and the test shows that it would, by taking one update out.
// - With nvcc (no GPU here), the library and the rewritten program build.
#include "e2e/E2E.h"
#include "e2e/EmulatedLibrary.h"
#include "harness/CudaToolkit.h"

#include "tests/cuda/Emulation.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

namespace fs = std::filesystem;
using test::f2stencil;
using test::run;
using test::source;

const char *const kLib = "f2s_dr";

/// What the original program prints, built by gfortran alone.
std::string original_output(const test::ScratchDir &dir) {
  std::string exe = (dir.path() / "original").string();
  ProcessResult r =
      run({"gfortran", "-O2", "-o", exe, source("tests/inputs/data_regions/relax.f90"),
           source("tests/inputs/data_regions/main.f90")});
  EXPECT_TRUE(r.ok()) << r.err;
  r = run({exe});
  EXPECT_TRUE(r.ok()) << r.err;
  return r.out;
}

class DataRegionsEmulated : public ::testing::Test {
protected:
  void SetUp() override {
    ProcessResult r = f2stencil({"--emit=sources", "-q", "--rewrite", "--target=pthreads,cuda",
                                 std::string("--lib=") + kLib, "-o", out().string(),
                                 source("tests/inputs/data_regions/relax.f90")});
    ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
    test::build_emulated_library(dir_, out(), kLib, emu_o(), c_o());
  }

  fs::path out() const { return dir_.path() / "out"; }
  std::string emu_o() const { return (dir_.path() / "cuda.o").string(); }
  std::string c_o() const { return (dir_.path() / "lib.o").string(); }

  /// The output of `relax` (the rewritten source's text) linked with the
  /// library under the emulation, followed by the library's host-device
  /// copies.
  ProcessResult build_and_run(const std::string &name, const std::string &relax) {
    std::string main = test::read_file(source("tests/inputs/data_regions/main.f90"));
    std::string lib = kLib;
    main.replace(main.find("  implicit none"), 0,
                 "  use " + lib + ", only: " + lib + "_data_transfers\n");
    main.replace(main.find("end program"), 0,
                 "  print '(a, i0)', 'transfers ', " + lib + "_data_transfers()\n");
    std::string exe = (dir_.path() / name).string();
    ProcessResult r =
        run({"gfortran", "-O2", "-o", exe, "-J" + dir_.path().string(),
             (out() / (lib + ".f90")).string(), dir_.write(name + ".f90", relax),
             dir_.write(name + "_main.f90", main), c_o(), emu_o(), "-lstdc++", "-lpthread"});
    EXPECT_TRUE(r.ok()) << r.err.substr(0, 4000);
    return run({exe});
  }

  test::ScratchDir dir_;
};

/// The numbers a run printed, without the count of copies.
std::string numbers(const std::string &out) {
  return out.substr(0, out.find("transfers "));
}

TEST_F(DataRegionsEmulated, TheRewrittenProgramPrintsTheOriginalsNumbersOnTheGpuPath) {
  std::string expected = original_output(dir_);
  std::string rewritten = test::read_file(out() / "src" / "relax.f90");
  ASSERT_NE(
      rewritten.find("call f2s_dr_data_enter(u, size(u, kind=c_size_t) * storage_size(u) / 8)"),
      std::string::npos)
      << rewritten;
  ProcessResult r = build_and_run("regions", rewritten);
  ASSERT_TRUE(r.ok()) << r.out << r.err;
  EXPECT_EQ(numbers(r.out), expected);
  // The GPU path: 3 arrays in and back, and per iteration (20) v and u to
  // the host and u and v to the device (u once for its two statements).
  EXPECT_NE(r.out.find("transfers " + std::to_string(3 + 3 + 20 * 4) + "\n"), std::string::npos)
      << r.out;
}

TEST_F(DataRegionsEmulated, WithoutItsUpdateTheHostWouldReadStaleValues) {
  // The first update of v to the host, taken out: `total` then reads the
  // device's old v, and the numbers differ. So the emulation's device
  // memory is apart from the host's, and the updates are what keeps the
  // host's reads current.
  std::string expected = original_output(dir_);
  std::string rewritten = test::read_file(out() / "src" / "relax.f90");
  const std::string update =
      "    call f2s_dr_data_update_host(v, size(v, kind=c_size_t) * storage_size(v) / 8)\n";
  size_t at = rewritten.find(update);
  ASSERT_NE(at, std::string::npos) << rewritten;
  rewritten.erase(at, update.size());
  ProcessResult r = build_and_run("stale", rewritten);
  ASSERT_TRUE(r.ok()) << r.out << r.err;
  EXPECT_NE(numbers(r.out), expected);
}

// Periodic faces copied by array assignments within one array, between the
// calls (tests/inputs/face_copies): each is a sweep of the library over the
// face (a plane at a run-time position), so the loop moves nothing to the
// host; the numbers are gfortran's on the GPU path (emulated) and on the CPU
// path, at odd sizes and at sizes where the copied faces meet (n = 2, 3).
TEST(FaceCopies, RunInTheLibraryAndMatchTheOriginal) {
  test::ScratchDir dir;
  const std::string lib = "f2s_fc";
  fs::path out = dir.path() / "out";
  ProcessResult r =
      f2stencil({"--emit=sources", "-q", "--rewrite", "--target=pthreads,cuda", "--lib=" + lib,
                 "-o", out.string(), source("tests/inputs/face_copies/smooth.f90")});
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  std::string rewritten = test::read_file(out / "src" / "smooth.f90");
  EXPECT_EQ(rewritten.find("_data_update"), std::string::npos) << rewritten;
  EXPECT_EQ(rewritten.find("\n    u(1, :, :) = "), std::string::npos) << rewritten;
  std::string emu_o = (dir.path() / "cuda.o").string(), c_o = (dir.path() / "lib.o").string();
  test::build_emulated_library(dir, out, lib, emu_o, c_o);

  std::string original = (dir.path() / "original").string();
  r = run({"gfortran", "-O2", "-ffp-contract=off", "-o", original,
           source("tests/inputs/face_copies/smooth.f90"),
           source("tests/inputs/face_copies/main.f90")});
  ASSERT_TRUE(r.ok()) << r.err;
  std::string exe = (dir.path() / "rewritten").string();
  r = run({"gfortran", "-O2", "-ffp-contract=off", "-o", exe, "-J" + dir.path().string(),
           (out / (lib + ".f90")).string(), (out / "src" / "smooth.f90").string(),
           source("tests/inputs/face_copies/main.f90"), c_o, emu_o, "-lstdc++", "-lpthread"});
  ASSERT_TRUE(r.ok()) << r.err.substr(0, 4000);
  for (std::vector<std::string> size : std::vector<std::vector<std::string>>{
           {"13", "7", "5"}, {"3", "4", "2"}, {"2", "2", "2"}, {"6", "3", "9"}}) {
    SCOPED_TRACE(size[0] + " " + size[1] + " " + size[2]);
    ProcessResult want = run({original, size[0], size[1], size[2]});
    ASSERT_TRUE(want.ok()) << want.err;
    for (const char *target : {"", "cpu"}) {
      Command c;
      c.argv = {exe, size[0], size[1], size[2]};
      if (*target)
        c.env = {{"F2S_TARGET", target}};
      ProcessResult got = run_process(c);
      ASSERT_TRUE(got.ok()) << got.out << got.err;
      EXPECT_EQ(got.out, want.out) << "F2S_TARGET=" << target;
    }
  }
}

TEST(DataRegionsNvcc, TheRewrittenProgramBuildsAgainstTheCudaLibrary) {
  // nvcc builds the library (no GPU is needed for that); gfortran builds
  // the rewritten program against it. Without data regions, it runs the
  // calls on the CPU and prints the original's numbers. (With them, the
  // run needs a GPU, or the run time's fallback to the CPU code when
  // there is none, issue 37 §1.)
  if (!find_nvcc())
    GTEST_SKIP() << "nvcc not found";
  test::ScratchDir dir;
  std::string expected = original_output(dir);
  for (bool regions : {true, false}) {
    fs::path out = dir.path() / (regions ? "with" : "without");
    std::vector<std::string> args = {"--no-tune",
                                     "-q",
                                     "--rewrite",
                                     "--target=pthreads,cuda",
                                     std::string("--lib=") + kLib,
                                     "-o",
                                     out.string(),
                                     source("tests/inputs/data_regions/relax.f90")};
    if (!regions)
      args.insert(args.begin(), "--no-data-regions");
    ProcessResult r = f2stencil(args);
    ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
    std::string text = test::read_file(out / "src" / "relax.f90");
    EXPECT_EQ(text.find("_data_") != std::string::npos, regions) << text;
    std::string exe = (out / "program").string();
    r = run({"gfortran", "-O2", "-o", exe, "-I" + out.string(), (out / "src/relax.f90").string(),
             source("tests/inputs/data_regions/main.f90"), "-L" + out.string(),
             std::string("-l") + kLib, "-Wl,-rpath," + out.string()});
    ASSERT_TRUE(r.ok()) << r.err.substr(0, 4000);
    if (regions)
      continue;
    r = run({exe});
    ASSERT_TRUE(r.ok()) << r.out << r.err;
    EXPECT_EQ(r.out, expected);
  }
}

} // namespace
} // namespace f2s
