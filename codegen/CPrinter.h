// Printing kernels as C: the serial reference, the pthreads variants and the
// library's public entry points. Code is printed by walking the IR; only the
// fixed prelude (headers, the runtime) is text.
//
// Every variant of kernel K has the same signature,
//
//   static void f2s_K_<variant>(const struct f2s_K_args *a, const long *tune, int nthreads);
//
// where `tune` holds the values of K's tuning parameters in order, so the
// harness and the library call any variant the same way.
#pragma once

#include "ast/Aliasing.h"
#include "ast/IR.h"

#include <string>
#include <utility>
#include <vector>

namespace f2s {

/// The name a Fortran identifier has in generated C and CUDA: `F_<name>`.
/// Every user name lives in this space of its own, whatever it is called
/// (`fmod`, `asm`, `unix`, `a`), apart from C's and the printers' names.
/// Kernel names, which are the library's exported symbols, are not renamed.
std::string c_name(const std::string &fortran_name);

/// The C type of a scalar argument or element: int32_t, float, double.
const char *c_type(Type t);

/// Headers, the run-time support and small inline helpers, once per file;
/// the cache bypass's row helpers (and <immintrin.h>, whose parsing alone
/// is a third of a small file's compile) only with `stream_rows`.
std::string print_c_prelude(bool stream_rows);

/// Whether C `code` streams rows to memory (transforms/CacheBypass), so its
/// file's prelude needs the row helpers: every such variant fences its
/// streamed stores with f2s_stream_fence before it returns.
bool c_code_streams_rows(const std::string &code);

/// `struct f2s_K_args`: one field per kernel argument, grids as pointers.
std::string print_c_args_struct(const Kernel &k);

/// The function `f2s_K_<variant>` for a kernel (original or transformed).
/// Loops marked Parallel are divided among `nthreads` threads of the pool.
/// The grids are `restrict` pointers unless `restrict_grids` is false (the
/// variant that aliased calls run).
std::string print_c_variant(const Kernel &k, const std::string &variant,
                            bool restrict_grids = true);

/// What an entry point does when a call passes arrays that share memory, one
/// of them written (the restrict variants would compute a wrong result).
enum class AliasedCalls {
  Unchecked,         ///< no check (a kernel with one grid, or none written)
  RunAliasedVariant, ///< f2s_K_aliasing, then `f2s_K_aliased` when it allows
  Stop,              ///< f2s_K_aliasing stops the program (no aliasing is safe)
};

/// The function an entry point is: the public `symbol(args...)`, or the CPU
/// code of a kernel that a GPU entry point hands its call to where it does
/// not run on the GPU, `static void symbol(const struct f2s_K_args *)`.
enum class EntryForm { Public, CpuPath };

/// A public entry point `symbol(args...)` that calls variant `variant` with
/// fixed tuning values and `threads` threads (overridable by F2S_NUM_THREADS
/// at run time when the variant is parallel), and says what it ran under
/// F2S_VERBOSE and F2S_PROFILE (runtime/f2s_calls.c). Unless `aliased` is
/// Unchecked, print_c_aliasing_check's function must precede it, and for
/// RunAliasedVariant also the variant `aliased` of the kernel without restrict
/// (print_c_variant(..., "aliased", false)).
std::string print_c_entry(const Kernel &k, const std::string &symbol, const std::string &variant,
                          const std::vector<long> &tune, int threads, const std::string &comment,
                          AliasedCalls aliased = AliasedCalls::Unchecked,
                          EntryForm form = EntryForm::Public);

/// The head of an entry point of `form`, through `const struct f2s_K_args a`.
std::string print_c_entry_head(const Kernel &k, const std::string &symbol, EntryForm form);

/// The block of an entry point (at indentation `pad`, after its head, its
/// tuning array `tune` and `const double f2s_t0 = f2s_call_begin();`) that
/// checks the call's aliasing as `aliased` says, runs `variant` with
/// f2s_num_threads(threads) threads, reports it and returns.
std::string print_c_call(const Kernel &k, const std::string &variant, const std::string &tune,
                         int threads, AliasedCalls aliased, const std::string &pad);

/// `const T F_x = <from>F_x; (void)F_x;` at indentation `pad` for each scalar
/// argument of `k` (reductions, whose field is an address, left out).
std::string print_c_scalar_locals(const Kernel &k, const std::string &from, const std::string &pad);

/// The statements (at indentation `pad`) that declare `struct f2s_call_size
/// f2s_size` (runtime/f2s_calls.c) and, under F2S_PROFILE, fill it with the
/// call's size: the trips of the kernel's perfect nest, innermost first, and
/// its compulsory traffic per point (KernelFacts::read_bytes + write_bytes);
/// rank 0 where the nest's bounds are not in its scalar arguments. Those are
/// read through `from` ("a."), or are locals already where `from` is empty.
std::string print_c_call_size(const Kernel &k, const std::string &from, const std::string &pad);

/// The target and the report's name of variant function `variant`:
/// "pthreads_blocked_..." is {"pthreads", "pthreads/blocked_..."} (the
/// harness names variants <target>_<name>); a name without a target is a
/// nest the CPU runs when no CPU target was chosen: {"cpu", "cpu/<name>"}.
std::pair<std::string, std::string> c_variant_label(const std::string &variant);

/// Whether a kernel's calls can alias harmfully: two grids or more, one written.
bool needs_aliasing_check(const Aliasing &a);

/// `static int f2s_K_aliasing(const struct f2s_K_args *a)`: 0 when no
/// written grid of the call shares memory with another grid, 1 + s when the
/// grids that do are one array with one set of bounds as labelling s of
/// `a.safe`; otherwise it stops the program with a message naming two of
/// the arguments and the kernel.
std::string print_c_aliasing_check(const Kernel &k, const Aliasing &a);

/// The top of a variant's body (`a` points to its args struct): local copies
/// of the scalars, the grid pointers and the layout of every grid
/// (f2s_<grid>_lo<d>, f2s_<grid>_s<d>, which CExprPrinter addresses elements
/// by), the tuning parameters and the temporaries. A reduction's local starts
/// at the argument's value, or in a `parallel` thread's share at the
/// operator's identity.
std::string print_c_prologue(const Kernel &k, bool parallel, bool restrict_grids);

/// The layout of grid `v` of kernel `k`, lines at indentation `pad`:
/// `const long f2s_<name>_lo<d>` (its declared lower bounds) and
/// `f2s_<name>_s<d>` (the stride of dimension d in elements), from the
/// kernel's scalars in scope under their C names. CExprPrinter addresses the
/// grid's elements by them.
std::string print_c_grid_layout(const Kernel &k, const Variable &v, const std::string &pad);

/// The name of that function.
std::string c_aliasing_check_name(const Kernel &k);

/// The prototype of a public entry point, without the final semicolon.
std::string print_c_entry_prototype(const Kernel &k, const std::string &symbol);

/// The identity of a reduction's operator in C (CUDA too): where a partial
/// starts.
std::string reduction_identity(const Reduction &r);

/// `acc = acc (op) part;` in C (CUDA too), for combining partials.
std::string reduction_combine(const Reduction &r, const std::string &acc, const std::string &part);

/// An expression in C, in the context of kernel `k` (for bounds and extents).
std::string print_c_expr(const Kernel &k, const Expr &e);

/// The name of variant `variant` of kernel `k` in C.
std::string c_variant_name(const Kernel &k, const std::string &variant);

/// The thread placement, once per file after the prelude: a constructor that
/// hands `cpus` (entry t: the CPU of thread t, from CpuModel::placement) to
/// the runtime's f2s_set_placement, so the library and the harness pin
/// alike. Nothing when `cpus` is empty (threads are not pinned).
std::string print_c_placement(const std::vector<int> &cpus, const std::string &comment);

} // namespace f2s
