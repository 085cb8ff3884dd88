// f2stencil: annotated Fortran stencils in, a tuned library out.
#include "driver/Pipeline.h"
#include "harness/Process.h"
#include "report/Report.h"
#include "targets/Targets.h"

#include <CLI/CLI.hpp>
#include <cstdlib>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <iostream>
#include <regex>
#include <sstream>

#include <pthread.h>

namespace {

std::vector<std::string> split(const std::string &list, char sep) {
  std::vector<std::string> parts;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, sep);)
    parts.push_back(item);
  return parts;
}

/// The pipeline runs on a stack of its own, as the front end does: every pass
/// and printer recurses once per level of an expression, and a sum is as deep
/// as it has terms; the front end accepts up to a 100,000-character statement
/// (some 40,000 terms), which overflows the main thread's 8 MiB stack in the
/// IR printer. Only the pages touched are ever allocated.
int run_pipeline_on_large_stack(const f2s::DriverOptions &o) {
  struct Call {
    const f2s::DriverOptions *options;
    int status = 1;
    std::exception_ptr error;
  } call{&o, 1, nullptr};
  auto run = [](void *arg) -> void * {
    auto *c = static_cast<Call *>(arg);
    try {
      c->status = f2s::run_pipeline(*c->options);
    } catch (...) {
      c->error = std::current_exception();
    }
    return nullptr;
  };
  pthread_attr_t attr;
  pthread_t thread;
  bool started = pthread_attr_init(&attr) == 0 &&
                 pthread_attr_setstacksize(&attr, size_t(512) << 20) == 0 &&
                 pthread_create(&thread, &attr, run, &call) == 0;
  pthread_attr_destroy(&attr);
  if (!started)
    return f2s::run_pipeline(o);
  pthread_join(thread, nullptr);
  if (call.error)
    std::rethrow_exception(call.error);
  return call.status;
}

/// `f2stencil report DIR`: the HTML report again, from DIR's tuning record
/// alone (a record of an earlier run or version, say).
int report_main(int argc, char **argv) {
  CLI::App app{
      "f2stencil report: writes DIR/<lib>.html again from the tuning record DIR/<lib>.json "
      "that building the library wrote (docs/report.md).",
      "f2stencil report"};
  std::string dir;
  app.add_option("DIR", dir, "A library's output directory (f2stencil -o DIR)")->required();
  bool quiet = false;
  app.add_flag("-q,--quiet", quiet, "Print errors only");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    if (e.get_exit_code() == 0)
      return app.exit(e);
    std::cerr << "f2stencil: error: " << e.what() << "\n"
              << "Run 'f2stencil report --help' for the options.\n";
    return 1;
  }
  try {
    std::filesystem::path written = f2s::write_report(dir);
    if (!quiet)
      std::cerr << "f2stencil: wrote " << written.string() << "\n";
    return 0;
  } catch (const std::exception &e) {
    std::cerr << "f2stencil: error: " << e.what() << "\n";
    return 1;
  }
}

} // namespace

int main(int argc, char **argv) {
  // The one subcommand; FILE arguments are Fortran files, never named so.
  if (argc > 1 && std::string(argv[1]) == "report")
    return report_main(argc - 1, argv + 1);
  f2s::DriverOptions o;
  CLI::App app{"f2stencil: translates the '!$f2s stencil' loop nests of Fortran files into a\n"
               "verified, auto-tuned library with a Fortran module and a C header.",
               "f2stencil"};
  app.footer("Besides the library, the output directory holds <lib>.json, the tuning record, "
             "and <lib>.html,\nthe report made from it (plots of the search; docs/report.md); "
             "--emit=sources writes neither.\n"
             "  f2stencil report DIR   writes DIR/<lib>.html again from DIR's record");
  app.set_version_flag("--version",
                       "f2stencil " F2S_VERSION "\nbuilt with Flang and LLVM " F2S_LLVM_VERSION,
                       "Print f2stencil's version and the Flang/LLVM version it was built with");
  app.add_option("FILE", o.files,
                 "Fortran source files (free form: .f90, .F90, ...; fixed form: .f, .F, .for, "
                 ".ftn, .f77, .fpp); a region may use a module of any of them")
      ->required();
  std::string targets = "pthreads";
  app.add_option("--target", targets,
                 "Comma-separated targets: c (serial), pthreads (threads), cuda (GPU, needs nvcc); "
                 "default pthreads");
  app.add_option("-o,--output", o.output_dir,
                 "Output directory (default: the library name); replaced atomically");
  app.add_option("--lib", o.lib_name, "Library and module name (default: f2s_<stem of FILE>)");
  bool no_tune = false;
  app.add_flag("--no-tune", no_tune,
               "Package the default variant without timing anything (the tuning cache is "
               "neither read nor written)");
  std::string emit;
  app.add_option("--emit", emit,
                 "Print the stencil IR (ir) or the library's C (c) and stop; or write the "
                 "library's sources (sources: the .c, .h, .f90 and, as the targets need, _cuda.cu "
                 "and _mpi.c) to the output directory and stop before compiling anything, for a "
                 "build of your own (no nvcc or mpicc needed; docs/running.md). --emit tunes "
                 "nothing: c and sources hold each target's default variant, as --no-tune "
                 "packages it")
      ->check(CLI::IsMember({"ir", "c", "sources"}));
  // One value per -I or -D, as compilers take them: `-DFOO a.f90` is a
  // macro and a file.
  app.add_option("-I", o.include_dirs, "Directory searched by INCLUDE lines and #include")
      ->allow_extra_args(false);
  app.add_option("-D", o.defines, "Preprocessor macro, NAME or NAME=VALUE")
      ->allow_extra_args(false);
  bool free_form = false, fixed_form = false;
  auto *free_flag =
      app.add_flag("--free-form", free_form,
                   "Read every file as free form, whatever its extension (also -ffree-form)");
  app.add_flag("--fixed-form", fixed_form,
               "Read every file as fixed form, whatever its extension (also -ffixed-form)")
      ->excludes(free_flag);
  bool real_8 = false, double_8 = false, r8 = false;
  app.add_flag("--fdefault-real-8", real_8,
               "-fdefault-real-8: default REAL and its literals are REAL(8), as gfortran makes "
               "them (and DOUBLE PRECISION REAL(16), which no region can use, unless "
               "-fdefault-double-8 is given too)");
  app.add_flag("--fdefault-double-8", double_8,
               "-fdefault-double-8: DOUBLE PRECISION and literals such as 1d0 stay REAL(8) "
               "under -fdefault-real-8, as in gfortran");
  app.add_flag("--r8", r8,
               "-r8: default REAL and its literals are REAL(8), DOUBLE PRECISION stays REAL(8), as "
               "the -r8 of ifort and nvfortran (gfortran's -fdefault-real-8 -fdefault-double-8)");
  std::string tune_size;
  app.add_option("--tune-size", tune_size,
                 "Problem size to tune at, n1,n2[,n3] (innermost first), or several separated "
                 "by ':' (64,64,64:256,256,256), each tuned and dispatched to by the call's size; "
                 "overrides tune_size(...) of the nests with as many loops as a size has values, "
                 "so sizes of several depths serve 3D and 2D nests at once (256,256,256:256,256)");
  app.add_option("-j,--jobs", o.jobs, "Compilations at once (default: one per processor)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--reps", o.reps, "Timed runs per candidate, median reported (default 5)")
      ->check(CLI::PositiveNumber);
  app.add_option("--timeout", o.timeout_s, "Seconds a candidate may run (default 60)")
      ->check(CLI::PositiveNumber);
  app.add_option("--search", o.search,
                 "How to search the candidates: model (default: rank with a roofline model, "
                 "measure the most promising, climb from the best), exhaustive (measure all), "
                 "or compare (model, then exhaustive, reporting how close model came)")
      ->check(CLI::IsMember({"model", "exhaustive", "compare"}));
  app.add_option("--candidates", o.candidates,
                 "Tune only the candidates whose description, as the tuning log prints it "
                 "('pthreads/blocked t=16 ... cx=64 cy=8'), matches this regular expression "
                 "(ECMAScript); for studying a search on a reduced space, or keeping a thread "
                 "count")
      ->check([](const std::string &re) -> std::string {
        try {
          std::regex check(re);
        } catch (const std::regex_error &e) {
          return "not a regular expression: " + std::string(e.what());
        }
        return "";
      });
  app.add_option("--time-tile-form", o.time_tile_form,
                 "How --time-tile=N tiles time loops in time, on targets pthreads and cuda: "
                 "overlapped (default: tiles of every dimension, each with the halo of N steps, "
                 "in a thread's buffers or a block's shared memory) or streaming (tiles of all "
                 "but the slowest dimension, walked along it with the N steps in flight: no "
                 "halo redone along it; grids of rank 2 or more). Tuning (--time-tile=auto) "
                 "measures both")
      ->check(CLI::IsMember({"overlapped", "streaming"}));
  app.add_option("--time-tile", o.time_tile,
                 "Time loops on target pthreads: auto (default: tile in time where tuning "
                 "measured it faster than the steps), off, or N (always, N steps per tile)")
      ->check([](const std::string &v) {
        if (v == "auto" || v == "off")
          return std::string();
        char *end = nullptr;
        long n = std::strtol(v.c_str(), &end, 10);
        return n >= 1 && n <= 64 && end && !*end ? std::string()
                                                 : std::string("auto, off or a number of steps "
                                                               "from 1 to 64");
      });
  app.add_option("--budget", o.budget_s,
                 "Seconds of measuring allowed per kernel on the CPU targets; the search stops "
                 "when it is spent, once each target has a candidate (a time loop: the steps "
                 "and a tile of each form) (default: no limit; CUDA measures all candidates)")
      ->check(CLI::PositiveNumber);
  app.add_option("--tuning-db", o.tuning_db,
                 "The tuning cache, an SQLite file: what was measured before (same kernel, "
                 "targets, machine, compiler, flags and size) is reused, not measured again "
                 "(default: $XDG_CACHE_HOME/f2stencil/tuning.db, else "
                 "~/.cache/f2stencil/tuning.db; see docs/tuning-cache.md)");
  app.add_flag("--retune", o.retune,
               "Measure again what the tuning cache holds for these kernels, replacing it");
  app.add_flag("--exact", o.exact,
               "CUDA: tune only candidates that round exactly as the serial code (no plane "
               "sums, which reassociate a weighted sum)");
  app.add_flag("--rewrite", o.rewrite,
               "Also write each FILE to <output>/src/ with every annotated loop nest replaced by "
               "a CALL of its kernel, a USE of the library added, and OpenMP/OpenACC directives "
               "around the nest removed (docs/rewrite.md); with --emit=ir or c, only checked");
  bool no_data_regions = false;
  app.add_flag("--no-data-regions", no_data_regions,
               "With --rewrite and --target=cuda: write no data regions (no enter, update and "
               "exit of the arrays around the calls, docs/rewrite.md#data-regions): each call "
               "then copies its arrays itself");
  app.add_flag("--mpi", o.mpi,
               "Also export, per kernel K, K_exchange(comm, <K's arguments>): the exchange of "
               "exactly the halo K reads over an MPI Cartesian communicator (docs/mpi.md); needs "
               "mpicc");
  app.add_flag("--keep-work", o.keep_work, "Keep the generated harnesses (their path is printed)");
  app.add_flag("-q,--quiet", o.quiet, "Print errors only");
  std::string march;
  app.add_option("--march", march,
                 "CPU the library's C is compiled for, as gcc's -march (default native, the CPU "
                 "f2stencil runs on): the compute nodes' (x86-64-v4, sapphirerapids, znver4) when "
                 "building on a login node of another kind; tuning still runs here, so give "
                 "--no-tune where this CPU cannot run that code");
  bool sanitize = false;
  app.add_flag("--sanitize", sanitize,
               "Debugging: build the tuning harnesses and the library's C with AddressSanitizer "
               "and UndefinedBehaviorSanitizer (link the program with the same flags)");

  // gfortran spells these with one dash, which CLI11 takes for a short
  // option with a value (`-f default-real-8`): give it the long spelling.
  std::vector<std::string> args(argv + 1, argv + argc);
  for (std::string &a : args)
    if (a == "-ffree-form" || a == "-ffixed-form")
      a = "--" + a.substr(2);
    else if (a == "-fdefault-real-8" || a == "-fdefault-double-8" || a == "-r8")
      a = "-" + a;
  std::reverse(args.begin(), args.end());
  try {
    app.parse(args);
  } catch (const CLI::Success &e) {
    return app.exit(e);
  } catch (const CLI::ParseError &e) {
    std::cerr << "f2stencil: error: " << e.what() << "\n"
              << "Run 'f2stencil --help' for the options.\n";
    return 1;
  }

  o.tune = !no_tune;
  if (free_form || fixed_form)
    o.form = free_form ? "free" : "fixed";
  if (real_8 || r8) {
    o.default_real_kind = 8;
    o.double_precision_kind = r8 || double_8 ? 8 : 16;
  }
  // Stop at the first report: a candidate whose accesses go out of bounds
  // then fails (and is never chosen) even when its results happen to match.
  o.data_regions = !no_data_regions;
  if (!march.empty()) {
    // Ask the compiler now: a name it does not know would otherwise fail
    // every candidate's build and then the library's, pages later.
    f2s::Command probe;
    probe.argv = f2s::compiler_words();
    probe.argv.insert(probe.argv.end(),
                      {"-march=" + march, "-x", "c", "-fsyntax-only", "/dev/null"});
    const f2s::ProcessResult r = f2s::run_process(probe);
    if (!r.ok()) {
      std::cerr << "f2stencil: error: the C compiler '" << f2s::c_compiler()
                << "' does not take -march=" << march << ": "
                << f2s::first_line(r.err.empty() ? r.describe() : r.err) << "\n";
      return 1;
    }
    o.cflags = {"-march=" + march};
  }
  if (sanitize)
    o.cflags.insert(o.cflags.end(), {"-fsanitize=address,undefined",
                                     "-fno-sanitize-recover=undefined", "-fno-omit-frame-pointer"});
  o.emit = emit;
  o.targets = split(targets, ',');
  const std::vector<std::string> known = f2s::target_names();
  for (const std::string &t : o.targets) {
    if (std::find(known.begin(), known.end(), t) != known.end())
      continue;
    std::string expected;
    for (const std::string &k : known)
      expected += (expected.empty() ? "" : ", ") + k;
    std::cerr << "f2stencil: error: Unknown target '" << t << "' (expected " << expected << ")\n";
    return 1;
  }
  // Sizes are separated by ':', which a shell passes unquoted; ';' as in the
  // directive is accepted too.
  std::replace(tune_size.begin(), tune_size.end(), ';', ':');
  for (const std::string &one : split(tune_size, ':')) {
    std::vector<int64_t> size;
    for (const std::string &n : split(one, ',')) {
      char *end = nullptr;
      long v = std::strtol(n.c_str(), &end, 10);
      if (n.empty() || *end || v <= 0) {
        std::cerr << "f2stencil: error: --tune-size wants positive integers, got '" << tune_size
                  << "'\n";
        return 1;
      }
      size.push_back(v);
    }
    if (size.empty()) {
      std::cerr << "f2stencil: error: --tune-size wants positive integers, got '" << tune_size
                << "'\n";
      return 1;
    }
    auto points = [](const std::vector<int64_t> &s) {
      double p = 1;
      for (int64_t e : s)
        p *= static_cast<double>(e);
      return p;
    };
    if (std::find(o.tune_sizes.begin(), o.tune_sizes.end(), size) != o.tune_sizes.end()) {
      std::cerr << "f2stencil: error: --tune-size lists the size '" << one
                << "' twice; give each size once\n";
      return 1;
    }
    // Sizes of another depth are for other nests (a multigrid code's 2D
    // face copies beside its 3D kernels).
    for (const std::vector<int64_t> &other : o.tune_sizes)
      if (other.size() == size.size() && points(other) == points(size)) {
        std::cerr << "f2stencil: error: --tune-size sizes '" << one
                  << "' and another have as many points, and the library tells sizes apart by "
                     "their working set; give one of them another number of points\n";
        return 1;
      }
    o.tune_sizes.push_back(size);
  }
  return run_pipeline_on_large_stack(o);
}
