// The rows of the time-loop benchmark (bench/time_loops.list, called as
// bench/time_loop_rows.h says): for each, the example and its checking
// program exist, bench/cpu/time_tiles_bench.c builds against the example's
// library, its "sweeps" form (each sweep called one by one) leaves the
// grids bitwise as the time-loop procedure does, and its precision is the
// list's. The GPU's bench program calls the same rows.
#include "e2e/E2E.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace f2s {
namespace {

namespace fs = std::filesystem;
using test::f2stencil;
using test::run;
using test::source;

struct Row {
  std::string example, ext, procedure, stencil, precision, gpu_size;
};

std::ostream &operator<<(std::ostream &out, const Row &r) {
  return out << r.example << "/" << r.procedure;
}

/// The list's rows, comments and blank lines left out.
std::vector<Row> rows() {
  std::vector<Row> out;
  std::ifstream in(source("bench/time_loops.list"));
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    Row r;
    if (!(words >> r.example) || r.example[0] == '#')
      continue;
    words >> r.ext >> r.procedure >> r.stencil >> r.precision >> r.gpu_size;
    out.push_back(r);
  }
  return out;
}

class BenchRow : public ::testing::TestWithParam<Row> {};

TEST_P(BenchRow, SweepsOneByOneLeaveTheGridsAsTheTimeLoopDoes) {
  const Row &r = GetParam();
  std::string src = source("examples/" + r.example + "/" + r.example + "." + r.ext);
  ASSERT_TRUE(fs::exists(src)) << src;
  ASSERT_TRUE(fs::exists(source("examples/" + r.example + "/main.f90")));
  ASSERT_TRUE(r.precision == "double" || r.precision == "single") << r.precision;
  test::ScratchDir dir;
  fs::path out = dir.path() / "out";
  ProcessResult f = f2stencil({"--no-tune", "-q", "--target=c,pthreads", "--lib=f2s_" + r.example,
                               "-o", out.string(), src});
  ASSERT_TRUE(f.ok()) << f.describe() << "\n" << f.err;
  std::string upper = r.procedure;
  std::transform(upper.begin(), upper.end(), upper.begin(), ::toupper);
  std::string exe = (dir.path() / "bench").string();
  ProcessResult b = run({c_compiler(), "-O2", "-DTIME_LOOP_" + upper, "-I" + out.string(), "-o",
                         exe, source("bench/cpu/time_tiles_bench.c"),
                         (out / ("libf2s_" + r.example + ".a")).string(), "-lpthread", "-lm"});
  ASSERT_TRUE(b.ok()) << b.err.substr(0, 4000);
  // Odd sizes, of the rank of the list's size; 3 threads.
  std::vector<std::string> size = {"13", "11"};
  if (std::count(r.gpu_size.begin(), r.gpu_size.end(), ',') == 2)
    size.push_back("9");
  std::vector<std::string> argv = {exe, "check"};
  argv.insert(argv.end(), size.begin(), size.end());
  ProcessResult c = run(argv, {{"F2S_NUM_THREADS", "3"}});
  EXPECT_TRUE(c.ok() && c.out == "same\n") << c.describe() << c.out << c.err;
  argv[1] = "2";
  c = run(argv, {{"F2S_NUM_THREADS", "3"}});
  EXPECT_TRUE(c.ok()) << c.describe() << c.err;
  EXPECT_NE(c.out.find("precision " + r.precision + ","), std::string::npos) << c.out;
}

INSTANTIATE_TEST_SUITE_P(TimeLoops, BenchRow, ::testing::ValuesIn(rows()),
                         [](const ::testing::TestParamInfo<Row> &info) {
                           return info.param.procedure;
                         });

} // namespace
} // namespace f2s
