# Run by f2stencil_add_library() with REWRITE, in script mode, around
# `f2stencil --rewrite -o DIR`:
#   cmake -DDIR=<output directory> -DSTEP=before -P f2stencilRewrittenSources.cmake
#   cmake -DDIR=<output directory> -DSTEP=after -P f2stencilRewrittenSources.cmake FILE...
#
# before: the build tool creates the folder of every output before running
# the command, DIR/src included; f2stencil replaces only an empty DIR or one
# it wrote, so an empty DIR/src in a DIR without f2stencil's marker goes.
#
# after: f2stencil writes DIR/src/<name> only for the files that hold an
# annotated region; the others (a module the regions use, say) are copied
# there as they are, so that DIR/src holds every file given and the project
# compiles the files of one folder whatever f2stencil found in each.
if(STEP STREQUAL "before")
  if(NOT EXISTS "${DIR}/.f2stencil" AND IS_DIRECTORY "${DIR}/src")
    file(GLOB entries "${DIR}/src/*")
    if(NOT entries)
      file(REMOVE_RECURSE "${DIR}/src")
    endif()
  endif()
  return()
endif()

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
