// The HTML report: drawn in headless Chromium from a record that
// harness/Package.cpp wrote (CPU and CUDA candidates, every way a candidate
// fails, two tuned sizes, names that would break the page unescaped), with
// no console error and every plot holding one mark per item; and
// `f2stencil report DIR` rebuilding it from the record alone.
#include "report/Report.h"

#include "harness/Package.h"
#include "strategy/GpuEngine.h"
#include "strategy/MachineModel.h"

#include "e2e/E2E.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iostream>
#include <iterator>
#include <regex>
#include <tuple>

namespace f2s {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

std::string read(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// A variable-coefficient heat step, as a legacy code writes it.
const char *kHeat = R"(subroutine heat_step(nx, ny, nz, dt, kap, t, tn)
  integer, intent(in) :: nx, ny, nz
  real(8), intent(in) :: dt, kap(nx, ny, nz), t(0:nx+1, 0:ny+1, 0:nz+1)
  real(8), intent(inout) :: tn(0:nx+1, 0:ny+1, 0:nz+1)
  integer :: i, j, k
  !$f2s stencil name(heat)
  do k = 1, nz
    do j = 1, ny
      do i = 1, nx
        tn(i,j,k) = t(i,j,k) + dt*kap(i,j,k)*(t(i+1,j,k) + t(i-1,j,k) + t(i,j+1,k) &
                  + t(i,j-1,k) + t(i,j,k+1) + t(i,j,k-1) - 6d0*t(i,j,k))
      end do
    end do
  end do
end subroutine
)";

/// What a cell's block does to the time: the best blocks of this made-up
/// machine are cy = 8, cz = 4 with the most threads; a CUDA block 128x2.
double made_up_seconds(const SearchSpace &space, const Candidate &c) {
  double t = 1e-3;
  auto away = [&](const char *p, double best) {
    auto it = c.tune.find(p);
    return it == c.tune.end() ? 0.3 : 0.15 * std::abs(std::log2(it->second / best));
  };
  const Variant &v = space.variants[c.variant];
  if (v.target == "cuda") {
    auto opt = [&](const char *p) { return double(v.options.count(p) ? v.options.at(p) : 1); };
    return 1e-4 * (1 + 0.2 * std::abs(std::log2(opt("bx") / 128)) +
                   0.2 * std::abs(std::log2(opt("by") / 2)));
  }
  return t * (1 + away("cy", 8) + away("cz", 4)) * 4 / std::max(1, c.threads);
}

/// The kernel tuned at `extents`: every 7th CPU candidate and every CUDA
/// one measured, with one candidate of each kind of failure.
KernelBuild tuned(const Kernel &at_any, std::vector<int64_t> extents) {
  Kernel k = at_any;
  k.tune_size = extents;
  k.tune_sizes.clear();
  static const CpuModel machine = cpu_model_from_synthetic("pack:1 core:4 pu:1");
  static const GpuModel gpu = gpu_model_h100();
  KernelFacts facts = analyze(k);
  KernelTuning t;
  t.kernel = k.name;
  t.size.extents = extents;
  t.search = "model-guided";
  t.space = enumerate_cpu(k, facts, extents, {{"pthreads"}, &machine});
  size_t cpu_candidates = t.space.candidates.size();
  CudaEnumeration en = enumerate_cuda(t.space, k, facts, extents, {&gpu, 12, true});
  t.cuda_considered = en.considered;
  t.cuda_pruned = en.pruned;
  double points = double(extents[0]) * extents[1] * extents[2];
  for (size_t i = 0; i < t.space.candidates.size(); ++i) {
    if (i < cpu_candidates && i % 7)
      continue;
    const Candidate &c = t.space.candidates[i];
    CandidateResult r;
    r.index = i;
    r.candidate = c;
    r.description = t.space.describe(c);
    r.status = CandidateStatus::Verified;
    r.seconds = made_up_seconds(t.space, c);
    r.gflops = facts.flops * points / r.seconds * 1e-9;
    r.gbps = (facts.read_bytes + facts.write_bytes) * points / r.seconds * 1e-9;
    t.results.push_back(r);
  }
  auto fail = [&](size_t at, CandidateStatus s, const std::string &detail) {
    CandidateResult &r = t.results.at(at);
    r.status = s;
    r.detail = detail;
    r.seconds = r.gflops = r.gbps = 0;
    r.max_rel_err = s == CandidateStatus::WrongResult ? 0.25 : 0;
  };
  fail(1, CandidateStatus::WrongResult, "differs from the reference at (3,1,1)");
  fail(2, CandidateStatus::Crashed, "killed by signal 11 </script><script>alert(1)</script>");
  fail(3, CandidateStatus::TimedOut, "ran past the 60 s limit");
  fail(4, CandidateStatus::BuildFailed, "cc: error: unknown option '-mfoo' & \"more\"");
  t.seconds = 12;
  t.budget_exhausted = true;
  double fastest = HUGE_VAL;
  for (const CandidateResult &r : t.results)
    if (r.status == CandidateStatus::Verified)
      fastest = std::min(fastest, r.seconds);
  t.comparison =
      KernelTuning::Comparison{"model-guided", 40, fastest, 0.9e-3, false, "", "", false};

  std::vector<VariantCode> code = generate_variants(k, t.space);
  KernelBuild b{k, {}, 0, t, {}};
  for (const char *target : {"pthreads", "cuda"}) {
    const Candidate &c = t.results[*t.best(target)].candidate;
    b.choices.push_back({code[c.variant], c});
  }
  return b;
}

/// `chromium` run headless on `page` with `args`; its stderr holds the
/// page's console messages.
ProcessResult chromium(const fs::path &page, std::vector<std::string> args) {
  // A profile of its own: other build trees may run this test at once.
  std::string profile = (fs::temp_directory_path() / "f2s-chromium-XXXXXX").string();
  if (!mkdtemp(profile.data()))
    ADD_FAILURE() << "cannot create a directory like " << profile;
  std::vector<std::string> argv = {"chromium", "--headless", "--no-sandbox", "--disable-gpu",
                                   "--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0",
                                   // Any fetch fails, and says so on the console.
                                   "--host-resolver-rules=MAP * ~NOTFOUND",
                                   // Lets the plots, drawn after the load event, finish.
                                   "--virtual-time-budget=10000"};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.push_back("file://" + fs::absolute(page).string());
  Command c;
  c.argv = argv;
  c.timeout_s = 60;
  ProcessResult r = run_process(c);
  fs::remove_all(profile);
  return r;
}

/// How many items Vega drew for the mark `name` inside the element that
/// starts at `from`: the children of its <g class="mark-... role-mark name">.
size_t drawn_items(const std::string &dom, size_t from, size_t to, const std::string &name) {
  size_t g = dom.find("role-mark " + name + "\"", from);
  if (g == std::string::npos || g > to)
    return 0;
  size_t end = dom.find("</g>", g), n = 0;
  for (size_t p = dom.find("<path", g); p < end; p = dom.find("<path", p + 1))
    ++n;
  return n;
}

TEST(Report, EveryPlotDrawsInHeadlessChromium) {
  ASSERT_TRUE(find_program("chromium"))
      << "the report's test needs Debian's chromium (scripts/setup.sh installs it)";
  test::ScratchDir dir;
  // A source path and a machine that would end the page's scripts if they
  // were not escaped.
  Kernel k = test::lower_text(dir, kHeat, "heat<b>&'q\".f90");
  KernelBuild b = tuned(k, {24, 24, 24});
  b.other_sizes.push_back(tuned(k, {40, 40, 40}));
  PackageInfo info{
      "f2s_heat", {k.source.file}, "4 cores </script><script>alert(2)</script>", {"-O2"}, {}};
  json record = json::parse(package_library(info, {b}).tuning_record);
  record["gpu"] = gpu_model_h100().description();
  // What the targets add when they measured the machines (harness/MachineBounds).
  record["bounds"]["cpu"] = {{"gbps", 50.0},
                             {"gflops", 800.0},
                             {"method", "STREAM triad <over> 3 arrays"},
                             {"reused", true}};
  record["bounds"]["gpu"] = {
      {"gbps", 3000.0}, {"gflops", 60000.0}, {"method", "cudaMemcpy"}, {"reused", false}};
  // What the CUDA step adds to the record (harness/CudaPackage.cpp).
  for (json &c : record["kernels"][0]["sizes"][0]["candidates"])
    if (c["target"] == "cuda") {
      c["h2d_s"] = 2.5e-3;
      c["d2h_s"] = 1.25e-3;
    }
  // What a time loop's tuning adds (harness/Package.cpp time_tiling_record):
  // the steps and three tiles measured, and one tile that was wrong.
  json candidates = json::array();
  candidates.push_back({{"variant", "steps"}, {"status", "verified"}, {"seconds", 4e-3}});
  for (auto [t, x, y, s] : {std::tuple{8, 64, 32, 2e-3}, {4, 64, 32, 2.5e-3}, {8, 128, 16, 3e-3}})
    candidates.push_back({{"variant", "tiled"},
                          {"status", "verified"},
                          {"seconds", s},
                          {"tune", {{"f2s_time_tile", t}, {"f2s_tile0", x}, {"f2s_tile1", y}}}});
  candidates.push_back({{"variant", "tiled"},
                        {"status", "wrong result"},
                        {"seconds", 0},
                        {"tune", {{"f2s_time_tile", 2}, {"f2s_tile0", 32}, {"f2s_tile1", 32}}},
                        {"detail", "largest relative difference 0.5 exceeds 1e-12"}});
  json choice = {{"target", "pthreads"},
                 {"tiled", true},
                 {"time_tile", 8},
                 {"tile", {64, 32}},
                 {"why", "measured at 256x256"},
                 {"model_bytes_per_point_step", {{"steps", 64.0}, {"tiled", 7.2}}},
                 {"measured", {{"trips", 8}, {"steps_s", 4e-3}, {"tiled_s", 2e-3}}},
                 {"candidates", candidates}};
  json loop = {{"name", "heat_steps"},   {"source", "heat.f90:3:3"},
               {"procedure", "heat"},    {"sweeps", {"heat_steps_1"}},
               {"ir", "time_loop heat"}, {"time_tiling", {{"possible", true}, {"plan", "rank 2"}}}};
  loop["time_tiling"]["choices"] = json::array({choice});
  record["time_loops"] = json::array({loop});
  fs::path out = fs::path(F2S_BINARY_DIR) / "tests" / "report";
  fs::create_directories(out);
  fs::path page = out / "report_test.html";
  std::string html = render_report(record);
  std::ofstream(page, std::ios::binary) << html;
  // Self-contained: nothing is loaded from elsewhere.
  for (const char *load : {"<script src", "<link", "<img", "<iframe", "@import"})
    EXPECT_EQ(html.find(load), std::string::npos) << load;

  ProcessResult r = chromium(page, {"--dump-dom"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Every console message (an error of Vega or of the page) fails the test.
  std::regex console("[^\n]*:CONSOLE[^\n]*");
  for (auto m = std::sregex_iterator(r.err.begin(), r.err.end(), console);
       m != std::sregex_iterator(); ++m)
    ADD_FAILURE() << "console: " << m->str();
  const std::string &dom = r.out;
  EXPECT_EQ(dom.find("<script>alert"), std::string::npos);
  EXPECT_NE(dom.find("heat&lt;b&gt;&amp;'q\".f90"), std::string::npos);

  // Each plot drew one item per datum: its element says how many.
  std::regex plot("<div class=\"plot\" id=\"(plot[0-9]+)\" data-mark=\"([a-z_]+)\" "
                  "data-marks=\"([0-9]+)\"");
  size_t plots = 0, points = 0, heat_maps = 0, time_tiles = 0;
  for (auto m = std::sregex_iterator(dom.begin(), dom.end(), plot); m != std::sregex_iterator();
       ++m) {
    ++plots;
    size_t from = m->position(), to = dom.find("</figure>", from);
    size_t expected = std::stoul((*m)[3].str());
    EXPECT_GT(expected, 0u) << (*m)[1];
    EXPECT_EQ(drawn_items(dom, from, to, (*m)[2]), expected) << (*m)[1] << " " << (*m)[2];
    if ((*m)[2] == "candidates") {
      points += expected;
    } else if ((*m)[2] == "bars") {
      // The steps and the three verified tiles, the chosen one outlined.
      ++time_tiles;
      EXPECT_EQ(expected, 4u);
      EXPECT_EQ(drawn_items(dom, from, to, "winner"), 1u);
    } else {
      ++heat_maps;
    }
  }
  EXPECT_NE(dom.find("data-plots-drawn=\"" + std::to_string(plots) + "\""), std::string::npos)
      << "not every plot finished drawing";
  // A roofline per size and target, each with every verified candidate.
  size_t verified = 0, rooflines = 0;
  for (const json &sj : record["kernels"][0]["sizes"]) {
    for (const json &c : sj["candidates"])
      verified += c["verified"].get<bool>();
    rooflines += 2;
  }
  EXPECT_EQ(points, verified);
  // One heat map per thread count with blocks, and one of CUDA's shapes, per size.
  EXPECT_GE(heat_maps, 2u * 2u);
  EXPECT_EQ(time_tiles, 1u);
  EXPECT_EQ(plots, rooflines + heat_maps + time_tiles);
  EXPECT_NE(dom.find("Chose tiles of 64x32 points, 8 steps a trip to memory: measured at 256x256"),
            std::string::npos);
  EXPECT_NE(dom.find("<code>T=2 32x32</code>: wrong result, largest relative difference 0.5"),
            std::string::npos);
  // Why the GPU engine left launch shapes out, beside the CPU engine's reasons.
  EXPECT_NE(dom.find("The GPU engine considered "), std::string::npos);
  EXPECT_NE(dom.find(": tile wider than the axis</li>"), std::string::npos);
  EXPECT_NE(dom.find("The CPU engine considered "), std::string::npos);
  // The roofs are the measured ones, said in the captions and the header.
  EXPECT_NE(dom.find("The roof is the machine's measured bandwidth (50 GB/s) and peak (800 "
                     "GFlop/s): STREAM triad &lt;over&gt; 3 arrays, from the tuning cache"),
            std::string::npos);
  EXPECT_NE(dom.find("The roof is the machine's measured bandwidth (3000 GB/s) and peak (60000 "
                     "GFlop/s): cudaMemcpy;"),
            std::string::npos);
  EXPECT_NE(dom.find("<th>CPU measured</th><td>50 GB/s, 800 GFlop/s"), std::string::npos);
  EXPECT_EQ(dom.find("holds no separately measured bandwidth"), std::string::npos);
  EXPECT_NE(dom.find("<th>to GPU (ms)</th>"), std::string::npos);
  EXPECT_NE(dom.find("<td>2.5</td><td>1.25</td>"), std::string::npos);
  EXPECT_NE(dom.find("the model-guided search measured 40 candidates and found"),
            std::string::npos);
  // Every failure is listed with its reason, escaped.
  for (const char *reason :
       {"differs from the reference at (3,1,1)", "ran past the 60 s limit",
        "killed by signal 11 &lt;/script&gt;", "unknown option '-mfoo' &amp; \"more\""})
    EXPECT_NE(dom.find(reason), std::string::npos) << reason;

  fs::path shot = out / "report_screenshot.png";
  fs::remove(shot);
  r = chromium(page,
               {"--screenshot=" + shot.string(), "--window-size=1280,2400", "--hide-scrollbars"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_TRUE(fs::exists(shot)) << r.err;
  EXPECT_GT(fs::file_size(shot), 20000u);
  std::cout << "report: " << page.string() << "\nscreenshot: " << shot.string() << "\n";
}

TEST(Report, RegeneratedFromTheRecordAlone) {
  test::ScratchDir dir;
  std::string src = dir.write("heat.f90", kHeat);
  fs::path lib = dir.path() / "lib";
  ProcessResult r = test::f2stencil({"--no-tune", "-q", "-o", lib.string(), src});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  fs::path page = lib / "f2s_heat.html";
  ASSERT_TRUE(fs::exists(page)) << "the library's build writes its report";
  std::string first = read(page);
  EXPECT_NE(first.find("Not tuned (--no-tune)"), std::string::npos);
  EXPECT_NE(first.find("<pre class=\"ir\">"), std::string::npos) << "the kernel's IR";

  fs::remove(page);
  r = test::f2stencil({"report", lib.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("wrote " + page.string()), std::string::npos) << r.err;
  EXPECT_EQ(read(page), first);

  // Without a record, the error says how to get one.
  fs::create_directories(dir.path() / "empty");
  r = test::f2stencil({"report", (dir.path() / "empty").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("holds no tuning record (<library>.json); build a library into it with "
                       "'f2stencil -o "),
            std::string::npos)
      << r.err;
}

// A record written before the report existed (no IR, no pruning counts, no
// counts per target) still makes a report; a folder with the records of two
// libraries is refused with the fix.
TEST(Report, OlderRecordsAndAmbiguousFolders) {
  test::ScratchDir dir;
  Kernel k = test::lower_text(dir, kHeat, "heat.f90");
  PackageInfo info{"f2s_heat", {k.source.file}, "4 cores", {"-O2"}, {}};
  json record = json::parse(package_library(info, {tuned(k, {24, 24, 24})}).tuning_record);
  json &kj = record["kernels"][0];
  kj.erase("ir");
  for (const char *key : {"pruned", "considered", "enumerated_by_target"})
    kj["search"].erase(key);
  std::string html = render_report(record);
  EXPECT_EQ(html.find("<pre class=\"ir\">"), std::string::npos);
  EXPECT_NE(html.find("Space: " + kj["search"]["space"].get<std::string>()), std::string::npos);
  EXPECT_NE(html.find("data-mark=\"candidates\""), std::string::npos) << "the roofline";
  EXPECT_NE(html.find("holds no separately measured bandwidth or peak of the machine"),
            std::string::npos)
      << "without measured bounds, the roof is the best candidate's bandwidth";

  std::ofstream(dir.path() / "f2s_heat.json") << record.dump();
  record["library"] = "f2s_other";
  std::ofstream(dir.path() / "f2s_other.json") << record.dump();
  try {
    write_report(dir.path());
    ADD_FAILURE() << "two records, no error";
  } catch (const ReportError &e) {
    EXPECT_NE(std::string(e.what()).find("holds the records of several libraries ('f2s_heat.json', "
                                         "'f2s_other.json'); give the output directory of one "
                                         "library"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(write_report(dir.path(), "f2s_heat"), dir.path() / "f2s_heat.html");
  EXPECT_TRUE(fs::exists(dir.path() / "f2s_heat.html"));
}

} // namespace
} // namespace f2s
