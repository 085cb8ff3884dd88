// The whole path: annotated Fortran through f2stencil into a library, linked
// by a Fortran program that compares it with the gfortran-compiled original.
#include "e2e/E2E.h"

#include "harness/CudaToolkit.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <map>

namespace f2s {
namespace {

namespace fs = std::filesystem;
using test::f2stencil;
using test::run;
using test::source;

/// Builds examples/<name>/main.f90 against the library in `out`.
std::string build_example(const test::ScratchDir &dir, const std::string &name, const fs::path &out,
                          bool shared = false) {
  std::string exe = (dir.path() / (name + "_check")).string();
  std::vector<std::string> cmd = {"gfortran",
                                  "-O2",
                                  "-o",
                                  exe,
                                  test::example_source(name),
                                  source("examples/" + name + "/main.f90"),
                                  "-I" + out.string()};
  if (shared)
    cmd.insert(cmd.end(), {"-L" + out.string(), "-Wl,-rpath," + out.string(), "-lf2s_" + name});
  else
    cmd.push_back((out / ("libf2s_" + name + ".a")).string());
  cmd.push_back("-lpthread");
  ProcessResult r = run(cmd);
  EXPECT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  return exe;
}

void expect_passes(const std::string &exe, std::vector<std::string> size,
                   std::vector<std::pair<std::string, std::string>> env = {}) {
  size.insert(size.begin(), exe);
  ProcessResult r = run(size, env);
  EXPECT_TRUE(r.ok() && r.out.find("PASSED") != std::string::npos)
      << "size " << (size.size() > 1 ? size[1] : "default") << ": " << r.describe() << "\n"
      << r.out << r.err;
}

// Sizes that are odd, non-cubic, smaller than any block and degenerate.
const std::vector<std::vector<std::string>> kSizes = {
    {}, {"33", "17", "5"}, {"1", "1", "1"}, {"7", "130", "2"}, {"300", "2", "3"}, {"2", "3", "97"}};

class Operator : public ::testing::TestWithParam<std::string> {};

TEST_P(Operator, UntunedLibraryMatchesTheOriginalAtEverySize) {
  test::ScratchDir dir;
  std::string name = GetParam();
  fs::path out = dir.path() / "out";
  ProcessResult r = f2stencil(
      {"--no-tune", "--target=pthreads,c", "-q", "-o", out.string(), test::example_source(name)});
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  for (const char *file : {".a", ".so"})
    EXPECT_TRUE(fs::exists(out / ("libf2s_" + name + file)));
  for (const char *file : {".f90", ".h", ".json", ".mod"})
    EXPECT_TRUE(fs::exists(out / ("f2s_" + name + file))) << file;
  std::string exe = build_example(dir, name, out);
  for (const auto &size : kSizes) {
    expect_passes(exe, size);
    expect_passes(exe, size, {{"F2S_NUM_THREADS", "3"}});
  }
  expect_passes(build_example(dir, name, out, true), {"31", "9", "4"});
}

TEST_P(Operator, TunedLibraryMatchesTheOriginalAtOtherSizes) {
  test::ScratchDir dir;
  std::string name = GetParam();
  fs::path out = dir.path() / "out";
  ProcessResult r = f2stencil(
      {"--tune-size=24,10,9", "--reps=1", "-q", "-o", out.string(), test::example_source(name)});
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  std::string exe = build_example(dir, name, out);
  // Seven threads: the tuned blocks, trimmed to each size so that every
  // thread gets a share (f2s_balanced_block), still cover every point once.
  for (const auto &size : kSizes) {
    expect_passes(exe, size);
    expect_passes(exe, size, {{"F2S_NUM_THREADS", "7"}});
  }

  // The tuning record lists every candidate with its parameters and timing.
  nlohmann::json rec = nlohmann::json::parse(std::ifstream(out / ("f2s_" + name + ".json")));
  const nlohmann::json &k = rec["kernels"].at(0);
  EXPECT_EQ(k["name"], name);
  EXPECT_EQ(k["extents"], (std::vector<int64_t>{24, 10, 9}));
  ASSERT_GT(k["candidates"].size(), 2u);
  bool winner_listed = false;
  for (const nlohmann::json &c : k["candidates"]) {
    EXPECT_EQ(c["status"], "verified") << c.dump();
    EXPECT_GT(c["time_s"].get<double>(), 0);
    EXPECT_TRUE(c["params"].contains("threads"));
    winner_listed |= c["id"] == k["winner"];
  }
  EXPECT_TRUE(winner_listed);
  EXPECT_EQ(k["chosen"]["default"], k["winner"]);
}

INSTANTIATE_TEST_SUITE_P(KamilOperators, Operator,
                         ::testing::Values("laplacian", "divergence", "gradient"));
// Zhang and Mueller (CGO 2012), Table 1: a temporary reassigned, a two-point
// halo, thirteen coefficient grids, and corner reads.
INSTANTIATE_TEST_SUITE_P(ZhangMuellerTable1, Operator,
                         ::testing::Values("star7", "star13", "himeno19", "box27"));
// Legacy and modern source forms (issue 5). jacobi3d_f77 keeps its grids in
// a COMMON block of fixed size, too small for these sizes: SourceFormsTest
// runs it at its own.
INSTANTIATE_TEST_SUITE_P(SourceForms, Operator,
                         ::testing::Values("laplacian_f77", "heat3d_modern"));

/// An example of the wider kernel class and its nest depth: its checking
/// program takes one size per loop.
struct KernelClassExample {
  std::string name;
  int rank;
};

std::ostream &operator<<(std::ostream &out, const KernelClassExample &e) {
  return out << e.name;
}

/// Sizes that are odd, uneven, smaller than any block and degenerate, cut to
/// `rank` values.
std::vector<std::vector<std::string>> sizes_of_rank(int rank) {
  std::vector<std::vector<std::string>> sizes = {{}};
  for (std::vector<std::string> s : std::vector<std::vector<std::string>>{{"33", "17", "5"},
                                                                          {"1", "1", "1"},
                                                                          {"7", "130", "2"},
                                                                          {"301", "2", "3"},
                                                                          {"2", "3", "97"}}) {
    s.resize(rank);
    sizes.push_back(s);
  }
  if (rank == 1)
    sizes.push_back({"100003"});
  return sizes;
}

class KernelClass : public ::testing::TestWithParam<KernelClassExample> {};

TEST_P(KernelClass, UntunedLibraryMatchesTheOriginalOnEveryCpuTarget) {
  test::ScratchDir dir;
  const KernelClassExample &e = GetParam();
  for (const char *target : {"c", "pthreads"}) {
    SCOPED_TRACE(target);
    fs::path out = dir.path() / (std::string("out_") + target);
    ProcessResult r =
        f2stencil({"--no-tune", std::string("--target=") + target, "-q", "-o", out.string(),
                   source("examples/" + e.name + "/" + e.name + ".f90")});
    ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
    std::string exe = build_example(dir, e.name, out);
    for (const auto &size : sizes_of_rank(e.rank)) {
      expect_passes(exe, size);
      expect_passes(exe, size, {{"F2S_NUM_THREADS", "3"}});
    }
  }
}

TEST_P(KernelClass, TunedLibraryMatchesTheOriginalAtOtherSizes) {
  test::ScratchDir dir;
  const KernelClassExample &e = GetParam();
  fs::path out = dir.path() / "out";
  std::vector<std::string> tune = {"24", "10", "9"};
  tune.resize(e.rank);
  std::string tune_size = "--tune-size=" + tune[0];
  for (int d = 1; d < e.rank; ++d)
    tune_size += "," + tune[d];
  ProcessResult r = f2stencil(
      test::quick_tuning({tune_size, "--reps=1", "--target=c,pthreads", "-q", "-o", out.string(),
                          source("examples/" + e.name + "/" + e.name + ".f90")}));
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  std::string exe = build_example(dir, e.name, out);
  for (const auto &size : sizes_of_rank(e.rank))
    expect_passes(exe, size);
  // Every candidate of every kernel agreed with the reference.
  nlohmann::json rec = nlohmann::json::parse(std::ifstream(out / ("f2s_" + e.name + ".json")));
  ASSERT_FALSE(rec["kernels"].empty());
  for (const nlohmann::json &k : rec["kernels"])
    for (const nlohmann::json &c : k["candidates"])
      EXPECT_EQ(c["status"], "verified") << c.dump();
}

INSTANTIATE_TEST_SUITE_P(
    Examples, KernelClass,
    ::testing::Values(KernelClassExample{"jacobi1d", 1}, KernelClassExample{"jacobi2d", 2},
                      KernelClassExample{"poisson2d", 2}, KernelClassExample{"fdtd2d", 2},
                      KernelClassExample{"upwind2d", 2}, KernelClassExample{"gsrb3d", 3},
                      // Reductions over the nest: a max norm and Himeno's residual sum.
                      KernelClassExample{"maxnorm2d", 2}, KernelClassExample{"himeno_gosa", 3},
                      // Multigrid transfers (subscripts 2*i + o, several stores of one
                      // grid) and a nest of stride-2 loops.
                      KernelClassExample{"restrict3d", 3}, KernelClassExample{"interp3d", 3},
                      KernelClassExample{"refine2d", 2},
                      // Arrays of other ranks than the nest: 1D damping profiles and
                      // constant subscripts in 2D; 2D map factors, 1D metrics and
                      // component dimensions in a 3D nest stored (i,k,j).
                      KernelClassExample{"stress2d", 2}, KernelClassExample{"mapfactor3d", 3},
                      // A tridiagonal solve per column: two sweeps ordered along k, the
                      // second running from the bottom up (DO k = nz - 1, 1, -1).
                      KernelClassExample{"tridiag_column", 3},
                      // Imperfect as written: a red-black colour offset computed between the
                      // loops; line buffers filled beside the loops that read them.
                      KernelClassExample{"rb_colour", 3}, KernelClassExample{"mg_resid", 3},
                      // The shape as offset loops inside the point, with a weights array.
                      KernelClassExample{"star_offsets", 2}),
    [](const auto &info) { return info.param.name; });

TEST(EndToEnd, SinglePrecision2DWithIntrinsicsMatchesTheOriginal) {
  test::ScratchDir dir;
  fs::path out = dir.path() / "out";
  ProcessResult r =
      f2stencil(test::quick_tuning({"--reps=1", "-q", "--target=c,pthreads", "--lib=f2s_mixed2d",
                                    "-o", out.string(), source("tests/inputs/e2e/mixed2d.f90")}));
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  std::string exe = (dir.path() / "mixed").string();
  r = run({"gfortran", "-O2", "-o", exe, source("tests/inputs/e2e/mixed2d.f90"),
           source("tests/inputs/e2e/mixed2d_main.f90"), "-I" + out.string(),
           (out / "libf2s_mixed2d.a").string(), "-lpthread"});
  ASSERT_TRUE(r.ok()) << r.err;
  for (std::vector<std::string> size :
       std::vector<std::vector<std::string>>{{}, {"1", "1"}, {"513", "3"}, {"4", "77"}})
    expect_passes(exe, size);
}

// Folders of inputs, each source <name><ext> beside its checking program
// <name>_main.f90, which uses the library f2s_<name> and prints PASSED.
const std::string kE2eInputs = "tests/inputs/e2e/";
// The blind survey's nests (docs/real-code-survey.md), as the survey took
// them: without a tune_size clause, so their tests pass a small size as
// f2stencil's --tune-size.
const std::string kBlindInputs = "tests/inputs/blind/";

/// f2stencil's arguments before the source: `args`, and --tune-size when
/// `tune_size` ("40,30") is given, overriding the source's size.
std::vector<std::string> with_tune_size(std::vector<std::string> args,
                                        const std::string &tune_size) {
  if (!tune_size.empty())
    args.insert(args.begin(), "--tune-size=" + tune_size);
  return args;
}

/// Tunes <folder><name><ext> for the CPU targets (at `tune_size` where given)
/// into a library f2s_<name>, links <folder><name>_main.f90 against it, and
/// runs it at 2D sizes.
void expect_2d_input_matches(const std::string &name, const std::string &ext = ".f90",
                             const std::string &folder = kE2eInputs,
                             const std::string &tune_size = "") {
  test::ScratchDir dir;
  fs::path out = dir.path() / "out";
  std::string f90 = source(folder + name + ext);
  std::vector<std::string> args = with_tune_size(
      {"--reps=1", "-q", "--target=c,pthreads", "--lib=f2s_" + name, "-o", out.string()},
      tune_size);
  args.push_back(f90);
  ProcessResult r = f2stencil(test::quick_tuning(args));
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  std::string exe = (dir.path() / name).string();
  r = run({"gfortran", "-O2", "-o", exe, f90, source(folder + name + "_main.f90"),
           "-I" + out.string(), (out / ("libf2s_" + name + ".a")).string(), "-lpthread"});
  ASSERT_TRUE(r.ok()) << r.err;
  for (std::vector<std::string> size :
       std::vector<std::vector<std::string>>{{}, {"1", "1"}, {"513", "3"}, {"4", "77"}}) {
    expect_passes(exe, size);
    expect_passes(exe, size, {{"F2S_NUM_THREADS", "3"}});
  }
}

// Recurrences along the innermost loop, eastward and westward (a step of
// -1): the rows run in parallel, each row in order.
TEST(EndToEnd, LineRecurrencesBothWaysMatchTheOriginal) {
  expect_2d_input_matches("linerec2d");
}

/// Builds <folder><name><ext> untuned and tuned for both CPU targets into
/// f2s_<name>, links <folder><name>_main.f90 against each, and runs it at
/// odd sizes of `rank` values (and at `more` sizes); returns each library's
/// tuning record. Tuned at `tune_size` where given ("default": the nests'
/// own, for a file whose nests have different depths), else at a small size
/// of `rank` values: at the nests' default (256 a dimension) the tuning
/// harnesses' grids took most of such a test's time, and what it checks,
/// the results at the odd sizes, does not depend on the size tuned at
/// (GridsSizedByIncludedParametersTuneAtTheDefaultSize tunes at the default).
std::vector<nlohmann::json> expect_input_matches_untuned_and_tuned(
    const std::string &name, int rank, const std::string &ext = ".f90",
    const std::string &folder = kE2eInputs, const std::vector<std::vector<std::string>> &more = {},
    const std::string &tune_size = "") {
  test::ScratchDir dir;
  std::string f90 = source(folder + name + ext);
  const std::string tuned_at = tune_size == "default" ? ""
                               : !tune_size.empty()   ? tune_size
                               : rank == 1            ? "1000"
                               : rank == 2            ? "40,30"
                                                      : "24,10,9";
  std::vector<nlohmann::json> records;
  for (bool tuned : {false, true}) {
    SCOPED_TRACE(tuned ? "tuned" : "untuned");
    fs::path out = dir.path() / (tuned ? "tuned" : "untuned");
    std::vector<std::string> args =
        with_tune_size({tuned ? "--reps=1" : "--no-tune", "-q", "--target=c,pthreads",
                        "--lib=f2s_" + name, "-o", out.string()},
                       tuned_at);
    args.push_back(f90);
    ProcessResult r = f2stencil(tuned ? test::quick_tuning(args) : args);
    EXPECT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
    if (!r.ok())
      return records;
    std::string exe = (dir.path() / (tuned ? "tuned_check" : "untuned_check")).string();
    r = run({"gfortran", "-O2", "-o", exe, f90, source(folder + name + "_main.f90"),
             "-I" + out.string(), (out / ("libf2s_" + name + ".a")).string(), "-lpthread"});
    EXPECT_TRUE(r.ok()) << r.err;
    if (!r.ok())
      return records;
    std::vector<std::vector<std::string>> sizes = sizes_of_rank(rank);
    sizes.insert(sizes.end(), more.begin(), more.end());
    for (const auto &size : sizes) {
      expect_passes(exe, size);
      expect_passes(exe, size, {{"F2S_NUM_THREADS", "3"}});
    }
    records.push_back(nlohmann::json::parse(std::ifstream(out / ("f2s_" + name + ".json"))));
    for (const nlohmann::json &k : records.back()["kernels"])
      for (const nlohmann::json &c : k.value("candidates", nlohmann::json::array()))
        EXPECT_EQ(c["status"], "verified") << c.dump();
  }
  return records;
}

// A recurrence along the innermost loop of a level-first (k,i,j) layout,
// untuned and tuned, on both CPU targets; the record says which loop runs
// in order and why.
TEST(EndToEnd, ColumnRecurrenceInALevelFirstLayoutMatchesTheOriginal) {
  std::vector<nlohmann::json> records = expect_input_matches_untuned_and_tuned("colsweep3d", 3);
  ASSERT_EQ(records.size(), 2u);
  for (const nlohmann::json &rec : records) {
    const nlohmann::json &k = rec["kernels"].at(0);
    EXPECT_EQ(k["ordered"]["loop"], "k");
    EXPECT_EQ(k["ordered"]["reason"],
              "'p' is written at (k,i,j) and read at (k-1,i,j) in the same sweep");
  }
}

// Inner loop bounds of outer loop variables: a triangle (`do i = j, nx`), a
// band cut by MIN, and a 3D wedge whose start depends on j + k; every CPU
// decomposition runs over the bounding box and skips the points outside.
TEST(EndToEnd, TriangularAndWedgeDomainsMatchTheOriginal) {
  EXPECT_EQ(expect_input_matches_untuned_and_tuned("tri2d", 2).size(), 2u);
  EXPECT_EQ(expect_input_matches_untuned_and_tuned("wedge3d", 3).size(), 2u);
}

// Offset loops in fixed form: a 27-point box as three nested label DO loops
// sharing a label, with the radius a cpp macro, and a loop counting down
// with its variable in the arithmetic and an IF; unrolled in source order,
// bitwise the original's.
TEST(EndToEnd, OffsetLoopsInFixedFormWithACppRadiusMatchTheOriginal) {
  EXPECT_EQ(expect_input_matches_untuned_and_tuned("offsets3d", 3, ".F").size(), 2u);
}

// Small work arrays of the point (issue 38): a block-tridiagonal Jacobi step
// that fills a 5x5 matrix and a vector per point by DO loops of constant
// bounds and multiplies them, and a row sum limited under an IF; the arrays
// become temporaries of each point, bitwise the original, untuned and tuned,
// on both CPU targets. The CUDA run is PointArraysTest's.
TEST(EndToEnd, WorkArraysOfThePointMatchTheOriginal) {
  std::vector<nlohmann::json> records = expect_input_matches_untuned_and_tuned("btri2d", 2);
  ASSERT_EQ(records.size(), 2u);
  for (const nlohmann::json &rec : records)
    for (const nlohmann::json &k : rec["kernels"])
      EXPECT_FALSE(k.contains("ordered")) << k.dump();
}

// Loops inside the point with a run-time trip count (issue 38): a window
// along x summed into a scalar, a 2D box added into the field, and a damped
// difference whose loop counts down, the radius an argument; each stays a
// loop of the point, bitwise the original at radii 0, 1 and 3, untuned and
// tuned, on both CPU targets. The CUDA run is InnerLoopsTest's.
TEST(EndToEnd, LoopsInsideThePointWithARunTimeRadiusMatchTheOriginal) {
  std::vector<nlohmann::json> records = expect_input_matches_untuned_and_tuned("window2d", 2);
  ASSERT_EQ(records.size(), 2u);
  for (const nlohmann::json &k : records.back()["kernels"])
    EXPECT_FALSE(k.contains("ordered")) << k.dump();
}

// Loops inside the point to a depth that varies from point to point
// (colkmt2d.f90): an ocean's columns to kmt(i, j) directly, through a
// temporary clipped by MIN in an (i,k,j) layout, counting down from the
// floor, and to a depth chosen under an IF; land columns run no trip.
// Bitwise the original, untuned and tuned, on both CPU targets (the tuning
// harness's data for kmt bounds the grids it sizes). The CUDA runs are
// InnerLoopsTest's.
TEST(EndToEnd, LoopsToEachColumnsOwnDepthMatchTheOriginal) {
  std::vector<nlohmann::json> records = expect_input_matches_untuned_and_tuned("colkmt2d", 2);
  ASSERT_EQ(records.size(), 2u);
  for (const nlohmann::json &k : records.back()["kernels"])
    EXPECT_FALSE(k.contains("ordered")) << k.dump();
}

// Nests of more than three DO loops: a component loop (its count an
// argument) around, between or inside the grid's three loops, runs inside
// each point; with 3, 1 and no components, bitwise the original, untuned
// and tuned, on both CPU targets; and five loops in fixed form, two of them
// moved. The CUDA runs are InnerLoopsTest's.
TEST(EndToEnd, ComponentLoopsAroundAndInsideTheGridMatchTheOriginal) {
  std::vector<nlohmann::json> records = expect_input_matches_untuned_and_tuned("deepnest4d", 3);
  ASSERT_EQ(records.size(), 2u);
  for (const nlohmann::json &k : records.back()["kernels"])
    EXPECT_FALSE(k.contains("ordered")) << k.dump();
  EXPECT_EQ(expect_input_matches_untuned_and_tuned("deepnest5d", 3, ".f").size(), 2u);
}

// Arguments u, u_n, u_ref, tolerance and terms: the tuning harness names
// each argument's buffers apart from the others' and from its own locals
// (it failed to compile before).
TEST(EndToEnd, ArgumentNamesThatExtendEachOtherMatchTheOriginal) {
  expect_2d_input_matches("names2d");
}

TEST(EndToEnd, BranchesAndIntrinsicsMatchTheOriginal) {
  expect_2d_input_matches("branches2d");
}

// The stride-2 inner loop of red-black Gauss-Seidel, in place.
TEST(EndToEnd, StrideTwoRedBlackMatchesTheOriginal) {
  expect_2d_input_matches("stride2rb");
}

// Fine indices in INTEGER temporaries (`ic = 2*i - 1`, and `jc` computed
// between the loops) as subscripts of the stores.
TEST(EndToEnd, IntegerTemporariesAsSubscriptsMatchTheOriginal) {
  expect_2d_input_matches("prolong2d");
}

// Red-black in (i,j) with a lexicographic k: the colour test by MOD, each
// point reading the level below in the same sweep; k runs in order in each
// column, untuned and tuned, on both CPU targets.
TEST(EndToEnd, RedBlackWithALexicographicVerticalMatchesTheOriginal) {
  std::vector<nlohmann::json> records = expect_input_matches_untuned_and_tuned("rblex3d", 3);
  ASSERT_EQ(records.size(), 2u);
  for (const nlohmann::json &rec : records)
    EXPECT_EQ(rec["kernels"].at(0)["ordered"]["loop"], "k");
}

// Red-black sweeps whose stride-2 loops start at a parity computed between
// the loops (issue 38): under an IF statement, an IF block with ELSE, or by
// MOD directly, on i alone and on j and i (four colours), with the vertical
// loop in order inside or around them; and zebra lines relaxed in place
// along i. Slabs starting at nxl = 1 and 2 (both parities of the first
// point), untuned and tuned, on both CPU targets; the ordered loop is the
// one that carries the same colour's neighbour.
TEST(EndToEnd, RedBlackStartsComputedBetweenTheLoopsMatchTheOriginal) {
  std::vector<nlohmann::json> records = expect_input_matches_untuned_and_tuned("rbstart3d", 3);
  ASSERT_EQ(records.size(), 2u);
  const std::map<std::string, std::string> ordered = {
      {"rbs_a", "k"}, {"rbs_b", "k"}, {"rbs_c", "k"}, {"rbs_d", "k"}, {"rbs_e", "i"}};
  for (const nlohmann::json &rec : records) {
    ASSERT_EQ(rec["kernels"].size(), ordered.size());
    for (const nlohmann::json &k : rec["kernels"])
      EXPECT_EQ(k["ordered"]["loop"], ordered.at(k["name"].get<std::string>())) << k["name"];
  }
}

// A multigrid restriction whose fine-grid subscripts are offset by INTEGER
// arguments the caller computes (`r(2*i - d1, 2*j - d2)`): the offsets move
// into the fine grid's bounds; untuned and tuned, on both CPU targets.
TEST(EndToEnd, SubscriptsOffsetByArgumentsMatchTheOriginal) {
  EXPECT_EQ(expect_input_matches_untuned_and_tuned("rprjd2d", 2).size(), 2u);
}

// A weather model's tendency as it is written: fields dimensioned by memory
// bounds (ims:ime, kms:kme, jms:jme) in (i,k,j) order, loops over a tile
// clipped to the domain by bounds computed before the nest, a 2D map factor
// and a 1D vertical profile; called tile by tile. Tuning sets the memory
// bounds from what the loops access.
TEST(EndToEnd, MemoryBoundsAroundATileMatchTheOriginal) {
  EXPECT_EQ(expect_input_matches_untuned_and_tuned("wrftile3d", 3, ".F90").size(), 2u);
}

// Line buffers in F77 fixed form (labels, continuation lines): filled over a
// row and its ends, one filled from another, read by two loops that become
// one, with a weight computed between the loops.
TEST(EndToEnd, LineBuffersInFixedFormMatchTheOriginal) {
  expect_2d_input_matches("linebuf2d", ".f");
}

// A 3D residual on a grid sized by PARAMETERs, two line buffers filled over
// the whole row (its checking program has the one size the PARAMETERs give).
TEST(EndToEnd, LineBuffersOnAGridSizedByParametersMatchTheOriginal) {
  expect_2d_input_matches("linebufparam3d", ".f");
}

// A multigrid prolongation in F77 (buffers at the coarse index, readers
// that store the fine grid at 2*i - 1 and 2*i of other parities in j and k):
// the four readers run as one loop, untuned and tuned, on both CPU targets.
TEST(EndToEnd, ProlongationWithLineBuffersAndFineStoresMatchesTheOriginal) {
  EXPECT_EQ(expect_input_matches_untuned_and_tuned("intrp3d", 3, ".f").size(), 2u);
}

// A multigrid restriction in F77 as such codes write it: fine indices in
// INTEGER temporaries (`i1 = 2*j1 - d1`, assigned in the buffer loop and
// again in the reading loop), buffers filled at `x1(i1 - 1)`, the fine grid's
// parity in d1..d3; untuned and tuned, on both CPU targets.
TEST(EndToEnd, RestrictionWithBuffersAtTheFineIndexMatchesTheOriginal) {
  EXPECT_EQ(expect_input_matches_untuned_and_tuned("rstrct3d", 3, ".f").size(), 2u);
}

// A tridiagonal solve per column in the form the refusal of the column form
// (survey nest 6) asks for: work arrays with the column's indices, one region
// per sweep with K outermost, the statements before the sweeps a region over
// (J, I), the one after the first sweep inside it under IF (K .EQ. NZ);
// bitwise the column form as written, untuned and tuned.
TEST(EndToEnd, ColumnSolveRewrittenAsTheRefusalSaysMatchesTheColumnForm) {
  EXPECT_EQ(expect_input_matches_untuned_and_tuned("vmixcol3d", 3, ".f", kE2eInputs, {}, "default")
                .size(),
            2u);
}

// Odd numbers of columns and levels (1, 2, 7, 33 each).
const std::vector<std::vector<std::string>> kColumnSizes = {
    {"1", "2", "7"}, {"2", "7", "33"}, {"33", "1", "2"}, {"7", "33", "1"}, {"2", "1", "33"}};

// Survey nest 6 as written: a tridiagonal solve per column with work arrays
// CP(K), DP(K) sized by a PARAMETER, statements before, between and after
// the two DO loops over K (the second backward); threads over the columns,
// each with its own work arrays; untuned and tuned, and the record says the
// nest runs columns in order along k.
TEST(EndToEnd, ColumnSolveAsWrittenMatchesTheOriginal) {
  std::vector<nlohmann::json> records = expect_input_matches_untuned_and_tuned(
      "s06_vdiff", 3, ".f", "tests/inputs/survey/", kColumnSizes, "40,30");
  ASSERT_EQ(records.size(), 2u);
  for (const nlohmann::json &rec : records) {
    const nlohmann::json &k = rec["kernels"].at(0);
    EXPECT_EQ(k["column"]["loop"], "k");
    EXPECT_EQ(k["column"]["work_arrays"], nlohmann::json::array({"cp", "dp"}));
    EXPECT_NE(k["ir"].get<std::string>().find("columns in order along k"), std::string::npos);
  }
}

// Implicit vertical diffusion in free form as atmosphere physics writes it:
// (i,k,j) storage inside wider memory bounds, OpenMP around the nest, the
// work arrays automatic arrays cp(nz), dp(nz) (variable-length per thread).
TEST(EndToEnd, ColumnSolveWithAutomaticWorkArraysMatchesTheOriginal) {
  std::vector<nlohmann::json> records = expect_input_matches_untuned_and_tuned(
      "vdiffikj", 3, ".f90", kE2eInputs, kColumnSizes, "40,30");
  ASSERT_EQ(records.size(), 2u);
  for (const nlohmann::json &rec : records)
    EXPECT_EQ(rec["kernels"].at(0)["column"]["loop"], "k");
}

// An ocean column over a sea floor that varies, in F77: land columns skipped
// by GO TO the shared CONTINUE, the coefficients zero from the floor down
// (IF on KMT(I,J) in the loop), work arrays sized by a PARAMETER.
TEST(EndToEnd, ColumnSolveOverAVaryingSeaFloorMatchesTheOriginal) {
  std::vector<nlohmann::json> records =
      expect_input_matches_untuned_and_tuned("vmixkmt", 3, ".f", kE2eInputs, kColumnSizes, "40,30");
  ASSERT_EQ(records.size(), 2u);
  for (const nlohmann::json &rec : records)
    EXPECT_EQ(rec["kernels"].at(0)["column"]["work_arrays"], nlohmann::json::array({"au", "bu"}));
}

// Land points skipped as F77 ocean codes skip them: IF (...) GO TO the
// shared CONTINUE of the loops, a jump to a label before it, and IF (...)
// CYCLE; an INTEGER depth index as the mask.
TEST(EndToEnd, PointsSkippedByGoToAndCycleMatchTheOriginal) {
  expect_2d_input_matches("skipland2d", ".f");
}

// F77 statement functions (one referencing another, dummies typed by
// IMPLICIT DOUBLE PRECISION) inlined: bitwise gfortran's values.
TEST(EndToEnd, StatementFunctionsMatchTheOriginal) {
  expect_2d_input_matches("stfun2d", ".f");
}

// FORTRAN 77's specific intrinsic names (DSQRT, AMAX1, IDNINT, ...), the
// conversions (DBLE, FLOAT, REAL with a kind, INT, NINT, FLOOR, ...) and
// REAL exponents, in fixed form: bitwise what gfortran computes.
TEST(EndToEnd, SpecificIntrinsicsConversionsAndRealPowersMatchTheOriginal) {
  expect_2d_input_matches("intrinsics2d", ".f");
}

// A nest whose only results are a sum and a maximum: tuned, verified on the
// reduced values alone, and called from Fortran.
TEST(EndToEnd, ReductionsWithoutWrittenGridsMatchTheOriginal) {
  expect_2d_input_matches("norm2d");
}

// F77's running maximum and minimum, `IF (A .GT. RNMU) RNMU = A` and
// `IF (UMIN .GE. U(I,J)) THEN ...`, taken as the MAX and MIN reductions they
// are (canonicalize/IfExtrema): identical to the original at odd sizes.
TEST(EndToEnd, MaximaAndMinimaWrittenAsIfsMatchTheOriginal) {
  expect_2d_input_matches("ifmax2d", ".f");
}

// LOGICAL temporaries, constants, .EQV./.NEQV. and a LOGICAL argument,
// which the module's wrapper converts for the C entry point.
TEST(EndToEnd, LogicalTemporariesAndArgumentMatchTheOriginal) {
  expect_2d_input_matches("logical2d");
}

// A LOGICAL array read as a mask, passed in place.
TEST(EndToEnd, LogicalMaskMatchesTheOriginal) {
  expect_2d_input_matches("mask2d");
}

// A LOGICAL mask beside a LOGICAL scalar and an assumed-shape array: the
// module's wrapper converts the scalar only (gfortran refused the module
// when it converted the mask too).
TEST(EndToEnd, LogicalMaskThroughTheWrapperMatchesTheOriginal) {
  expect_2d_input_matches("maskwrap2d");
}

/// Builds tests/inputs/e2e/cnames2d.f90 for `targets` without tuning, links
/// its checking program (which calls each kernel's `_c` and `_pthreads`
/// procedures) and runs it at odd sizes.
void expect_c_names_match(const std::string &targets) {
  test::ScratchDir dir;
  fs::path out = dir.path() / "out";
  std::string f90 = source("tests/inputs/e2e/cnames2d.f90");
  ProcessResult r = f2stencil(
      {"--no-tune", "-q", "--target=" + targets, "--lib=f2s_cnames2d", "-o", out.string(), f90});
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  std::string exe = (dir.path() / "cnames").string();
  r = run({"gfortran", "-O2", "-o", exe, f90, source("tests/inputs/e2e/cnames2d_main.f90"),
           "-I" + out.string(), "-L" + out.string(), "-Wl,-rpath," + out.string(), "-lf2s_cnames2d",
           "-lpthread"});
  ASSERT_TRUE(r.ok()) << r.err;
  for (std::vector<std::string> size :
       std::vector<std::vector<std::string>>{{}, {"1", "1"}, {"513", "3"}, {"4", "77"}})
    expect_passes(exe, size, {{"F2S_NUM_THREADS", "3"}});
}

// Fortran names that are C's (fmod, fmodf, copysign, copysignf, logf: libm
// functions the generated C calls; asm, typeof: GNU C keywords; unix,
// linux: macros GCC predefines) as loop variables, arrays read and written,
// scalar arguments, temporaries and sums: every user name is F_<name> in C.
TEST(EndToEnd, FortranNamesThatAreCsMatchTheOriginal) {
  expect_c_names_match("c,pthreads");
}

// The same through nvcc: the CUDA source compiles, and without a GPU the
// entry points run on the CPU.
TEST(EndToEnd, FortranNamesThatAreCsBuildWithNvcc) {
  if (!find_nvcc())
    GTEST_SKIP() << "nvcc not found";
  expect_c_names_match("c,pthreads,cuda");
}

// Named constants with powers (REAL(8), REAL(4) and INTEGER, negative
// exponents too), folded as gfortran folds them: bitwise the same results.
TEST(EndToEnd, PowersInNamedConstantsMatchTheOriginal) {
  expect_2d_input_matches("power2d");
}

// F77's PARAMETER without parentheses, typed by the IMPLICIT rules.
TEST(EndToEnd, LegacyParameterWithoutParenthesesMatchesTheOriginal) {
  expect_2d_input_matches("legacy2d", ".f");
}

// POINTER and TARGET statements: pointer grids through the module's wrapper.
TEST(EndToEnd, PointerStatementGridsMatchTheOriginal) {
  expect_2d_input_matches("pointer2d");
}

// A residual sum over assumed-shape arrays: through the module's wrapper.
TEST(EndToEnd, ReductionThroughTheAssumedShapeWrapperMatchesTheOriginal) {
  expect_2d_input_matches("resid2d");
}

// Planes at run-time positions (issue 38): NPB MG's comm3 face copies in
// F77 fixed form (u(n1-1, i2, i3) to u(1, i2, i3)), and a shallow-water
// model's periodic boundaries over module sizes with (0:m+1) ghost layers
// plus a row the caller picks, untuned and tuned, on both CPU targets, at
// odd sizes (at least 2 a dimension: comm3 reads u(n1-1)). The tuned run
// checks that the tuning size gives n1, m and k0 values inside the arrays
// and that every candidate verified. PlanesTest.cpp runs them on the GPU.
TEST(EndToEnd, PlanesAtRunTimePositionsInFixedFormMatchTheOriginal) {
  // The nests have two loops over the faces of a 3D array.
  expect_input_matches_untuned_and_tuned("planes3d", 3, ".f", kE2eInputs, {}, "20,9");
}

TEST(EndToEnd, PlanesAtRunTimePositionsInModuleArraysMatchTheOriginal) {
  // The nests have one loop each over a 2D array.
  expect_input_matches_untuned_and_tuned("planes2d", 2, ".f90", kE2eInputs, {}, "40");
}

// Assumed-size dummies (issue 38), F77: a five-component right-hand side
// `rsd(5, ldx, ldy, *)` with leading dimensions beyond the grid, and a 2D
// step whose caller passes an element of a larger array as its start.
TEST(EndToEnd, AssumedSizeArraysMatchTheOriginal) {
  expect_input_matches_untuned_and_tuned("assumed3d", 3, ".f", kE2eInputs, {}, "default");
}

// Statements between the DO loops (issue 38): a boundary element of each
// row before the inner loop and one after it that reads what the inner loop
// wrote (2D), one that reads the previous row's (the loop over j ordered),
// statements between the k, j and i loops, one under an IF on the loop
// variable (3D), each once per iteration of its loops, also where
// the inner loop runs no trip ("2" and "1" along x), untuned and tuned.
// ImperfectNestsTest.cpp runs them on the GPU.
TEST(EndToEnd, StatementsBetweenTheLoopsMatchTheOriginal) {
  expect_input_matches_untuned_and_tuned("imperfect", 3, ".f90", kE2eInputs, {}, "default");
}

// Loop bounds computed between the loops (issue 38): a boundary width set
// under an IF on a LOGICAL argument, and a column range chosen by IF ... ELSE,
// every combination of the flags, untuned and tuned.
TEST(EndToEnd, BoundsComputedBetweenTheLoopsMatchTheOriginal) {
  expect_input_matches_untuned_and_tuned("blimit2d", 2, ".f90", kE2eInputs, {}, "default");
}

// CYCLE inside IF constructs (issue 38): land points set and skipped, a
// CYCLE in ELSE IF and ELSE branches, untuned and tuned on both CPU targets.
TEST(EndToEnd, CycleInsideIfConstructsMatchesTheOriginal) {
  expect_input_matches_untuned_and_tuned("cycle2d", 2);
}

// Blind survey nest 7: a sponge layer's damping factor set under an IF
// between the k and j loops, and neighbour rows in INTEGER temporaries
// between the loops, untuned and tuned (at 30 x 20 x 12).
TEST(EndToEnd, ASpongeFactorSetUnderAnIfBetweenTheLoopsMatchesTheOriginal) {
  std::vector<nlohmann::json> records =
      expect_input_matches_untuned_and_tuned("b07_kji", 3, ".f90", kBlindInputs, {}, "30,20,12");
  EXPECT_EQ(records.size(), 2u);
}

// Blind survey nest 2: an F77 flux routine on grids dimensioned by the
// PARAMETERs of an INCLUDE file, tuned at the default size (fitted to the
// 160 x 96 grids).
TEST(EndToEnd, GridsSizedByIncludedParametersTuneAtTheDefaultSize) {
  expect_2d_input_matches("b02_cflux", ".f", kBlindInputs);
}

// Blind survey nest 3: a nest in an internal procedure on its host's dummy
// arguments (tuned at 40 x 30).
TEST(EndToEnd, ANestInAnInternalProcedureMatchesTheOriginal) {
  expect_2d_input_matches("b03_internal", ".f90", kBlindInputs, "40,30");
}

} // namespace
} // namespace f2s
