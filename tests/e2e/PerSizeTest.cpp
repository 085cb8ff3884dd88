// A kernel tuned at several sizes (per-size variants): the library runs, for
// each call, the variant tuned at the size nearest the call's by working
// set, matches the gfortran-compiled original bit for bit near every tuned
// size and between them, and its first touch goes with the same variant.
#include "e2e/E2E.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

namespace f2s {
namespace {

namespace fs = std::filesystem;
using test::f2stencil;
using test::run;
using test::source;

// relax_levels.f90 is tuned at 6x6x6, 14x12x10 and 40x36x32 (written out of
// order); 32 bytes per point (c, f, u read, unew written). By working set on a
// log scale the bounds are at sqrt(216*1680) = 602.4 and sqrt(1680*46080) =
// 8798.5 points.
struct Call {
  std::vector<std::string> size;
  int tuned_size;
};
const std::vector<Call> kCalls = {{{"1", "1", "1"}, 0},    {{"6", "6", "6"}, 0},
                                  {{"8", "8", "9"}, 0},                             // 576 points
                                  {{"9", "9", "8"}, 1},                             // 648
                                  {{"14", "12", "10"}, 1}, {{"20", "20", "20"}, 1}, // 8000
                                  {{"21", "21", "20"}, 2},                          // 8820
                                  {{"40", "36", "32"}, 2}, {{"45", "37", "33"}, 2}};

TEST(PerSize, LibraryDispatchesToTheNearestTunedSizeAndMatchesTheOriginal) {
  test::ScratchDir dir;
  fs::path out = dir.path() / "out";
  const std::string kernel = source("tests/inputs/e2e/relax_levels.f90");
  ProcessResult r = f2stencil(
      {"--reps=1", "--budget=2", "-q", "--target=c,pthreads", "-o", out.string(), kernel});
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;

  std::string exe = (dir.path() / "check").string();
  r = run({"gfortran", "-O2", "-o", exe, kernel, source("tests/inputs/e2e/relax_levels_main.f90"),
           "-I" + out.string(), (out / "libf2s_relax_levels.a").string(), "-lpthread"});
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  std::vector<std::string> argv = {exe};
  for (const Call &c : kCalls)
    argv.insert(argv.end(), c.size.begin(), c.size.end());
  for (const char *threads : {"", "3"}) {
    std::vector<std::pair<std::string, std::string>> env;
    if (*threads)
      env.push_back({"F2S_NUM_THREADS", threads});
    r = run(argv, env);
    ASSERT_TRUE(r.ok() && r.out.find("PASSED") != std::string::npos) << r.describe() << "\n"
                                                                     << r.out << r.err;
  }
  for (const Call &c : kCalls) {
    char line[80];
    std::snprintf(line, sizeof line, "size%5s%5s%5s runs tuned size %d\n", c.size[0].c_str(),
                  c.size[1].c_str(), c.size[2].c_str(), c.tuned_size);
    EXPECT_NE(r.out.find(line), std::string::npos) << line << r.out;
  }

  // The record lists each size's choice, smallest working set first, with the
  // calls it serves.
  nlohmann::json rec = nlohmann::json::parse(std::ifstream(out / "f2s_relax_levels.json"));
  const nlohmann::json &k = rec["kernels"].at(0);
  ASSERT_EQ(k["sizes"].size(), 3u) << k.dump(2);
  const std::vector<std::vector<int64_t>> order = {{6, 6, 6}, {14, 12, 10}, {40, 36, 32}};
  std::string c_source;
  {
    std::ifstream in(out / "f2s_relax_levels.c");
    c_source.assign(std::istreambuf_iterator<char>(in), {});
  }
  for (size_t i = 0; i < 3; ++i) {
    const nlohmann::json &s = k["sizes"][i];
    EXPECT_EQ(s["extents"], order[i]);
    EXPECT_DOUBLE_EQ(s["working_set_bytes"].get<double>(),
                     32.0 * order[i][0] * order[i][1] * order[i][2]);
    EXPECT_FALSE(s["candidates"].empty());
    EXPECT_EQ(s["chosen"]["default"], s["winner"]);
    std::string at = std::to_string(order[i][0]) + "x" + std::to_string(order[i][1]) + "x" +
                     std::to_string(order[i][2]);
    // The plain and the pthreads entry point's case for this size (its
    // comment lists the sizes it serves) runs what the record says won there.
    for (const char *target : {"default", "pthreads"}) {
      std::string chosen = s["chosen"][target];
      bool found = false;
      std::istringstream lines(c_source);
      for (std::string line; std::getline(lines, line);) {
        size_t tuned_at = line.find("tuned at "), colon = line.find(": ", tuned_at);
        if (tuned_at == std::string::npos || colon == std::string::npos ||
            line.find("first_touch") != std::string::npos)
          continue;
        std::string sizes = line.substr(tuned_at, colon - tuned_at) + ",";
        found |= sizes.find(" " + at + ",") != std::string::npos &&
                 line.find(": " + chosen + ", tuned") != std::string::npos;
      }
      EXPECT_TRUE(found) << at << ": " << chosen << "\n" << c_source;
    }
  }
  EXPECT_NEAR(k["sizes"][0]["calls_up_to_bytes"].get<double>(), 32 * std::sqrt(216.0 * 1680), 1e-6);
  EXPECT_NEAR(k["sizes"][1]["calls_up_to_bytes"].get<double>(), 32 * std::sqrt(1680.0 * 46080),
              1e-6);
  EXPECT_TRUE(k["sizes"][2]["calls_up_to_bytes"].is_null());

  // The report has a section per size.
  std::ifstream report(out / "f2s_relax_levels.txt");
  std::string text((std::istreambuf_iterator<char>(report)), {});
  for (const char *s : {"size 1 of 3, 6x6x6", "size 2 of 3, 14x12x10", "size 3 of 3, 40x36x32"})
    EXPECT_NE(text.find(s), std::string::npos) << s << "\n" << text;
}

// --tune-size with sizes of two depths, as a multigrid code needs for its 3D
// kernels and its 2D face copies: each nest is tuned at the sizes of its own
// depth, and a nest of a depth not listed at its clause, said once.
TEST(PerSize, SizesOfSeveralDepthsGoToTheNestsOfAsManyLoops) {
  test::ScratchDir dir;
  fs::path out = dir.path() / "out";
  ProcessResult r = f2stencil(
      {"--reps=1", "--budget=1", "--target=c", "--tune-size=6,5,4:9,7:12,10,8", "-o", out.string(),
       "--tuning-db", (dir.path() / "db").string(), source("tests/inputs/e2e/tune_depths.f90")});
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  EXPECT_NE(r.err.find("f2stencil: 'td_edge' has 1 loop and --tune-size no size of as many "
                       "values: tuned at its tune_size, 300\n"),
            std::string::npos)
      << r.err;
  nlohmann::json rec = nlohmann::json::parse(std::ifstream(out / "f2s_tune_depths.json"));
  std::map<std::string, nlohmann::json> by_name;
  for (const nlohmann::json &k : rec["kernels"])
    by_name[k["name"]] = k;
  const nlohmann::json &smooth = by_name["td_smooth"];
  ASSERT_EQ(smooth["sizes"].size(), 2u) << smooth.dump(2);
  EXPECT_EQ(smooth["sizes"][0]["extents"], nlohmann::json::parse("[6, 5, 4]"));
  EXPECT_EQ(smooth["sizes"][1]["extents"], nlohmann::json::parse("[12, 10, 8]"));
  EXPECT_EQ(by_name["td_faces"]["tune_size"], nlohmann::json::parse("[9, 7]"));
  EXPECT_EQ(by_name["td_edge"]["tune_size"], nlohmann::json::parse("[300]"));

  // A depth no nest has is a mistake, refused before anything is written.
  r = f2stencil({"--target=c", "--tune-size=6,5,4:9,7,3,2", "-o", (dir.path() / "bad").string(),
                 source("tests/inputs/e2e/tune_depths.f90")});
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  EXPECT_EQ(r.err, "f2stencil: error: --tune-size has a size of 4 values, but the nests of this "
                   "run have 1 or 2 or 3 loops; give each size one value per loop, innermost "
                   "first\n");
  EXPECT_FALSE(fs::exists(dir.path() / "bad"));
}

} // namespace
} // namespace f2s
