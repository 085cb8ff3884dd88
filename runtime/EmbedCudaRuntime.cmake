# Writes OUTPUT, a C++ file defining f2s::cuda_runtime_text() as the text of
# HEADER, SOURCE and COMMON (runtime/f2s_cuda_runtime.{h,cu}). Run by
# runtime/CMakeLists.txt in script mode, like EmbedRuntime.cmake.
file(READ ${HEADER} header_text)
file(READ ${SOURCE} source_text)
# The launcher helpers both run-time texts share (runtime/f2s_launcher.c).
file(READ ${COMMON} common_text)
# What a call ran: F2S_TARGET, F2S_VERBOSE, F2S_PROFILE (runtime/f2s_calls.c).
file(READ ${CALLS} calls_text)
# Before the CUDA runtime, which reads the environment and profiles through it.
set(text "${header_text}\n${calls_text}\n${source_text}\n${common_text}")
string(FIND "${text}" ")F2SRT\"" collision)
if(NOT collision EQUAL -1)
  message(FATAL_ERROR "The CUDA runtime text contains the raw-string delimiter )F2SRT\"")
endif()
set(cpp "// Generated from runtime/f2s_cuda_runtime.h and .cu by\n")
string(APPEND cpp "// runtime/EmbedCudaRuntime.cmake; edit those files, not this one.\n")
string(APPEND cpp "#include \"runtime/CudaRuntimeText.h\"\n\n")
string(APPEND cpp "namespace f2s {\n\nconst char *cuda_runtime_text() {\n")
string(APPEND cpp "  return R\"F2SRT(${text})F2SRT\";\n}\n\n} // namespace f2s\n")
file(WRITE ${OUTPUT}.new "${cpp}")
file(COPY_FILE ${OUTPUT}.new ${OUTPUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUTPUT}.new)
