// The tuner verifies before it times, and a candidate that crashes, hangs,
// fails to build or disagrees with the reference is reported, never chosen.
#include "harness/Tuner.h"

#include "codegen/CPrinter.h"
#include "strategy/MachineModel.h"

#include "common/TestUtil.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

// Two cores without caches worth blocking for: few candidates, all quick.
const CpuModel &two_cores() {
  static const CpuModel m = cpu_model_from_synthetic("pack:1 core:2 pu:1");
  return m;
}

/// The engine's space cut down to three code shapes (serial, plain parallel,
/// and core-blocked without point-loop options), renamed "serial",
/// "parallel" and "blocked", so each test runs a handful of candidates.
SearchSpace small_space(const Kernel &k, const ProblemSize &size) {
  SearchSpace all = enumerate_cpu(k, analyze(k), size.extents, {{"c", "pthreads"}, &two_cores()});
  const std::string blocked = "blocked_bypass0_indexing0_rx1_ry1_rz1";
  SearchSpace space;
  std::map<size_t, size_t> kept;
  for (const Candidate &c : all.candidates) {
    const Variant &v = all.variants[c.variant];
    if (v.name != "serial" && v.name != "parallel" && v.name != blocked)
      continue;
    if (v.name == blocked && c.tune.at("pf") != 0)
      continue;
    if (!kept.count(c.variant)) {
      kept[c.variant] = space.variants.size();
      space.variants.push_back(v);
      if (v.name == blocked)
        space.variants.back().name = "blocked";
    }
    space.candidates.push_back(c);
    space.candidates.back().variant = kept[c.variant];
  }
  return space;
}

struct Sabotage {
  Kernel k = test::example_kernel("laplacian");
  ProblemSize size = problem_size_for(k, {19, 7, 5});
  SearchSpace space = small_space(k, size);
  std::vector<VariantCode> code = generate_variants(k, space);

  VariantCode &variant(const std::string &name) {
    for (VariantCode &v : code)
      if (v.variant.name == name)
        return v;
    throw std::runtime_error("no variant " + name);
  }
  /// Replaces a variant's body with `body`, keeping its name and signature.
  void sabotage(const std::string &name, const std::string &body) {
    VariantCode &v = variant(name);
    v.c_function = "static void " + v.c_name +
                   "(const struct f2s_laplacian_args *a, const long "
                   "*tune, int nthreads) {\n" +
                   body + "\n}\n";
  }
  /// Runs `code` at the start of a variant's body, before what it computes.
  void prefix(const std::string &name, const std::string &code) {
    VariantCode &v = variant(name);
    size_t open = v.c_function.find("{\n", v.c_function.find("static void " + v.c_name + "("));
    ASSERT_NE(open, std::string::npos);
    v.c_function.insert(open + 2, code + "\n");
  }
  KernelTuning tune(const test::ScratchDir &dir, double timeout = 30) {
    TuneOptions o;
    o.work_dir = dir.path();
    o.reps = 2;
    o.timeout_s = timeout;
    return tune_kernel(k, space, code, size, o);
  }
};

size_t count(const KernelTuning &t, CandidateStatus s) {
  size_t n = 0;
  for (const CandidateResult &r : t.results)
    n += r.status == s;
  return n;
}

TEST(Tuner, VerifiesAndTimesEveryCandidate) {
  test::ScratchDir dir;
  Sabotage s;
  KernelTuning t = s.tune(dir);
  ASSERT_EQ(t.results.size(), s.space.candidates.size());
  for (const CandidateResult &r : t.results) {
    EXPECT_EQ(r.status, CandidateStatus::Verified) << r.description << ": " << r.detail;
    EXPECT_EQ(r.max_rel_err, 0) << r.description;
    EXPECT_GT(r.seconds, 0);
    EXPECT_GT(r.gflops, 0);
  }
  ASSERT_TRUE(t.best());
  ASSERT_TRUE(t.best("c"));
  EXPECT_EQ(s.space.variants[t.results[*t.best("c")].candidate.variant].target, "c");
}

TEST(Tuner, SkipsCandidatesThatCrashOrDisagree) {
  test::ScratchDir dir;
  Sabotage s;
  s.sabotage("blocked", "abort();");
  // Writes one wrong value in the halo, where the kernel must not write.
  s.sabotage("parallel", "a->F_unew[0] += 1.0;");
  KernelTuning t = s.tune(dir);
  for (const CandidateResult &r : t.results) {
    const std::string &name = s.space.variants[r.candidate.variant].name;
    if (name == "blocked")
      EXPECT_EQ(r.status, CandidateStatus::Crashed) << r.description;
    else if (name == "parallel")
      EXPECT_EQ(r.status, CandidateStatus::WrongResult) << r.description;
    else
      EXPECT_EQ(r.status, CandidateStatus::Verified) << r.description;
  }
  for (const CandidateResult &r : t.results)
    if (r.status == CandidateStatus::Crashed)
      EXPECT_NE(r.detail.find("SIGABRT"), std::string::npos) << r.detail;
  EXPECT_GT(count(t, CandidateStatus::Crashed), 0u);
  ASSERT_TRUE(t.best());
  EXPECT_EQ(s.space.variants[t.results[*t.best()].candidate.variant].name, "serial");
  EXPECT_FALSE(t.best("pthreads"));
}

// The search's fastest are measured again after it, in interleaved rounds,
// and the choice is made on those times: a candidate whose first run was
// lucky (here: every process of the "parallel" variant after the first one
// sleeps 20 ms a call, the others 2 ms) is not chosen.
TEST(Tuner, ChoosesOnTheFastestMeasuredAgain) {
  test::ScratchDir dir;
  Sabotage s;
  std::string mark = (dir.path() / "parallel.ran").string();
  s.prefix("serial", "usleep(2000);");
  s.prefix("blocked", "usleep(2000);");
  s.prefix("parallel", "static int f2s_ran = -1;\n"
                       "if (f2s_ran < 0) {\n"
                       "  FILE *f2s_f = fopen(\"" +
                           mark +
                           "\", \"r\");\n"
                           "  f2s_ran = f2s_f != 0;\n"
                           "  if (f2s_f) fclose(f2s_f); else fclose(fopen(\"" +
                           mark +
                           "\", \"w\"));\n"
                           "}\n"
                           "if (f2s_ran) usleep(20000);");
  for (VariantCode &v : s.code)
    v.c_function = "#include <unistd.h>\n#include <stdio.h>\n" + v.c_function;
  KernelTuning t = s.tune(dir);
  std::optional<size_t> best = t.best("pthreads");
  ASSERT_TRUE(best);
  EXPECT_TRUE(t.results[*best].confirmed);
  EXPECT_EQ(s.space.variants[t.results[*best].candidate.variant].name, "blocked")
      << t.results[*best].description;
  size_t confirmed = 0;
  for (const CandidateResult &r : t.results) {
    confirmed += r.confirmed;
    if (r.confirmed && s.space.variants[r.candidate.variant].name == "parallel")
      EXPECT_GT(r.seconds, 0.015) << r.description << " measured again";
  }
  // Three per target, or all of a target that has fewer.
  EXPECT_GE(confirmed, 4u);
  EXPECT_LE(confirmed, 6u);
}

// A reduction is verified too: grids right but the reduced scalar off by a
// relative 1e-9 (serial: the result written back; parallel: the partials'
// combination) is a wrong result, far above a reordered sum's rounding.
TEST(Tuner, RejectsAWrongReduction) {
  test::ScratchDir dir;
  Kernel k = test::example_kernel("himeno_gosa");
  ProblemSize size = problem_size_for(k, {19, 7, 5});
  SearchSpace space = small_space(k, size);
  std::vector<VariantCode> code = generate_variants(k, space);
  auto replace = [](std::string &text, const std::string &from, const std::string &to) {
    size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
  };
  for (VariantCode &v : code) {
    if (v.variant.name == "serial")
      replace(v.c_function, "*a->F_gosa = F_gosa;", "*a->F_gosa = F_gosa * (1 + 1e-9);");
    if (v.variant.name == "parallel")
      replace(v.c_function, "f2s_F_gosa = f2s_F_gosa + f2s_F_gosa_part[f2s_t];",
              "f2s_F_gosa = f2s_F_gosa + f2s_F_gosa_part[f2s_t] * (1 + 1e-9);");
  }
  TuneOptions o;
  o.work_dir = dir.path();
  o.reps = 1;
  o.timeout_s = 30;
  KernelTuning t = tune_kernel(k, space, code, size, o);
  ASSERT_FALSE(t.results.empty());
  for (const CandidateResult &r : t.results) {
    const std::string &name = space.variants[r.candidate.variant].name;
    EXPECT_EQ(r.status,
              name == "blocked" ? CandidateStatus::Verified : CandidateStatus::WrongResult)
        << r.description << ": " << r.detail;
    // The blocked nest adds the same terms in another order: within rounding.
    if (name == "blocked")
      EXPECT_LT(r.max_rel_err, 1e-13) << r.description;
  }
}

TEST(Tuner, SkipsCandidatesThatHangOrDoNotBuild) {
  test::ScratchDir dir;
  Sabotage s;
  s.sabotage("blocked", "for (volatile int x = 0;; ++x) {}");
  s.sabotage("parallel", "this is not C");
  KernelTuning t = s.tune(dir, 2);
  for (const CandidateResult &r : t.results) {
    const std::string &name = s.space.variants[r.candidate.variant].name;
    if (name == "blocked")
      EXPECT_EQ(r.status, CandidateStatus::TimedOut) << r.description;
    else if (name == "parallel")
      EXPECT_EQ(r.status, CandidateStatus::BuildFailed) << r.description;
  }
  EXPECT_EQ(count(t, CandidateStatus::Verified), 1u);
}

// A second session in the same work directory, at another size, runs the
// harnesses the first built (they take the size at run time); a variant
// whose code changed in between is compiled again, so that its stale binary
// cannot pass for it.
TEST(Tuner, ASessionAtAnotherSizeRunsTheHarnessesAlreadyBuilt) {
  test::ScratchDir dir;
  Sabotage s;
  std::vector<std::string> lines;
  TuneOptions o;
  o.work_dir = dir.path();
  o.reps = 1;
  o.progress = [&](const std::string &line) { lines.push_back(line); };
  auto builds = [&] {
    size_t n = 0;
    for (const std::string &line : lines)
      n += line.starts_with("building ");
    return n;
  };
  KernelTuning first = tune_kernel(s.k, s.space, s.code, s.size, o);
  ASSERT_EQ(builds(), 1u);
  ASSERT_EQ(count(first, CandidateStatus::Verified), s.space.candidates.size());

  ProblemSize other = problem_size_for(s.k, {1, 1, 1});
  KernelTuning again = tune_kernel(s.k, s.space, s.code, other, o);
  EXPECT_EQ(builds(), 1u);
  EXPECT_EQ(count(again, CandidateStatus::Verified), s.space.candidates.size());

  s.sabotage("parallel", "a->F_unew[0] += 1.0;");
  lines.clear();
  KernelTuning changed = tune_kernel(s.k, s.space, s.code, other, o);
  ASSERT_EQ(lines.front(), "building 1 harness variant(s)");
  for (const CandidateResult &r : changed.results)
    EXPECT_EQ(r.status, s.space.variants[r.candidate.variant].name == "parallel"
                            ? CandidateStatus::WrongResult
                            : CandidateStatus::Verified)
        << r.description;
}
TEST(ProblemSize, SolvesLoopBoundsForTheTuningSize) {
  Kernel k = test::example_kernel("laplacian");
  ProblemSize p = problem_size_for(k, {30, 20, 10});
  EXPECT_EQ(p.ints.at("nx"), 30);
  EXPECT_EQ(p.ints.at("ny"), 20);
  EXPECT_EQ(p.ints.at("nz"), 10);
  EXPECT_EQ(p.extents, (std::vector<int64_t>{30, 20, 10}));
  EXPECT_EQ(p.points(), 6000);
  ASSERT_EQ(p.scalar_values.size(), 5u);
  EXPECT_EQ(p.scalar_values[0], "30");
  EXPECT_NE(p.scalar_values[3], p.scalar_values[4]); // alpha and beta differ
}

TEST(ProblemSize, GivesIntegersOnlyThePointReadsTheValueOne) {
  Kernel k = test::example_kernel("gsrb3d");
  ProblemSize p = problem_size_for(k, {9, 8, 7});
  EXPECT_EQ(p.ints.at("color"), 1);
  EXPECT_EQ(p.scalar_values[3], "1"); // nx, ny, nz, color, h2
  // An integer that sizes an array but no loop gets the smallest value
  // that holds the accesses, and none when no value does.
  test::ScratchDir dir;
  Kernel sized = test::lower_text(dir, R"(subroutine s(n, m, a, b)
  integer :: n, m, i
  real(8) :: a(n + m - 3), b(n)
  !$f2s stencil
  do i = 1, n
    b(i) = 2d0*a(i)
  end do
end subroutine
)");
  EXPECT_EQ(problem_size_for(sized, {10}).ints.at("m"), 3);
  // A variable in lower bounds only is the largest that holds the accesses
  // (negative where it must be).
  Kernel lowered = test::lower_text(dir, R"(subroutine s(n, m, a, b)
  integer :: n, m, i
  real(8) :: a(m + 2:n), b(n)
  !$f2s stencil
  do i = 1, n
    b(i) = 2d0*a(i)
  end do
end subroutine
)",
                                    "lowered.f90");
  EXPECT_EQ(problem_size_for(lowered, {10}).ints.at("m"), -1);
  // No value of m gives a(m:m + 2) the ten elements the loop reads.
  Kernel unsizable = test::lower_text(dir, R"(subroutine s(n, m, a, b)
  integer :: n, m, i
  real(8) :: a(m:m + 2), b(n)
  !$f2s stencil
  do i = 1, n
    b(i) = 2d0*a(i)
  end do
end subroutine
)",
                                      "unsizable.f90");
  EXPECT_THROW(problem_size_for(unsizable, {10}), UserError);
}

// Multigrid: the fine grid's size nf is in array bounds only, and becomes
// the smallest that holds r(2*nc + 1); stride-2 loops count trips, so their
// bounds are solved through the division.
TEST(ProblemSize, SizesFineGridsAndStridedLoops) {
  ProblemSize r = problem_size_for(test::example_kernel("restrict3d"), {5, 4, 3});
  EXPECT_EQ(r.ints.at("nc1"), 5);
  EXPECT_EQ(r.ints.at("nf1"), 10);
  EXPECT_EQ(r.ints.at("nf2"), 8);
  EXPECT_EQ(r.ints.at("nf3"), 6);
  ProblemSize p = problem_size_for(test::example_kernel("interp3d"), {5, 4, 3});
  EXPECT_EQ(p.ints.at("nc1"), 4); // do i = 0, nc1
  EXPECT_EQ(p.ints.at("nf1"), 8); // u(2*nc1 + 1) is u(nf1 + 1) at most
  ProblemSize s = problem_size_for(test::example_kernel("refine2d"), {5, 4});
  EXPECT_EQ(s.ints.at("nx"), 11); // do i = 2, nx - 1, 2: 5 trips
  EXPECT_EQ(s.ints.at("ny"), 7);  // do j = 1, ny, 2: 4 trips
  EXPECT_EQ(s.extents, (std::vector<int64_t>{5, 4}));
}

// A weather model's memory bounds around the tile its loops run over: each
// bound is set to what the accesses need, the lower ones without waiting
// for the upper ones of the same dimension.
TEST(ProblemSize, SetsMemoryBoundsAroundTheTile) {
  test::ScratchDir dir;
  Kernel k = test::lower_text(
      dir, R"(subroutine s(ims, ime, kms, kme, jms, jme, is, ie, js, je, ke, w, t, m, r)
  integer :: ims, ime, kms, kme, jms, jme, is, ie, js, je, ke, i, j, k
  real :: w(ims:ime, kms:kme, jms:jme), t(ims:ime, kms:kme, jms:jme)
  real :: m(ims:ime, jms:jme), r(kms:kme)
  !$f2s stencil
  do j = js, je
    do k = 2, ke
      do i = is, ie
        t(i, k, j) = m(i, j)*r(k)*(w(i-1, k, j) + w(i+2, k-1, j) + w(i, k, j+1))
      end do
    end do
  end do
end subroutine
)",
      "memory.f90");
  ProblemSize p = problem_size_for(k, {40, 6, 30});
  EXPECT_EQ(p.ints.at("is"), 1);
  EXPECT_EQ(p.ints.at("ie"), 40);
  EXPECT_EQ(p.ints.at("ims"), 0);  // w(i-1) at i = 1
  EXPECT_EQ(p.ints.at("ime"), 42); // w(i+2) at i = 40
  EXPECT_EQ(p.ints.at("kms"), 1);  // w(k-1) at k = 2
  EXPECT_EQ(p.ints.at("kme"), 7);
  EXPECT_EQ(p.ints.at("jms"), 1);
  EXPECT_EQ(p.ints.at("jme"), 31); // w(j+1) at j = 30
  EXPECT_EQ(p.extents, (std::vector<int64_t>{40, 6, 30}));
}

TEST(ProblemSize, SolvesInteriorLoopsAndRefusesOutOfBoundsAccess) {
  test::ScratchDir dir;
  Kernel interior = test::lower_text(dir, R"(subroutine s(n, m, a, b)
  integer :: n, m, i, j
  real(8) :: a(n, m), b(n, m)
  !$f2s stencil
  do j = 2, m - 1
    do i = 2, n - 1
      b(i, j) = a(i-1, j) + a(i+1, j) + a(i, j-1) + a(i, j+1)
    end do
  end do
end subroutine
)",
                                     "interior.f90");
  ProblemSize p = problem_size_for(interior, {100, 50});
  EXPECT_EQ(p.ints.at("n"), 102);
  EXPECT_EQ(p.ints.at("m"), 52);
  EXPECT_EQ(p.extents, (std::vector<int64_t>{100, 50}));

  Kernel overrun = test::lower_text(dir, R"(subroutine s(n, a, b)
  integer :: n, i, j
  real(8) :: a(n, n), b(n, n)
  !$f2s stencil
  do j = 1, n
    do i = 1, n
      b(i, j) = a(i+1, j)
    end do
  end do
end subroutine
)",
                                    "overrun.f90");
  try {
    problem_size_for(overrun, {8, 8});
    FAIL() << "an access past the declared bounds must be refused";
  } catch (const UserError &e) {
    EXPECT_EQ(e.diagnostic().message,
              "'a' is accessed at i + 1 from 2 to 9 in dimension 1, outside its declared bounds "
              "1:8 at the tuning size");
    EXPECT_EQ(e.diagnostic().loc.line, 7);
  }
}

} // namespace
} // namespace f2s
