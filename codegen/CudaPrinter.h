// Printing kernels as CUDA C++: the only place that knows CUDA syntax.
//
// A CUDA variant V of kernel K is three functions in the library's CUDA
// source (compiled by nvcc):
//
//   __global__ void f2s_K_cuda_V_kernel(struct f2s_K_args a)    the mapped nest
//   void f2s_K_cuda_V_launch(const struct f2s_K_args *d, cudaStream_t s)
//                                       launches it on device pointers
//   extern "C" void f2s_K_cuda_V_run(const struct f2s_K_args *a, int alias,
//                                     void (*cpu)(const struct f2s_K_args *),
//                                     const struct f2s_call_size *size)
//                                       maps the host grids (present ones in
//                                       place, others copied for the call,
//                                       once per host range), launches,
//                                       copies back; or, where the call is
//                                       not for the GPU (F2S_TARGET, no
//                                       device, no room, an aliasing it has
//                                       no form for), calls `cpu`
//
// and, in the C source, the entry points that call _run with the kernel's
// CPU code (harness/Package.cpp).
#pragma once

#include "ast/IR.h"

#include <string>
#include <vector>

namespace f2s {

/// Headers, device helpers and the CUDA runtime, once per CUDA file.
std::string print_cuda_prelude();

/// The kernel, launcher and run function of a nest mapped by
/// transforms/CudaMapping, for `variant` ("cuda_tiled_..."). Without
/// `run_function`, the kernel and launcher alone (a box of K_mpi, which
/// print_cuda_box_entry launches on grids already on the device; the
/// nest of an aliasing). `aliased_variants[s]`, where not empty, names
/// variants whose launchers precede this one, the nest with the grids of
/// labelling s of ast/Aliasing's `safe` identified: the run function
/// launches it for a call whose aliasing check returned s + 1.
std::string print_cuda_variant(const Kernel &mapped, const std::string &variant,
                               bool run_function = true,
                               const std::vector<std::string> &aliased_variants = {});

/// The C declaration of that run function, for the library's C source.
std::string print_cuda_run_prototype(const Kernel &k, const std::string &variant);

/// The data-region procedures of library `lib` (C linkage, CUDA source):
/// lib_data_enter, lib_data_update_host, lib_data_update_device,
/// lib_data_exit, lib_data_delete (each (const void *array, size_t bytes)),
/// lib_data_update_host_if_present, lib_data_update_device_if_present (each
/// (const void *element): from it to the end of the present array holding
/// it, nothing where none does) and lib_data_transfers() (host-device
/// copies so far).
std::string print_cuda_data_exports(const std::string &lib);

/// Their C prototypes and Fortran interfaces, for the header and the module.
std::string print_cuda_data_c_prototypes(const std::string &lib);
std::string print_cuda_data_fortran_interfaces(const std::string &lib);

/// The device side of the MPI halo exchange of library `lib` (--mpi,
/// docs/mpi.md "On the GPU"), C linkage, for codegen/CMpiPrinter's exchange
/// to call: lib_f2s_halo_on_gpu (whether a call's grids are all present),
/// lib_f2s_halo_device (a present grid's device address), lib_f2s_halo_buffer
/// (per host thread, grown as needed: 0 and 1 the device's send and receive
/// buffers, 2 and 3 pinned host ones), lib_f2s_halo_pack (a subarray of a
/// device grid to a contiguous device buffer, or back with `unpack`),
/// lib_f2s_halo_copy and lib_f2s_halo_sync (on the exchange's stream, 1, or
/// the computing one, 0). No MPI here: nvcc needs no MPI headers.
std::string print_cuda_halo_exports(const std::string &lib);

/// `extern "C" int SYMBOL(int f2s_stream, <box's arguments>)`: launches a
/// CUDA variant of `box` (printed before it by print_cuda_variant) on stream
/// f2s_stream (print_cuda_halo_exports) on the device copies of its grids,
/// without waiting; 0, launching nothing, when a grid is not present on the
/// device. `variants` holds the variant of each tuned size, smallest working
/// set first (one for a kernel tuned at one size); where they differ, the
/// call launches the one of index `selector(&args)` (codegen/CSizeDispatch's
/// print_c_size_selector for the box's arguments, printed before it).
std::string print_cuda_box_entry(const Kernel &box, const std::vector<std::string> &variants,
                                 const std::string &symbol, const std::string &selector = "");

/// The name of the launcher of `variant` (for harnesses).
std::string cuda_launch_name(const Kernel &k, const std::string &variant);

} // namespace f2s
