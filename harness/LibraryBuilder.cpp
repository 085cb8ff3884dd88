// Packaging the tuned library. The user's output directory is either left as
// it was or replaced whole: everything is built in a temporary directory on
// the same file system and renamed into place, so a failed compile never
// leaves a half-written library that a Fortran build would link.
#include "harness/LibraryBuilder.h"

#include "harness/CudaToolkit.h"
#include "harness/Process.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <system_error>

#include <stdlib.h>

namespace f2s {

namespace fs = std::filesystem;

namespace {

/// The file that marks a directory as an earlier output of f2stencil, and so
/// as one that may be replaced.
constexpr const char *kMarker = ".f2stencil";

/// A directory removed on scope exit unless released.
class TempDir {
public:
  explicit TempDir(fs::path path) : path_(std::move(path)) {}
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty())
      fs::remove_all(path_, ec);
  }
  const fs::path &path() const { return path_; }
  void release() { path_.clear(); }

private:
  fs::path path_;
};

/// mkdtemp with `prefix` followed by six random characters.
fs::path make_temp_dir(const fs::path &prefix) {
  std::string pattern = prefix.string() + "XXXXXX";
  if (!::mkdtemp(pattern.data()))
    throw BuildError("Cannot create a temporary directory '" + pattern +
                     "': " + std::strerror(errno));
  return pattern;
}

void write_file(const fs::path &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out)
    throw BuildError("Cannot write '" + path.string() + "'");
}

/// NAME becomes file names, C symbols' prefix and a Fortran module name, so
/// only a Fortran identifier is accepted.
void check_name(const std::string &name) {
  bool ok = !name.empty() && std::isalpha(static_cast<unsigned char>(name[0]));
  for (char c : name)
    ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
  if (!ok)
    throw BuildError("Library name '" + name + "' is not a Fortran identifier");
}

/// Whether `dir` may be replaced: it does not exist, is empty, or holds the
/// marker of an earlier run. Checked before anything is built, so that a
/// mistyped output path costs no compile time.
void check_replaceable(const fs::path &dir) {
  std::error_code ec;
  auto st = fs::status(dir, ec);
  if (!fs::exists(st))
    return;
  bool ours = fs::is_directory(st) && (fs::is_empty(dir, ec) || fs::exists(dir / kMarker, ec));
  if (!ours)
    throw BuildError("Output directory '" + dir.string() +
                     "' exists and was not written by f2stencil");
}

std::string join(const std::vector<std::string> &argv) {
  std::string s;
  for (const auto &a : argv)
    s += (s.empty() ? "" : " ") + a;
  return s;
}

void run_step(const Command &cmd) {
  ProcessResult r = run_process(cmd);
  if (r.ok())
    return;
  std::string output = r.err + r.out;
  throw BuildError("Command '" + join(cmd.argv) + "' failed (" + r.describe() + ")" +
                   (output.empty() ? "" : ":\n" + output));
}

/// Compiles the library in `tmp`; returns whether the Fortran module was
/// compiled (it is where gfortran is in PATH).
bool compile(const LibraryFiles &files, const fs::path &tmp) {
  const std::string &name = files.name;
  auto command = [&](std::vector<std::string> argv) {
    Command c;
    c.argv = std::move(argv);
    c.cwd = tmp.string();
    return c;
  };
  std::vector<std::string> cc = compiler_words();
  std::vector<std::string> objects = {name + ".o"};

  std::vector<std::string> compile_c = cc;
  compile_c.insert(compile_c.end(), {"-O3", "-fPIC", "-std=gnu11", "-pthread"});
  compile_c.insert(compile_c.end(), files.cflags.begin(), files.cflags.end());
  compile_c.insert(compile_c.end(), {"-c", name + ".c", "-o", name + ".o"});
  run_step(command(compile_c));

  // The module's object goes into both libraries even though today's module
  // holds only bind(C) interfaces (an object with no symbols, which costs
  // nothing): a module procedure added later, such as a wrapper taking
  // assumed-shape arrays, then links without the user having to know.
  const bool fortran = find_program("gfortran").has_value();
  if (fortran) {
    objects.push_back(name + "_mod.o");
    run_step(command({"gfortran", "-O2", "-fPIC", "-J" + tmp.string(), "-c", name + ".f90", "-o",
                      name + "_mod.o"}));
  }

  std::vector<std::string> cuda_libs;
  if (!files.cuda_source.empty()) {
    auto nvcc = find_nvcc();
    if (!nvcc)
      throw BuildError("The library has CUDA code but nvcc was not found");
    std::vector<std::string> compile_cu = {*nvcc};
    for (const std::string &f : nvcc_flags())
      compile_cu.push_back(f);
    compile_cu.insert(compile_cu.end(), {"-c", name + "_cuda.cu", "-o", name + "_cuda.o"});
    run_step(command(compile_cu));
    objects.push_back(name + "_cuda.o");
    cuda_libs = {"-L" + cuda_library_dir(*nvcc), "-lcudart_static", "-ldl", "-lrt", "-lstdc++"};
  }

  const bool mpi = !files.mpi_source.empty();
  if (mpi) {
    if (!find_program("mpicc"))
      throw BuildError("The library has MPI halo exchanges (--mpi) but mpicc was not found: "
                       "install an MPI (Debian: libopenmpi-dev openmpi-bin) or put its mpicc in "
                       "PATH");
    std::vector<std::string> compile_mpi = {"mpicc", "-O3", "-fPIC", "-std=gnu11"};
    compile_mpi.insert(compile_mpi.end(), files.cflags.begin(), files.cflags.end());
    compile_mpi.insert(compile_mpi.end(), {"-c", name + "_mpi.c", "-o", name + "_mpi.o"});
    run_step(command(compile_mpi));
    objects.push_back(name + "_mpi.o");
  }

  std::vector<std::string> archive = {"ar", "rcs", "lib" + name + ".a"};
  archive.insert(archive.end(), objects.begin(), objects.end());
  run_step(command(archive));

  // The extra flags go to the link too: -fsanitize= or -fopenmp need it,
  // and code-generation flags are ignored there.
  // mpicc adds MPI's library to the link.
  std::vector<std::string> link = mpi ? std::vector<std::string>{"mpicc"} : cc;
  link.insert(link.end(), {"-shared", "-pthread"});
  link.insert(link.end(), files.cflags.begin(), files.cflags.end());
  link.insert(link.end(), {"-o", "lib" + name + ".so"});
  link.insert(link.end(), objects.begin(), objects.end());
  link.insert(link.end(), cuda_libs.begin(), cuda_libs.end());
  link.push_back("-lm");
  run_step(command(link));

  for (const auto &o : objects)
    fs::remove(tmp / o);
  return fortran;
}

/// Why a library has no compiled module, and what to do about it.
std::string no_fortran_module_note(const std::string &name) {
  return "gfortran was not found, so " + name +
         ".mod and the module's object are not in the "
         "library: compile " +
         name + ".f90 with the program's Fortran compiler (gfortran -c " + name +
         ".f90) before a source that uses the module";
}

/// Replaces `dir` by `tmp`. A new or empty `dir` is replaced by one rename;
/// an earlier output is first renamed aside, so that at every moment `dir`
/// is either the old library or the new one, never a mixture.
void move_into_place(const fs::path &tmp, const fs::path &dir) {
  if (::rename(tmp.c_str(), dir.c_str()) == 0)
    return;
  if (errno != ENOTEMPTY && errno != EEXIST)
    throw BuildError("Cannot rename '" + tmp.string() + "' to '" + dir.string() +
                     "': " + std::strerror(errno));
  TempDir aside(make_temp_dir(dir.string() + ".old-"));
  // rename() replaces the empty directory mkdtemp made.
  if (::rename(dir.c_str(), aside.path().c_str()) != 0)
    throw BuildError("Cannot move the earlier output '" + dir.string() +
                     "' aside: " + std::strerror(errno));
  if (::rename(tmp.c_str(), dir.c_str()) != 0) {
    int err = errno;
    if (::rename(aside.path().c_str(), dir.c_str()) == 0)
      aside.release();
    throw BuildError("Cannot rename '" + tmp.string() + "' to '" + dir.string() +
                     "': " + std::strerror(err));
  }
}

/// What an output directory receives: the sources alone, or the library
/// built from them with its record.
enum class Output { Sources, Library };

/// Writes `files` into a temporary directory beside `dir_in`, compiles them
/// there for Output::Library, and moves the result into place.
std::vector<std::string> write_output(const LibraryFiles &files, const fs::path &dir_in,
                                      Output what) {
  check_name(files.name);
  // "out/" has an empty file name; "out" is the directory meant.
  fs::path dir = fs::absolute(dir_in).lexically_normal();
  if (dir.filename().empty())
    dir = dir.parent_path();
  check_replaceable(dir);
  std::error_code ec;
  fs::create_directories(dir.parent_path(), ec);
  if (ec)
    throw BuildError("Cannot create '" + dir.parent_path().string() + "': " + ec.message());

  TempDir tmp(make_temp_dir(dir.string() + ".tmp-"));
  const std::string &name = files.name;
  write_file(tmp.path() / (name + ".c"), files.c_source);
  if (!files.cuda_source.empty())
    write_file(tmp.path() / (name + "_cuda.cu"), files.cuda_source);
  if (!files.mpi_source.empty())
    write_file(tmp.path() / (name + "_mpi.c"), files.mpi_source);
  write_file(tmp.path() / (name + ".h"), files.header);
  write_file(tmp.path() / (name + ".f90"), files.fortran_module);
  if (what == Output::Library) {
    write_file(tmp.path() / (name + ".json"), files.tuning_record);
    write_file(tmp.path() / (name + ".txt"), files.report);
  }
  if (!files.rewritten_sources.empty())
    fs::create_directory(tmp.path() / "src");
  for (const auto &[file_name, text] : files.rewritten_sources)
    write_file(tmp.path() / "src" / file_name, text);
  // The marker goes with the sources too: without it the next run could not
  // replace the directory.
  write_file(tmp.path() / kMarker, "This directory was written by f2stencil; it is replaced "
                                   "whole by the next run that writes here.\n");
  std::vector<std::string> notes;
  if (what == Output::Library && !compile(files, tmp.path())) {
    notes.push_back(no_fortran_module_note(name));
    // The record says it too: a library tuned on one machine (a GPU host
    // without gfortran) is often linked on another, where only the record
    // travels with it.
    nlohmann::json record = nlohmann::json::parse(files.tuning_record, nullptr, false);
    if (record.is_object()) {
      record["fortran_module"] = {{"compiled", false}, {"why", notes.back()}};
      write_file(tmp.path() / (name + ".json"), record.dump(2) + "\n");
    }
  }
  // mkdtemp makes the directory 0700; the library is meant to be shared like
  // any other build output.
  fs::permissions(tmp.path(), fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                  fs::perms::others_read | fs::perms::others_exec);
  move_into_place(tmp.path(), dir);
  tmp.release();
  return notes;
}

} // namespace

std::vector<std::string> build_library(const LibraryFiles &files, const fs::path &dir) {
  return write_output(files, dir, Output::Library);
}

void write_library_sources(const LibraryFiles &files, const fs::path &dir) {
  (void)write_output(files, dir, Output::Sources);
}

} // namespace f2s
