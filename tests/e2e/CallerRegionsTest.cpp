// Data regions of callers, end to end (tests/inputs/caller_regions): a main
// program whose time loop calls the procedures that hold the nests gets the
// region, and the rewritten program, linked against its library under the
// CPU emulation of CUDA (tests/cuda/emulation: the device's memory is apart
// from the host's), prints the original's numbers with the transfers of
// that one region only. A run with one of its updates taken out prints other
// numbers: the updates are what keeps the host's reads current.
#include "e2e/E2E.h"
#include "e2e/EmulatedLibrary.h"

#include "tests/cuda/Emulation.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

namespace fs = std::filesystem;
using test::f2stencil;
using test::run;
using test::source;

const char *const kLib = "f2s_cr";

class CallerRegionsEmulated : public ::testing::Test {
protected:
  /// f2stencil --rewrite on `files` (of tests/inputs/caller_regions, the
  /// program last), and the library built with the emulation.
  void rewrite(const std::vector<std::string> &files) {
    files_ = files;
    std::vector<std::string> args = {"--emit=sources",
                                     "-q",
                                     "--rewrite",
                                     "--target=pthreads,cuda",
                                     std::string("--lib=") + kLib,
                                     "-o",
                                     out().string()};
    for (const std::string &f : files)
      args.push_back(input(f));
    ProcessResult r = f2stencil(args);
    ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
    test::build_emulated_library(dir_, out(), kLib, emu_o(), c_o());
  }

  static std::string input(const std::string &f) {
    return source("tests/inputs/caller_regions/" + f);
  }
  fs::path out() const { return dir_.path() / "out"; }
  std::string emu_o() const { return (dir_.path() / "cuda.o").string(); }
  std::string c_o() const { return (dir_.path() / "lib.o").string(); }

  /// What the original program prints, built by gfortran alone.
  std::string original_output() {
    fs::path build = dir_.path() / "original";
    fs::create_directories(build);
    std::vector<std::string> args = {"gfortran", "-O2", "-J" + build.string(), "-o",
                                     (build / "program").string()};
    for (const std::string &f : files_)
      args.push_back(input(f));
    ProcessResult r = run(args);
    EXPECT_TRUE(r.ok()) << r.err;
    r = run({(build / "program").string()});
    EXPECT_TRUE(r.ok()) << r.err;
    return r.out;
  }

  /// The rewritten text of `file`.
  std::string rewritten(const std::string &file) const {
    return test::read_file(out() / "src" / file);
  }

  /// The output of the rewritten files (`program` in place of the last
  /// one's text), linked with the library under the emulation, followed by
  /// the library's host-device copies.
  ProcessResult build_and_run(const std::string &name, std::string program) {
    std::string lib = kLib;
    size_t implicit = program.find("implicit none");
    size_t line = program.rfind('\n', implicit) + 1;
    std::string indent = program.substr(line, implicit - line);
    program.insert(line, indent + "use " + lib + ", only: " + lib + "_data_transfers\n");
    size_t end = program.find("end program");
    end = program.rfind('\n', end) + 1;
    program.insert(end, indent + "print '(a, i0)', 'transfers ', " + lib + "_data_transfers()\n");
    fs::path build = dir_.path() / name;
    fs::create_directories(build);
    std::vector<std::string> args = {"gfortran",
                                     "-O2",
                                     "-J" + build.string(),
                                     "-o",
                                     (build / "program").string(),
                                     (out() / (lib + ".f90")).string()};
    for (size_t i = 0; i + 1 < files_.size(); ++i)
      args.push_back((out() / "src" / files_[i]).string());
    args.push_back(dir_.write(name + "_" + files_.back(), program));
    for (const std::string &o : {c_o(), emu_o()})
      args.push_back(o);
    args.push_back("-lstdc++");
    args.push_back("-lpthread");
    ProcessResult r = run(args);
    EXPECT_TRUE(r.ok()) << r.err.substr(0, 4000);
    return run({(build / "program").string()});
  }

  std::vector<std::string> files_;
  test::ScratchDir dir_;
};

/// The numbers a run printed, without the count of copies.
std::string numbers(const std::string &out) {
  return out.substr(0, out.find("transfers "));
}

TEST_F(CallerRegionsEmulated, AMainProgramCallingModuleProceduresPrintsTheOriginalsNumbers) {
  rewrite({"kernels.f90", "main.f90"});
  std::string program = rewritten("main.f90");
  ASSERT_NE(program.find("call f2s_cr_data_enter(u, "), std::string::npos) << program;
  ProcessResult r = build_and_run("regions", program);
  ASSERT_TRUE(r.ok()) << r.out << r.err;
  EXPECT_EQ(numbers(r.out), original_output());
  // The GPU path with the main program's region only: f, u and v in, u and
  // v back; per step (25) v and u each to the host for `halo` and back to
  // the device, and nothing around `smooth` and `back`.
  EXPECT_NE(r.out.find("transfers " + std::to_string(3 + 2 + 25 * 4) + "\n"), std::string::npos)
      << r.out;
}

TEST_F(CallerRegionsEmulated, SetUpAndFinalCallsJoinTheRegionAndOnlyWhatIsReadAfterComesBack) {
  rewrite({"kernels.f90", "setup_main.f90"});
  std::string program = rewritten("setup_main.f90");
  // The region starts at the first set-up call and ends after the last
  // call, where u, which the print reads, comes back and v is freed.
  EXPECT_LT(program.find("call f2s_cr_data_enter(u, "), program.find("  call smooth\n")) << program;
  EXPECT_NE(program.find("call f2s_cr_data_exit(u, "), std::string::npos) << program;
  EXPECT_NE(program.find("call f2s_cr_data_delete(v, "), std::string::npos) << program;
  ProcessResult r = build_and_run("setup", program);
  ASSERT_TRUE(r.ok()) << r.out << r.err;
  EXPECT_EQ(numbers(r.out), original_output());
  // u, v and f in; v to the host for the read of v(n/2) and `halo` (one
  // update, then back to the device after `halo`), per step (25) v to the
  // host for `halo` and back; u back at the end.
  EXPECT_NE(r.out.find("transfers " + std::to_string(3 + 2 + 25 * 2 + 1) + "\n"), std::string::npos)
      << r.out;
}

TEST_F(CallerRegionsEmulated, WithoutTheUpdateBeforeTheHostRoutineItWouldReadStaleValues) {
  // The update of v to the host before `call halo(v)`, taken out: halo then
  // copies the device's old v into the host's, which goes back to the
  // device after it, and the numbers differ.
  rewrite({"kernels.f90", "main.f90"});
  std::string program = rewritten("main.f90");
  const std::string update =
      "    call f2s_cr_data_update_host(v, size(v, kind=c_size_t) * storage_size(v) / 8)\n";
  size_t at = program.find(update);
  ASSERT_NE(at, std::string::npos) << program;
  program.erase(at, update.size());
  ProcessResult r = build_and_run("stale", program);
  ASSERT_TRUE(r.ok()) << r.out << r.err;
  EXPECT_NE(numbers(r.out), original_output());
}

TEST_F(CallerRegionsEmulated, FixedFormCommonAndASequenceAssociatedWorkArray) {
  // `cycle` calls the host routine `bc` between the procedures with the
  // kernels: it brings the level `bc` receives (w(n+3) on) to the host and
  // back itself, if present, so the main program's region holds w across
  // its CALL.
  rewrite({"mg.f"});
  std::string program = rewritten("mg.f");
  ASSERT_NE(program.find("call f2s_cr_data_enter(w, size(w,"), std::string::npos) << program;
  ASSERT_NE(program.find("call f2s_cr_data_update_host_if_present(w(n+3))"), std::string::npos)
      << program;
  ProcessResult r = build_and_run("regions", program);
  ASSERT_TRUE(r.ok()) << r.out << r.err;
  EXPECT_EQ(numbers(r.out), original_output());
  // w and c in, w back; per step (12) w's second level to the host for
  // `bc` in `cycle` and back, and w to the host for the main program's
  // `bc` and back.
  EXPECT_NE(r.out.find("transfers " + std::to_string(2 + 1 + 12 * 4) + "\n"), std::string::npos)
      << r.out;
}

TEST_F(CallerRegionsEmulated,
       WithoutItsUpdateIfPresentTheRoutineBetweenTheKernelsReadsStaleValues) {
  rewrite({"mg.f"});
  std::string program = rewritten("mg.f");
  const std::string update = "      call f2s_cr_data_update_host_if_present(w(n+3))\n";
  size_t at = program.find(update);
  ASSERT_NE(at, std::string::npos) << program;
  program.erase(at, update.size());
  ProcessResult r = build_and_run("stale", program);
  ASSERT_TRUE(r.ok()) << r.out << r.err;
  EXPECT_NE(numbers(r.out), original_output());
}

TEST(CallerRegions, NoDataRegionsWritesNoneInCallersEither) {
  test::ScratchDir dir;
  fs::path out = dir.path() / "out";
  ProcessResult r = f2stencil({"--no-data-regions", "--emit=sources", "-q", "--rewrite",
                               "--target=pthreads,cuda", std::string("--lib=") + kLib, "-o",
                               out.string(), source("tests/inputs/caller_regions/kernels.f90"),
                               source("tests/inputs/caller_regions/main.f90")});
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  for (const char *f : {"kernels.f90", "main.f90"})
    EXPECT_EQ(test::read_file(out / "src" / f).find("_data_"), std::string::npos) << f;
  EXPECT_EQ(test::read_file(out / "src" / "main.f90"),
            test::read_file(source("tests/inputs/caller_regions/main.f90")));
}

} // namespace
} // namespace f2s
