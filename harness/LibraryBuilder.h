// Packaging: turns the generated sources of the winning variants into the
// files a Fortran build links against (or, for a build of the user's own, the
// sources alone), written atomically.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace f2s {

struct LibraryFiles {
  std::string name;                ///< NAME: lib<NAME>.a, lib<NAME>.so, <NAME>.h, ...
  std::string c_source;            ///< every kernel's C, self-contained (runtime included)
  std::string header;              ///< <NAME>.h
  std::string fortran_module;      ///< <NAME>.f90, a module named NAME
  std::string tuning_record;       ///< <NAME>.json
  std::string report;              ///< <NAME>.txt, readable summary
  std::vector<std::string> cflags; ///< extra flags for the C compiler (e.g. -march=native)
  /// CUDA C++ of the GPU variants (<NAME>_cuda.cu, compiled with nvcc, CUDA's
  /// runtime linked statically into the .so); empty without --target=cuda.
  std::string cuda_source;
  /// The halo exchanges (<NAME>_mpi.c, compiled with mpicc, which then links
  /// the .so too); empty without --mpi.
  std::string mpi_source;
  /// --rewrite: the user's source files, by file name, written to src/.
  std::vector<std::pair<std::string, std::string>> rewritten_sources;
};

class BuildError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Compiles and writes lib<NAME>.a, lib<NAME>.so, <NAME>.h, <NAME>.f90,
/// <NAME>.mod (when gfortran is in PATH), <NAME>.json and <NAME>.txt, plus the
/// C source <NAME>.c, and the rewritten sources under src/, into `dir`. Everything is built in a
/// temporary directory beside `dir` and moved into place at the end, so a failure leaves `dir` as
/// it was. Throws BuildError with the compiler's output on failure.
/// Returns what the user must know of the result, one sentence each: today,
/// that gfortran was not found, so <NAME>.mod and the module's object are
/// missing (the record says so too, under "fortran_module").
std::vector<std::string> build_library(const LibraryFiles &files, const std::filesystem::path &dir);

/// Writes the library's sources alone into `dir`, replacing it as build_library does: <NAME>.c,
/// <NAME>.h, <NAME>.f90, <NAME>_cuda.cu and <NAME>_mpi.c where the library has them, and the
/// rewritten sources under src/. Nothing is compiled, so no compiler is needed; the tuning record
/// and its summary are left out, since without a build nothing was measured or built to record.
void write_library_sources(const LibraryFiles &files, const std::filesystem::path &dir);

} // namespace f2s
