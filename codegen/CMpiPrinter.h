// The MPI side of a library (issue 15): per kernel, the exchange of exactly
// the halo the kernel reads, over the user's Cartesian communicator.
#pragma once

#include "ast/Analysis.h"
#include "ast/IR.h"

#include <optional>
#include <string>
#include <vector>

namespace f2s {

/// How one grid dimension follows the nest: the Cartesian dimension of its
/// loop variable (x first, as MPI_Cart_create's dims(1) is x), or -1 for a
/// dimension subscripted by a constant (a component, exchanged whole).
struct HaloDim {
  int cart = -1;
  int64_t below = 0; ///< cells read below the first owned one
  int64_t above = 0; ///< cells read above the last owned one
};

/// One grid whose halo the kernel reads, and the neighbours it needs: each a
/// direction in {-1, 0, 1} per Cartesian dimension, from which some read
/// reaches (faces for a star, edges and corners too for a box).
struct HaloGrid {
  std::string name;
  std::vector<HaloDim> dims;
  std::vector<std::vector<int>> directions;
};

/// The halo exchange a kernel needs, or why it cannot have one.
struct HaloPlan {
  std::vector<HaloGrid> grids;
  std::optional<std::string> refusal;
};

/// What `k` reads outside its own points, per grid and neighbour. Refused
/// (with the reason) for what ranks cannot split at the nest's points: a loop
/// in order, scaled subscripts, loop bounds that depend on other loops, a grid
/// read with its loop variables in two orders, and grids that lack a loop
/// variable but are read at offsets along it.
HaloPlan plan_halo_exchange(const Kernel &k, const KernelFacts &facts);

/// The helpers every exchange calls (needs <mpi.h>, <stdio.h>, <stdlib.h>),
/// once per C file. With `gpu_lib` (the name of a library with CUDA code),
/// also their GPU side: grids present on the device are exchanged there,
/// through the library's halo exports (codegen/CudaPrinter's
/// print_cuda_halo_exports).
std::string print_c_mpi_prelude(const std::string &gpu_lib = "");

/// A kernel whose default choice runs on the GPU, in library `lib`: its
/// exchange moves the device copies of the grids when every grid of the call
/// is present there (exactly when the kernel itself runs there), and its
/// overlapped form computes there with `box_symbol` (print_cuda_box_entry):
/// the interior while the halo is packed, travels and is unpacked, and the
/// strips after. The box calls return without waiting for the device, a
/// kernel's reductions included (their partials are combined when the
/// procedure synchronizes at its end), so the halo travels while the
/// interior computes.
struct MpiGpu {
  std::string lib;
  std::string box_symbol;
};

/// The C prototype `void SYMBOL(const int *comm, <k's arguments>)`.
std::string print_c_exchange_prototype(const Kernel &k, const std::string &symbol);

/// The C function SYMBOL (needs <mpi.h>): on the Cartesian communicator
/// `*comm` (a Fortran handle; its dimension d is the nest's loop d, x
/// first), sends each neighbour the owned cells next to it that it reads and
/// receives the halo cells this rank reads, for every grid of `plan`, all
/// messages in flight at once. The owned cells are the nest's loop ranges of
/// this call's arguments; a neighbour across a non-periodic edge is
/// MPI_PROC_NULL (nothing moves there).
/// With `gpu`, device grids are exchanged on the device (MpiGpu).
std::string print_c_exchange(const Kernel &k, const HaloPlan &plan, const std::string &symbol,
                             const MpiGpu *gpu = nullptr);

/// The C function SYMBOL, the overlapped form of kernel `k`: posts the
/// exchange as print_c_exchange does, computes the owned cells that read no
/// halo (farther than the halo's width from every side with a neighbour)
/// with INTERIOR_SYMBOL, waits for the halo, then computes the strips around
/// that interior with STRIP_SYMBOL, each cell exactly once. Both are the
/// kernel on a box (transforms/RestrictToBox: the box's bounds appended to
/// k's arguments, x first, lo then hi); the library runs its tuned variant
/// on the interior and the plain parallel nest on the thin strips
/// (harness/Package). With `gpu`, on the device where the grids are
/// (MpiGpu).
std::string print_c_overlapped(const Kernel &k, const HaloPlan &plan, const std::string &symbol,
                               const std::string &interior_symbol, const std::string &strip_symbol,
                               const MpiGpu *gpu = nullptr);

} // namespace f2s
