// The run-time support as text, for the code generator to put at the top of
// every generated C file.
#pragma once

namespace f2s {

/// runtime/f2s_runtime.h followed by runtime/f2s_runtime.c: one
/// self-contained piece of C (every name static) that needs only libc and
/// pthreads. Embedded at build time.
const char *runtime_c_text();

} // namespace f2s
