// The CUDA part of a generated library: the GPU variants' CUDA source, the
// data-region procedures in the header and the module, and the GPU facts in
// the tuning record.
#pragma once

#include "harness/CudaTuner.h"
#include "harness/Package.h"

#include <map>

namespace f2s {

/// The key of add_cuda_to_library's `times` for a kernel at its tuning size
/// `size` (0: the build itself, i: KernelBuild::other_sizes[i - 1]).
std::string cuda_times_key(const std::string &kernel, size_t size);

/// Whether K_mpi of `b`'s kernel computes on the GPU, with the kernel on a
/// box (symbol NAME_K_box_cuda, codegen/CudaPrinter's print_cuda_box_entry,
/// mapped as the GPU choice of the tuned size nearest the call's), where
/// every grid of the call is present there: when its default choice runs on
/// the GPU.
bool cuda_box_for_mpi(const KernelBuild &b);

/// Adds to `files` (from package_library) the CUDA source of every chosen
/// "cuda" variant and the data-region procedures NAME_data_enter,
/// NAME_data_update_host, NAME_data_update_device, NAME_data_exit,
/// NAME_data_delete, NAME_data_update_host_if_present,
/// NAME_data_update_device_if_present and NAME_data_transfers (header and
/// Fortran module).
/// With --mpi (info.mpi), also the device side of the halo exchanges.
/// `gpu` names the device tuned on ("" when untuned); `times` holds the
/// transfer times per kernel and result index, for the tuning record.
void add_cuda_to_library(LibraryFiles &files, const PackageInfo &info,
                         const std::vector<KernelBuild> &kernels, const std::string &gpu,
                         const std::map<std::string, std::map<size_t, CudaCandidateTimes>> &times);

} // namespace f2s
