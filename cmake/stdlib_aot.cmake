# stdlib_aot.cmake — the stdlib kernels compiled ahead of time into libtk
# (docs/ARCHITECTURE.md, "The stdlib ahead of time"). For every CPU level of
# this architecture and every file named in runtime/core/stdlib_instances.txt,
# the tkc of this tree compiles the file (all its plain kernels and default
# instances, plus the instances listed) into an object whose entry points carry
# a level-and-file prefix; a generated C table maps (level, file, kernel) to
# them. Sets TK_AOT_SOURCES: the objects and the table, for tktensor.
#
# TK_AOT_STDLIB=OFF builds an empty table: every stdlib kernel then comes from
# the JIT as before (for work on the compiler itself, where each change would
# recompile the objects).
# The fuzz build (scripts/fuzz.sh) fuzzes the file readers: it has no use for them.
if(TK_FUZZ)
  option(TK_AOT_STDLIB "Compile the stdlib kernels ahead of time into libtk, for every CPU level" OFF)
else()
  option(TK_AOT_STDLIB "Compile the stdlib kernels ahead of time into libtk, for every CPU level" ON)
endif()
# The objects take minutes of LLVM: build trees of one checkout (CI's Debug and
# ASan builds) share them here, under a digest of the compiler's sources. Empty: no sharing.
if(DEFINED ENV{XDG_CACHE_HOME} AND NOT "$ENV{XDG_CACHE_HOME}" STREQUAL "")
  set(tk_aot_cache_default "$ENV{XDG_CACHE_HOME}/tilekit/stdlib-aot")
elseif(DEFINED ENV{HOME})
  set(tk_aot_cache_default "$ENV{HOME}/.cache/tilekit/stdlib-aot")
else()
  set(tk_aot_cache_default "")
endif()
set(TK_AOT_CACHE_DIR "${tk_aot_cache_default}" CACHE PATH "Where build trees share the ahead-of-time stdlib objects (empty: nowhere)")

set(TK_AOT_LIST ${CMAKE_SOURCE_DIR}/runtime/core/stdlib_instances.txt)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${TK_AOT_LIST})
set(TK_AOT_DIR ${TK_GEN}/stdlib_aot)

# The levels, best first: the order the runtime tries them in (targets/target.c's table).
if(NOT TK_AOT_STDLIB)
  set(TK_AOT_LEVELS)
elseif(CMAKE_CROSSCOMPILING)
  # the tkc of this tree runs on the target, not here (libtk is not cross-built
  # today: tests/cross links tkc's objects with launch.c alone)
  message(STATUS "stdlib ahead of time: off when cross-compiling")
  set(TK_AOT_LEVELS)
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  set(TK_AOT_LEVELS x86-64-amx x86-64-avx512bf16 x86-64-avx512 x86-64-avx2 x86-64)
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
  set(TK_AOT_LEVELS aarch64-neon-bf16 aarch64-neon)
else()
  set(TK_AOT_LEVELS)
endif()

# The list: "FILE" or "FILE INSTANCE" per line, # comments.
file(STRINGS ${TK_AOT_LIST} lines ENCODING UTF-8)
set(TK_AOT_FILES)
foreach(line IN LISTS lines)
  string(STRIP "${line}" line)
  if(line STREQUAL "" OR line MATCHES "^#")
    continue()
  endif()
  if(NOT line MATCHES "^([A-Za-z0-9_]+[.]tk)( +([^ ]+))?$")
    message(FATAL_ERROR "${TK_AOT_LIST}: cannot read the line '${line}' (FILE or FILE INSTANCE)")
  endif()
  set(f ${CMAKE_MATCH_1})
  if(NOT EXISTS ${CMAKE_SOURCE_DIR}/stdlib-kernels/${f})
    message(FATAL_ERROR "${TK_AOT_LIST}: no stdlib file ${f}")
  endif()
  string(MAKE_C_IDENTIFIER ${f} fid)
  if(NOT f IN_LIST TK_AOT_FILES)
    list(APPEND TK_AOT_FILES ${f})
    set(insts_${fid} "")
  endif()
  if(CMAKE_MATCH_3)
    string(APPEND insts_${fid} "${CMAKE_MATCH_3}\n")
  endif()
endforeach()

# The digest of everything that decides what tkc -c writes: the compiler's
# sources, the public headers it includes, the build scripts.
file(GLOB_RECURSE tk_compiler_sources CONFIGURE_DEPENDS
  ${CMAKE_SOURCE_DIR}/lang/* ${CMAKE_SOURCE_DIR}/lower/* ${CMAKE_SOURCE_DIR}/targets/*
  ${CMAKE_SOURCE_DIR}/intrinsics/* ${CMAKE_SOURCE_DIR}/tools/tkc/* ${CMAKE_SOURCE_DIR}/include/*
  ${CMAKE_SOURCE_DIR}/cmake/*)
list(APPEND tk_compiler_sources ${CMAKE_SOURCE_DIR}/CMakeLists.txt)
string(REPLACE ";" "\n" tk_compiler_list "${tk_compiler_sources}")
file(GENERATE OUTPUT ${TK_AOT_DIR}/compiler_sources.txt CONTENT "${tk_compiler_list}\n")
set(TK_AOT_DIGEST ${TK_AOT_DIR}/compiler.digest)
add_custom_command(OUTPUT ${TK_AOT_DIGEST}
  COMMAND ${CMAKE_COMMAND} -DLIST=${TK_AOT_DIR}/compiler_sources.txt -DROOT=${CMAKE_SOURCE_DIR} -DOUT=${TK_AOT_DIGEST}
          "-DEXTRA=LLVM ${LLVM_PACKAGE_VERSION}" -P ${CMAKE_SOURCE_DIR}/cmake/stdlib_aot_digest.cmake
  DEPENDS ${tk_compiler_sources} ${TK_AOT_DIR}/compiler_sources.txt ${CMAKE_SOURCE_DIR}/cmake/stdlib_aot_digest.cmake
  COMMENT "stdlib ahead of time: the digest of the compiler's sources" VERBATIM)

find_program(TK_NM NAMES ${CMAKE_NM} nm REQUIRED)
find_program(TK_OBJCOPY NAMES ${CMAKE_OBJCOPY} objcopy REQUIRED)
set(TK_AOT_SOURCES)
set(objects)
foreach(f IN LISTS TK_AOT_FILES)
  string(MAKE_C_IDENTIFIER ${f} fid)
  get_filename_component(stem ${f} NAME_WE)
  set(instances ${TK_AOT_DIR}/${stem}.instances)
  file(GENERATE OUTPUT ${instances} CONTENT "${insts_${fid}}")   # rewritten only when it changes
  foreach(level IN LISTS TK_AOT_LEVELS)
    set(obj ${TK_AOT_DIR}/${level}/${stem}.o)
    add_custom_command(OUTPUT ${obj} ${obj}.kernels
      COMMAND ${CMAKE_COMMAND} -E make_directory ${TK_AOT_DIR}/${level}
      COMMAND ${CMAKE_COMMAND} -DTKC=$<TARGET_FILE:tkc> -DNM=${TK_NM} -DOBJCOPY=${TK_OBJCOPY} -DLEVEL=${level}
              -DSOURCE=${CMAKE_SOURCE_DIR}/stdlib-kernels/${f} -DINSTANCES=${instances} -DOUT=${obj}
              -DCACHE=${TK_AOT_CACHE_DIR} -DDIGEST=${TK_AOT_DIGEST} -P ${CMAKE_SOURCE_DIR}/cmake/stdlib_aot_compile.cmake
      DEPENDS tkc ${CMAKE_SOURCE_DIR}/stdlib-kernels/${f} ${instances} ${CMAKE_SOURCE_DIR}/cmake/stdlib_aot_compile.cmake
              ${TK_AOT_DIGEST}
      COMMENT "stdlib ahead of time: ${f} for ${level}" VERBATIM)
    list(APPEND objects ${obj})
  endforeach()
endforeach()

set(table ${TK_AOT_DIR}/stdlib_aot_table.c)
if(NOT TK_AOT_LEVELS)
  set(TK_AOT_FILES)
endif()
string(REPLACE ";" "," levels_arg "${TK_AOT_LEVELS}")
string(REPLACE ";" "," files_arg "${TK_AOT_FILES}")
set(kernel_lists)
foreach(o IN LISTS objects)
  list(APPEND kernel_lists ${o}.kernels)
endforeach()
add_custom_command(OUTPUT ${table}
  COMMAND ${CMAKE_COMMAND} "-DLEVELS=${levels_arg}" "-DFILES=${files_arg}" -DDIR=${TK_AOT_DIR} -DOUT=${table}
          -P ${CMAKE_SOURCE_DIR}/cmake/stdlib_aot_table.cmake
  DEPENDS ${kernel_lists} ${CMAKE_SOURCE_DIR}/cmake/stdlib_aot_table.cmake
  COMMENT "stdlib ahead of time: the table (${TK_AOT_LEVELS})" VERBATIM)
set(TK_AOT_SOURCES ${objects} ${table})
set(TK_AOT_LEVELS_BUILT "${TK_AOT_LEVELS}" CACHE INTERNAL "the CPU levels of the stdlib in libtk (for the tests)")
