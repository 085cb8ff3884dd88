// The printers: C that keeps Fortran's arithmetic, and interfaces that
// gfortran and a C compiler accept.
#include "ast/Aliasing.h"
#include "codegen/CExpr.h"
#include "codegen/CPrinter.h"
#include "codegen/CudaPrinter.h"
#include "codegen/HarnessPrinter.h"
#include "codegen/Interfaces.h"
#include "harness/Process.h"
#include "transforms/CoreBlocking.h"
#include "transforms/Parallelize.h"

#include "common/TestUtil.h"

#include <gtest/gtest.h>

#include <cmath>
#include <unistd.h>

namespace f2s {
namespace {

ProcessResult run_cmd(std::vector<std::string> argv) {
  Command c;
  c.argv = std::move(argv);
  return run_process(c);
}

bool contains(const std::string &text, const std::string &needle) {
  return text.find(needle) != std::string::npos;
}

// A harness times a kernel whose grids fit in the last-level cache as its
// program calls it, after other kernels swept their arrays: from memory. The
// Jacobi's two grids of (n+2)² doubles, sized from this machine's caches as
// the harness reads them: within L2 warm (a program's small kernels keep
// theirs), between L2 and twice the last-level cache cold, beyond it warm
// again (the sweep evicts itself).
TEST(Harness, TimesGridsThatFitInTheLastLevelCacheOnColdCaches) {
  test::ScratchDir dir;
  Kernel k = test::lower_text(dir, test::kJacobi2D);
  std::string c = dir.write(
      "jac.c", print_c_harness(k, print_c_variant(k, "plain"), c_variant_name(k, "plain"), 0));
  std::string exe = (dir.path() / "jac").string();
  ProcessResult cc = run_cmd({c_compiler(), "-std=gnu11", "-O2", "-pthread", "-o", exe, c, "-lm"});
  ASSERT_TRUE(cc.ok()) << cc.describe() << "\n" << cc.err;
  auto cache = [](int name, long otherwise) {
    long v = sysconf(name);
    return static_cast<double>(v > 0 ? v : otherwise);
  };
  const double l2 = cache(_SC_LEVEL2_CACHE_SIZE, 1l << 20),
               llc = cache(_SC_LEVEL3_CACHE_SIZE, 32l << 20);
  if (l2 * 4 >= llc)
    GTEST_SKIP() << "the last-level cache is not larger than L2 here";
  auto side = [](double bytes) { return std::to_string(long(std::sqrt(bytes / 16)) - 2); };
  const std::pair<std::string, const char *> cases[] = {
      {side(l2 / 2), "false"}, {side(std::sqrt(l2 * 2 * llc)), "true"}, {side(3 * llc), "false"}};
  for (const auto &[n, cold] : cases) {
    if (std::stol(n) > 4000)
      continue; // grids of gigabytes: a large last-level cache, whose upper case is not run
    ProcessResult r = run_cmd({exe, "1", "3", "0", n, n});
    ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
    EXPECT_TRUE(contains(r.out, "\"verified\": true")) << r.out;
    EXPECT_TRUE(contains(r.out, std::string("\"cold_caches\": ") + cold + "}"))
        << n << ": " << r.out;
  }
  // The tuner's figure (F2S_LLC_BYTES, from hwloc) wins over sysconf's: told
  // the cache is as small as L2, the middle grids are beyond twice it, so
  // warm (a sliced L3 that sysconf sums had them evicted through 768 MB).
  if (std::stol(cases[1].first) > 4000)
    return;
  Command warm;
  warm.argv = {exe, "1", "3", "0", cases[1].first, cases[1].first};
  warm.env = {{"F2S_LLC_BYTES", std::to_string(long(l2))}};
  ProcessResult r = run_process(warm);
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  EXPECT_TRUE(contains(r.out, "\"cold_caches\": false}")) << r.out;
}

TEST(CPrinter, PrintsConditionsWithCsPrecedence) {
  Kernel k;
  auto v = [](const char *n, Type t = Type::Float64) { return Var::make(n, t); };
  auto bin = [](BinaryOp op, Expr a, Expr b) { return Binary::make(op, a, b); };
  Expr lt = bin(BinaryOp::Lt, v("x"), bin(BinaryOp::Add, v("y"), v("z")));
  Expr eq = bin(BinaryOp::Eq, v("x"), v("y"));
  Expr gt = bin(BinaryOp::Gt, v("z"), v("x"));
  EXPECT_EQ(print_c_expr(k, bin(BinaryOp::And, bin(BinaryOp::Or, lt, eq), gt)),
            "(F_x < F_y + F_z || F_x == F_y) && F_z > F_x");
  EXPECT_EQ(print_c_expr(k, bin(BinaryOp::Or, lt, bin(BinaryOp::And, eq, gt))),
            "F_x < F_y + F_z || F_x == F_y && F_z > F_x");
  EXPECT_EQ(print_c_expr(k, Unary::make(UnaryOp::Not, eq)), "!(F_x == F_y)");
  EXPECT_EQ(print_c_expr(k, bin(BinaryOp::Mul, Select::make(gt, v("x"), v("y")), v("z"))),
            "(F_z > F_x ? F_x : F_y)*F_z");
  Expr i = v("i", Type::Int32), j = v("j", Type::Int32);
  EXPECT_EQ(
      print_c_expr(k, bin(BinaryOp::Eq,
                          Call::make(Intrinsic::Mod, {bin(BinaryOp::Add, i, j), IntImm::make(2)}),
                          IntImm::make(0))),
      "((F_i + F_j) % 2) == 0");
  EXPECT_EQ(print_c_expr(k, Call::make(Intrinsic::Mod, {v("x"), v("y")})), "fmod(F_x, F_y)");
  EXPECT_EQ(print_c_expr(k, Call::make(Intrinsic::Sign, {v("x"), v("y")})), "copysign(F_x, F_y)");
  EXPECT_EQ(print_c_expr(k, Call::make(Intrinsic::Sign, {i, bin(BinaryOp::Sub, j, i)})),
            "(F_j - F_i >= 0 ? labs(F_i) : -labs(F_i))");
  EXPECT_EQ(print_c_expr(k, Call::make(Intrinsic::Log, {Var::make("x", Type::Float32)})),
            "logf(F_x)");
}

// Every user name lives in a space of its own, whatever it is called.
TEST(CPrinter, PrefixesEveryUserName) {
  EXPECT_EQ(c_name("u"), "F_u");
  EXPECT_EQ(c_name("int"), "F_int");
  EXPECT_EQ(c_name("fmodf"), "F_fmodf");
  EXPECT_EQ(c_name("unix"), "F_unix");
  EXPECT_EQ(c_name("f2s_tid"), "F_f2s_tid");
}

TEST(CPrinter, KeepsFortranKindsAndPowers) {
  test::ScratchDir dir;
  Kernel k = test::lower_text(dir, R"(subroutine s(n, p, q, c, a)
  integer :: n, i, j
  real(8) :: p(n, n), q(n, n), a
  real(4) :: c(n, n)
  !$f2s stencil name(mix)
  do j = 1, n
    do i = 1, n
      q(i, j) = 0.1*p(i, j)**2 + 0.1d0 + abs(p(i, j)) + min(p(i, j), a)
      c(i, j) = sqrt(c(i, j)) + 2.5
    end do
  end do
end subroutine
)");
  std::string c = print_c_variant(k, "serial");
  // 0.1 is a REAL(4) literal: it is rounded to float before it meets REAL(8).
  EXPECT_TRUE(contains(c, "0.100000001f*({ double f2s_pw1 = F_p[")) << c;
  EXPECT_TRUE(contains(c, "+ 0.10000000000000001 +")) << c;
  EXPECT_TRUE(contains(c, "fabs(F_p[")) << c;
  EXPECT_TRUE(contains(c, "sqrtf(F_c[")) << c;
  EXPECT_TRUE(contains(c, "+ 2.5f;")) << c;
  // A scalar named like the generated code's own argument pointer.
  EXPECT_TRUE(contains(c, "const double F_a = a->F_a;")) << c;
  EXPECT_TRUE(contains(c, ", F_a);")) << c;
}

TEST(CPrinter, DividesTheParallelLoopAmongThreads) {
  Kernel k = parallelize_outer(block_loops(test::example_kernel("laplacian")));
  std::string c = print_c_variant(k, "blocked");
  EXPECT_TRUE(contains(c, "f2s_parallel_run(nthreads, f2s_laplacian_blocked_task, &f2s_shared);"));
  EXPECT_TRUE(
      contains(c, "const long f2s_F_k_blk_first = f2s_F_k_blk_trips * f2s_tid / f2s_nthreads"));
  // The block size of the loop the threads share is trimmed to the call's
  // size (f2s_balanced_block): the planes from 1 to nz, in contiguous ranges
  // of blocks, one per thread.
  EXPECT_TRUE(contains(c, "const long F_cy = tune[1] > 0 ? tune[1] : 1;"));
  EXPECT_TRUE(contains(c, "const long F_cz = f2s_balanced_block(tune[2] > 0 ? tune[2] : 1, "
                          "(long)(F_nz) - (long)(1) + 1, 1, 1, f2s_nthreads);"))
      << c;
  EXPECT_TRUE(contains(
      c, "for (long F_k = F_k_blk; F_k <= f2s_min_long(F_k_blk + F_cz - 1, F_nz); ++F_k) {"))
      << c;
}

/// x**n for constant n rounds as GCC's own expansion of __builtin_powi (what
/// gfortran's code computes when optimizing), for every n in [-300, 300], in
/// double and float: a program compares the two bitwise on many bases.
TEST(CPrinter, PowerChainsRoundAsGcc) {
  test::ScratchDir dir;
  std::string src = "#include <stdio.h>\n#include <string.h>\n";
  for (Type t : {Type::Float64, Type::Float32}) {
    std::string ty = t == Type::Float64 ? "double" : "float";
    std::string chain = "__attribute__((noinline)) static " + ty + " chain_" + ty + "(" + ty +
                        " x, int n) {\n  switch (n) {\n";
    std::string gcc = "__attribute__((noinline)) static " + ty + " gcc_" + ty + "(" + ty +
                      " x, int n) {\n  switch (n) {\n";
    for (int n = -300; n <= 300; ++n) {
      chain += "  case " + std::to_string(n) + ": return " + c_power_chain("x", n, t) + ";\n";
      gcc += "  case " + std::to_string(n) + ": return __builtin_powi" +
             (t == Type::Float32 ? "f" : "") + "(x, " + std::to_string(n) + ");\n";
    }
    src += chain + "  }\n  return 0;\n}\n" + gcc + "  }\n  return 0;\n}\n";
  }
  src += R"(int main(void) {
  int bad = 0;
  unsigned long s = 12345;
  for (int trial = 0; trial < 200; ++trial) {
    s = s * 6364136223846793005ul + 1442695040888963407ul;
    double x = 0.9 + 0.2 * (double)(s >> 11) / 9007199254740992.0;
    if (trial % 4 == 0)
      x = -x;
    float xf = (float)x;
    for (int n = -300; n <= 300; ++n) {
      double a = chain_double(x, n), b = gcc_double(x, n);
      float af = chain_float(xf, n), bf = gcc_float(xf, n);
      if (memcmp(&a, &b, sizeof a) || memcmp(&af, &bf, sizeof af)) {
        if (++bad < 10)
          printf("x=%.17g n=%d: %.17g vs %.17g, %.9g vs %.9g\n", x, n, a, b, af, bf);
      }
    }
  }
  return bad != 0;
}
)";
  std::string path = dir.write("powi.c", src), exe = (dir.path() / "powi").string();
  ProcessResult r =
      run_cmd({c_compiler(), "-std=gnu11", "-O2", "-ffp-contract=off", "-o", exe, path});
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  r = run_cmd({exe});
  EXPECT_TRUE(r.ok()) << r.out;
}

/// The whole library source of a kernel compiles without warnings that point
/// at real mistakes.
TEST(CPrinter, GeneratedCCompiles) {
  test::ScratchDir dir;
  Kernel k = test::example_kernel("gradient");
  Kernel blocked = parallelize_outer(block_loops(k));
  std::string src = print_c_prelude(true) + print_c_args_struct(k) + print_c_variant(k, "serial") +
                    print_c_variant(blocked, "blocked") +
                    print_c_entry(k, "lib_gradient", "blocked", {64, 8, 8}, 2, "test entry");
  std::string path = dir.write("lib.c", src);
  ProcessResult r = run_cmd({c_compiler(), "-std=gnu11", "-O2", "-Werror=implicit",
                             "-Werror=incompatible-pointer-types", "-Werror=return-type",
                             "-pthread", "-c", path, "-o", (dir.path() / "lib.o").string()});
  EXPECT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
}

/// Aliased calls: the variant for them has no restrict grid, and the entry
/// point checks the call before it picks a variant; the whole compiles with
/// the check's tables.
TEST(CPrinter, AliasedVariantDropsRestrictAndTheEntryChecksFirst) {
  test::ScratchDir dir;
  Kernel k = test::example_kernel("gradient");
  Aliasing aliasing = analyze_aliasing(k);
  ASSERT_TRUE(needs_aliasing_check(aliasing));
  std::string plain = print_c_variant(parallelize_outer(k), "parallel");
  std::string aliased = print_c_variant(parallelize_outer(k), "aliased", false);
  EXPECT_TRUE(contains(plain, "*restrict"));
  EXPECT_FALSE(contains(aliased, "restrict"));
  std::string entry = print_c_entry(k, "lib_gradient", "parallel", {}, 2, "test entry",
                                    AliasedCalls::RunAliasedVariant);
  size_t check = entry.find("f2s_gradient_aliasing(&a)");
  ASSERT_NE(check, std::string::npos) << entry;
  EXPECT_LT(check, entry.find("f2s_gradient_aliased(&a"));
  EXPECT_LT(entry.find("f2s_gradient_aliased(&a"), entry.find("f2s_gradient_parallel(&a"));
  std::string src =
      print_c_prelude(true) + print_c_args_struct(k) + plain + print_c_aliasing_check(k, aliasing) +
      aliased + entry +
      print_c_entry(k, "lib_gradient_gpu", "parallel", {}, 2, "GPU-like entry", AliasedCalls::Stop);
  std::string path = dir.write("lib.c", src);
  ProcessResult r = run_cmd({c_compiler(), "-std=gnu11", "-O2", "-Wall", "-Werror", "-pthread",
                             "-c", path, "-o", (dir.path() / "lib.o").string()});
  EXPECT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
}

TEST(Interfaces, FortranModuleCompilesWithGfortran) {
  if (!find_program("gfortran"))
    GTEST_FAIL() << "gfortran is required (the setup script installs it)";
  test::ScratchDir dir;
  Kernel k = test::example_kernel("divergence");
  std::vector<EntryPoint> entries = {{&k, "divergence", "lib_divergence", "the divergence"},
                                     {&k, "divergence_c", "lib_divergence_c", "serial"}};
  std::string mod = print_fortran_module("lib_mod", entries, "a test module\nsecond line");
  for (size_t pos = 0, nl; pos < mod.size(); pos = nl + 1) {
    nl = mod.find('\n', pos);
    EXPECT_LE(nl - pos, 132u) << "line too long for free form: " << mod.substr(pos, nl - pos);
  }
  EXPECT_TRUE(contains(mod, "real(c_double), intent(in) :: x(0:nx + 1, 0:ny + 1, 0:nz + 1)"));
  EXPECT_TRUE(contains(mod, "real(c_double), intent(inout) :: u(0:nx + 1, 0:ny + 1, 0:nz + 1)"));
  EXPECT_TRUE(contains(mod, "integer(c_int), value :: nx"));
  EXPECT_TRUE(contains(mod, "name='lib_divergence_c'"));
  std::string path = dir.write("lib_mod.f90", mod);
  ProcessResult r = run_cmd({"gfortran", "-fsyntax-only", "-J", dir.path().string(), path});
  EXPECT_TRUE(r.ok()) << r.describe() << "\n" << r.err << "\n" << mod;
}

// Assumed-shape, allocatable and pointer grids: the wrapper takes them as
// the source declares them and passes their bounds to the BIND(C) procedure.
TEST(Interfaces, WrapperTakesArraysAsTheSourceDeclaresThem) {
  if (!find_program("gfortran"))
    GTEST_FAIL() << "gfortran is required (the setup script installs it)";
  test::ScratchDir dir;
  Kernel k = test::lower_text(dir, R"(module grids
  real(8), allocatable :: a(:, :)
  real(8), pointer :: p(:, :)
end module
subroutine s(t, n)
  use grids
  integer :: n, i, j
  real(8) :: t(0:, :)
  !$f2s stencil name(k)
  do j = 1, n
    do i = 1, n
      t(i, j) = a(i, j) + p(i - 1, j)
    end do
  end do
end subroutine
)");
  std::string mod = print_fortran_module("lib_mod", {{&k, "k", "lib_k", "the kernel"}}, "test");
  EXPECT_TRUE(contains(mod, "  public :: k\n  public :: k_explicit\n")) << mod;
  EXPECT_TRUE(contains(mod, "    subroutine k_explicit(t, n, a, p, t_ub1, t_ub2, a_lb1, a_ub1, "
                            "a_lb2, a_ub2, p_lb1, p_ub1, &\n        p_lb2, p_ub2) bind(C, "
                            "name='lib_k')"))
      << mod;
  EXPECT_TRUE(contains(mod, "real(c_double), intent(inout) :: t(0:t_ub1, 1:t_ub2)")) << mod;
  EXPECT_TRUE(contains(mod,
                       "contains\n\n  ! the kernel\n  subroutine k(t, n, a, p)\n"
                       "    integer(c_int), intent(in) :: n\n"
                       "    real(c_double), intent(inout) :: t(0:, 1:)\n"
                       "    real(c_double), allocatable, intent(in) :: a(:, :)\n"
                       "    real(c_double), pointer, intent(in) :: p(:, :)\n"
                       "    call k_explicit(t, n, a, p, ubound(t,1), ubound(t,2), lbound(a,1), "
                       "ubound(a,1), lbound(a,2), &\n"
                       "        ubound(a,2), lbound(p,1), ubound(p,1), lbound(p,2), "
                       "ubound(p,2))\n"
                       "  end subroutine k\n"))
      << mod;
  std::string path = dir.write("lib_mod.f90", mod);
  std::string caller = dir.write("caller.f90", R"(program caller
  use lib_mod, only: k
  real(8), allocatable :: a(:, :), t(:, :)
  real(8), pointer :: p(:, :)
  allocate(a(-1:8, 2:9), t(0:9, 9), p(0:9, 9))
  call k(t, 8, a, p)
end program
)");
  ProcessResult r = run_cmd({"gfortran", "-fsyntax-only", "-J", dir.path().string(), path, caller});
  EXPECT_TRUE(r.ok()) << r.describe() << "\n" << r.err << "\n" << mod;
}

// Long library, kernel and argument names (a 60-character assumed-shape
// array, whose bound argument is cut to 63 characters) and a long comment:
// every line of the module and of the CUDA data interfaces is continued
// under free form's 132 columns, and gfortran compiles both at its default
// line length.
TEST(Interfaces, LongNamesAreContinuedUnder132Columns) {
  if (!find_program("gfortran"))
    GTEST_FAIL() << "gfortran is required (the setup script installs it)";
  test::ScratchDir dir;
  std::string field(60, 'f'), coef(58, 'c'), kernel(42, 'k'), lib(33, 'l');
  Kernel k = test::lower_text(dir, "subroutine s(n, " + field + ", " + coef +
                                       ", w)\n"
                                       "  integer :: n, i\n"
                                       "  real(8) :: " +
                                       field + "(0:), " + coef +
                                       "\n"
                                       "  real(8) :: w(n)\n"
                                       "  !$f2s stencil name(" +
                                       kernel +
                                       ")\n"
                                       "  do i = 1, n\n"
                                       "    w(i) = " +
                                       coef + "*" + field +
                                       "(i-1)\n"
                                       "  end do\n"
                                       "end subroutine\n");
  EXPECT_EQ(k.args.back().name, field.substr(0, 59) + "_ub1");
  std::vector<EntryPoint> entries;
  for (std::string suffix : {"", "_pthreads", "_first_touch"})
    entries.push_back({&k, kernel + suffix, lib + "_" + kernel + suffix,
                       "a comment that is longer than a free-form line may be: " + field + coef});
  std::string mod = print_fortran_module(lib, entries, "generated from " + field + "/" + coef);
  mod.insert(mod.find("  end interface\n"), print_cuda_data_fortran_interfaces(lib));
  for (size_t pos = 0, nl; pos < mod.size(); pos = nl + 1) {
    nl = mod.find('\n', pos);
    EXPECT_LE(nl - pos, 132u) << "line too long for free form: " << mod.substr(pos, nl - pos);
  }
  std::string path = dir.write("lib_mod.f90", mod);
  ProcessResult r = run_cmd({"gfortran", "-fsyntax-only", "-J", dir.path().string(), path});
  EXPECT_TRUE(r.ok()) << r.describe() << "\n" << r.err << "\n" << mod;
}

TEST(Interfaces, CHeaderCompilesAsCAndCxx) {
  test::ScratchDir dir;
  Kernel k = test::example_kernel("laplacian");
  std::string h = print_c_header("lib_lap", {{&k, "laplacian", "lib_lap_laplacian", "x"}}, "t");
  EXPECT_TRUE(contains(h, "void lib_lap_laplacian(int32_t F_nx, int32_t F_ny, int32_t F_nz, double "
                          "F_alpha, double F_beta, const double *F_u, double *F_unew);"))
      << h;
  dir.write("lib_lap.h", h);
  std::string c = dir.write("use.c", "#include \"lib_lap.h\"\nint main(void) { return 0; }\n");
  ProcessResult r = run_cmd({c_compiler(), "-std=c99", "-Wall", "-Werror", "-fsyntax-only", c});
  EXPECT_TRUE(r.ok()) << r.err;
}

// A reduction: serial code accumulates from the argument's value in loop
// order; threads keep partials that start at the identity and are combined
// in thread order after the join; the interfaces pass the scalar by
// reference.
TEST(CPrinter, ReductionsAccumulateSeriallyOrInThreadPartials) {
  Kernel k = test::example_kernel("maxnorm2d");
  std::string serial = print_c_variant(k, "serial");
  EXPECT_TRUE(contains(serial, "  double F_err = *a->F_err;\n")) << serial;
  EXPECT_TRUE(contains(serial, "F_err = f2s_max_double(F_err, fabs(")) << serial;
  EXPECT_TRUE(contains(serial, "  *a->F_err = F_err;\n")) << serial;
  std::string par = print_c_variant(parallelize_outer(k), "parallel");
  EXPECT_TRUE(contains(par, "  double F_err = -INFINITY; /* this thread's partial */\n")) << par;
  EXPECT_TRUE(contains(par, "  f2s_shared->F_err_part[f2s_tid] = F_err;\n")) << par;
  EXPECT_TRUE(
      contains(par, "  for (int f2s_t = 0; f2s_t < f2s_nparts; ++f2s_t)\n"
                    "    f2s_F_err = f2s_F_err_part[f2s_t] > f2s_F_err ? f2s_F_err_part[f2s_t] : "
                    "f2s_F_err;\n  *a->F_err = f2s_F_err;\n"))
      << par;
  EXPECT_TRUE(contains(print_c_args_struct(k), "  double *F_err; /* reduced: in and out */\n"));
  EXPECT_TRUE(contains(print_c_entry_prototype(k, "f"),
                       "const double *F_u, double *F_unew, double *F_err)"));
  std::string mod = print_fortran_module("m", {{&k, "maxnorm2d", "m_maxnorm2d", "x"}}, "t");
  EXPECT_TRUE(contains(mod, "real(c_double), intent(inout) :: err\n")) << mod;
  EXPECT_FALSE(contains(mod, "value :: err")) << mod;

  // A max gives one value in any order: the innermost loop runs it in SIMD lanes.
  EXPECT_TRUE(contains(serial, "#pragma omp simd reduction(max:F_err)\n")) << serial;
  test::ScratchDir dir;
  std::string c = dir.write("red.c", print_c_prelude(true) + print_c_args_struct(k) + serial + par);
  // With the library's own flags: a max reduction's `omp simd` needs -fopenmp-simd.
  std::vector<std::string> cc = {c_compiler(), "-std=gnu11",           "-Wall",   "-Wextra",
                                 "-Werror",    "-Wno-unused-function", "-pthread"};
  cc.insert(cc.end(), c_rounding_flags().begin(), c_rounding_flags().end());
  cc.insert(cc.end(), {"-c", c, "-o", (dir.path() / "red.o").string()});
  ProcessResult r = run_cmd(cc);
  EXPECT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
}

} // namespace
} // namespace f2s
