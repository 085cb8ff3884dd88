# f2stencil_add_library(): runs f2stencil at build time and gives the project
# an imported library target to link. Reference: docs/build-integration.md.
#
#   f2stencil_add_library(<name> SOURCES file...
#                         [TARGETS c|pthreads|cuda...]
#                         [TUNE_SIZE n1,n2[,n3]... | TUNE_SIZE n1 n2 [n3]]
#                         [REWRITE]
#                         [OPTIONS option...]
#                         [DEPENDS file...])
include_guard(GLOBAL)

set(_F2S_PACKAGE_DIR "${CMAKE_CURRENT_LIST_DIR}")

# Writes `text` to `path` only when it differs from what is there, so that the
# custom command that depends on `path` re-runs only when its options change.
function(_f2stencil_write_if_different path text)
  if(EXISTS "${path}")
    file(READ "${path}" old)
    if(old STREQUAL text)
      return()
    endif()
  endif()
  file(WRITE "${path}" "${text}")
endfunction()

function(f2stencil_add_library name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "REWRITE" "" "SOURCES;TARGETS;TUNE_SIZE;OPTIONS;DEPENDS")
  set(where "f2stencil_add_library(${name})")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${where}: unknown arguments '${arg_UNPARSED_ARGUMENTS}'; the "
      "keywords are SOURCES, TARGETS, TUNE_SIZE, REWRITE, OPTIONS and DEPENDS (f2stencil's own "
      "options go after OPTIONS)")
  endif()
  # The name is f2stencil's --lib: file names, C symbols and the module.
  if(NOT name MATCHES "^[A-Za-z][A-Za-z0-9_]*$")
    message(FATAL_ERROR "${where}: the name is also the Fortran module's, so it must be a Fortran "
      "identifier (a letter, then letters, digits and underscores)")
  endif()
  if(TARGET ${name})
    message(FATAL_ERROR "${where}: a target named '${name}' exists already; the library needs "
      "a name of its own")
  endif()
  if(NOT arg_SOURCES)
    message(FATAL_ERROR "${where}: SOURCES is required: the Fortran files with the "
      "'!$f2s stencil' regions and those whose modules the regions use")
  endif()

  set(dir "${CMAKE_CURRENT_BINARY_DIR}/f2stencil/${name}")
  set(sources)
  set(rewritten)
  set(source_dirs)
  set(basenames)
  foreach(source IN LISTS arg_SOURCES)
    get_filename_component(path "${source}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_filename_component(base "${path}" NAME)
    get_filename_component(parent "${path}" DIRECTORY)
    if(base IN_LIST basenames)
      message(FATAL_ERROR "${where}: two SOURCES are named '${base}', but f2stencil writes the "
        "rewritten files into one folder by their names; rename one")
    endif()
    list(APPEND basenames "${base}")
    list(APPEND sources "${path}")
    list(APPEND rewritten "${dir}/src/${base}")
    list(APPEND source_dirs "${parent}")
  endforeach()
  list(REMOVE_DUPLICATES source_dirs)

  set(command_options "--lib=${name}" "-o" "${dir}")
  set(uses_cuda FALSE)
  if(arg_TARGETS)
    foreach(t IN LISTS arg_TARGETS)
      if(NOT t MATCHES "^(c|pthreads|cuda)$")
        message(FATAL_ERROR "${where}: unknown target '${t}' in TARGETS; the targets are c, "
          "pthreads and cuda")
      endif()
      if(t STREQUAL "cuda")
        set(uses_cuda TRUE)
      endif()
    endforeach()
    list(JOIN arg_TARGETS "," targets)
    list(APPEND command_options "--target=${targets}")
  endif()
  if(arg_TUNE_SIZE)
    # Either one size as separate numbers (TUNE_SIZE 256 256 256) or one or
    # more sizes as comma lists (TUNE_SIZE 64,64,64 256,256,256): f2stencil
    # separates sizes with ':'.
    if(arg_TUNE_SIZE MATCHES ",")
      list(JOIN arg_TUNE_SIZE ":" size)
    else()
      list(JOIN arg_TUNE_SIZE "," size)
    endif()
    if(NOT size MATCHES "^[0-9]+(,[0-9]+)*(:[0-9]+(,[0-9]+)*)*$")
      message(FATAL_ERROR "${where}: TUNE_SIZE wants positive integers, innermost loop first "
        "(TUNE_SIZE 256 256 256, or TUNE_SIZE 64,64,64 256,256,256), got '${arg_TUNE_SIZE}'")
    endif()
    list(APPEND command_options "--tune-size=${size}")
  endif()
  if(arg_REWRITE)
    list(APPEND command_options "--rewrite")
  endif()
  list(APPEND command_options ${arg_OPTIONS})

  get_target_property(f2stencil f2stencil::f2stencil IMPORTED_LOCATION)
  set(environment)
  set(link_libraries)
  # The library target is global, so the imported targets it links must be
  # too (find_package's GLOBAL, CMake 3.24), for a project that links it in
  # another directory.
  set(global)
  if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.24)
    set(global GLOBAL)
  endif()
  if(uses_cuda)
    # The toolkit that links the program also compiles the library's GPU code.
    find_package(CUDAToolkit REQUIRED ${global})
    set(environment "NVCC=${CUDAToolkit_NVCC_EXECUTABLE}")
    # The archive holds nvcc's object, which needs CUDA's runtime and, for its
    # host code, the C++ library.
    list(APPEND link_libraries CUDA::cudart stdc++)
  endif()
  # FindThreads needs C or C++ enabled, which a Fortran project may not have;
  # the libraries are built with -pthread, which on Linux is libpthread.
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if("C" IN_LIST languages OR "CXX" IN_LIST languages)
    find_package(Threads REQUIRED ${global})
    list(APPEND link_libraries Threads::Threads m)
  else()
    list(APPEND link_libraries pthread m)
  endif()

  # The stamp holds everything the command depends on besides the files, so
  # that changing an option (or the f2stencil used) re-runs it.
  set(stamp "${CMAKE_CURRENT_BINARY_DIR}/f2stencil/${name}.options")
  list(JOIN command_options "\n" stamp_options)
  list(JOIN sources "\n" stamp_sources)
  _f2stencil_write_if_different("${stamp}"
    "${f2stencil}\n${environment}\n${stamp_options}\n${stamp_sources}\n")
  # The include directory of an imported target must exist when the project
  # is generated; f2stencil accepts an empty directory as its output.
  file(MAKE_DIRECTORY "${dir}")

  string(TOLOWER "${name}" module)
  set(outputs "${dir}/lib${name}.a" "${dir}/${module}.mod" "${dir}/${name}.h"
    "${dir}/${name}.f90")
  set(before)
  set(after)
  if(arg_REWRITE)
    list(APPEND outputs ${rewritten})
    set(script "${_F2S_PACKAGE_DIR}/f2stencilRewrittenSources.cmake")
    set(before COMMAND "${CMAKE_COMMAND}" "-DDIR=${dir}" -DSTEP=before -P "${script}")
    set(after COMMAND "${CMAKE_COMMAND}" "-DDIR=${dir}" -DSTEP=after -P "${script}" ${sources})
  endif()
  add_custom_command(
    OUTPUT ${outputs}
    ${before}
    COMMAND "${CMAKE_COMMAND}" -E env ${environment} "${f2stencil}" ${command_options} ${sources}
    ${after}
    DEPENDS ${sources} ${arg_DEPENDS} "${stamp}" "${f2stencil}"
    WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}"
    COMMENT "f2stencil: library ${name}"
    USES_TERMINAL
    VERBATIM)
  add_custom_target(${name}_f2stencil DEPENDS ${outputs})

  add_library(${name} STATIC IMPORTED GLOBAL)
  set(include_dirs "${dir}")
  if(arg_REWRITE)
    # The rewritten files live in another folder than the originals, so what
    # they INCLUDE or #include beside themselves is looked for there too.
    list(APPEND include_dirs ${source_dirs})
  endif()
  set_target_properties(${name} PROPERTIES
    IMPORTED_LOCATION "${dir}/lib${name}.a"
    INTERFACE_INCLUDE_DIRECTORIES "${include_dirs}"
    INTERFACE_LINK_LIBRARIES "${link_libraries}"
    F2STENCIL_OUTPUT_DIRECTORY "${dir}")
  add_dependencies(${name} ${name}_f2stencil)
  if(arg_REWRITE)
    set_target_properties(${name} PROPERTIES F2STENCIL_REWRITTEN_SOURCES "${rewritten}")
    set(${name}_REWRITTEN_SOURCES "${rewritten}" PARENT_SCOPE)
  endif()
endfunction()
