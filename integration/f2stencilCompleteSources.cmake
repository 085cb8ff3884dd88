# Run by f2stencil_add_library() after `f2stencil --rewrite`, in script mode:
#   cmake -DDIR=<output directory> -P f2stencilCompleteSources.cmake FILE...
# f2stencil writes DIR/src/<name> only for the files that hold an annotated
# region; the others (a module the regions use, say) are copied there as they
# are, so that DIR/src holds every file given, and the project compiles the
# files of one folder whatever f2stencil found in each.
set(files)
set(after_script FALSE)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE ${last})
  if(after_script)
    list(APPEND files "${CMAKE_ARGV${i}}")
  elseif(CMAKE_ARGV${i} STREQUAL "-P")
    # The script's own path follows -P; the files come after it.
    math(EXPR script_index "${i} + 1")
  elseif(DEFINED script_index AND i EQUAL script_index)
    set(after_script TRUE)
  endif()
endforeach()
file(MAKE_DIRECTORY "${DIR}/src")
foreach(file IN LISTS files)
  get_filename_component(base "${file}" NAME)
  if(NOT EXISTS "${DIR}/src/${base}")
    file(COPY_FILE "${file}" "${DIR}/src/${base}")
  endif()
endforeach()
