// The public entry point of a kernel whose choice runs on the GPU: one call
// of the CUDA run function of the call's size, which runs the call on the
// GPU or hands it to the kernel's tuned CPU code.
#pragma once

#include "codegen/CSizeDispatch.h"

#include <string>
#include <vector>

namespace f2s {

/// `symbol(args...)`: checks the call's aliasing where `check_aliasing`
/// (print_c_aliasing_check's function precedes; it stops on an overlap no
/// code computes right, and otherwise tells the GPU code which arrays are
/// one), then calls the run function of `calls`' variant for the call's
/// size (print_cuda_run_prototype precedes each; with several calls,
/// `selector` as print_c_sized_entry's) with `cpu_path`, the kernel's CPU
/// code (print_c_entry or print_c_sized_entry in EntryForm::CpuPath), which
/// it runs where the call does not go to the GPU. Only `sizes`, `variant`
/// and `comment` of each call are read.
std::string print_c_gpu_entry(const Kernel &k, const std::string &symbol,
                              const std::string &selector, const std::vector<SizedCall> &calls,
                              const std::string &cpu_path, const std::string &comment,
                              bool check_aliasing);

} // namespace f2s
