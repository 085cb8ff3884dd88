# Writes OUTPUT, a C++ file defining f2s::runtime_c_text() as the text of
# HEADER, SOURCE and COMMON. Run by runtime/CMakeLists.txt in script mode.
file(READ ${HEADER} header_text)
file(READ ${SOURCE} source_text)
# The launcher helpers both run-time texts share (runtime/f2s_launcher.c).
file(READ ${COMMON} common_text)
# What a call ran: F2S_TARGET, F2S_VERBOSE, F2S_PROFILE (runtime/f2s_calls.c).
file(READ ${CALLS} calls_text)
set(text "${header_text}\n${source_text}\n${common_text}\n${calls_text}")
# The raw string ends at the first )F2SRT" — the runtime must never contain it.
string(FIND "${text}" ")F2SRT\"" collision)
if(NOT collision EQUAL -1)
  message(FATAL_ERROR "The runtime text contains the raw-string delimiter )F2SRT\"")
endif()
set(cpp "// Generated from runtime/f2s_runtime.h and runtime/f2s_runtime.c by\n")
string(APPEND cpp "// runtime/EmbedRuntime.cmake; edit those files, not this one.\n")
string(APPEND cpp "#include \"runtime/RuntimeText.h\"\n\n")
string(APPEND cpp "namespace f2s {\n\nconst char *runtime_c_text() {\n")
string(APPEND cpp "  return R\"F2SRT(${text})F2SRT\";\n}\n\n} // namespace f2s\n")
# Written beside and copied only when different, so an unchanged runtime does
# not recompile what depends on it.
file(WRITE ${OUTPUT}.new "${cpp}")
file(COPY_FILE ${OUTPUT}.new ${OUTPUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUTPUT}.new)
