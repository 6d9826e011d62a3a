# stdlib_aot_compile.cmake — one stdlib file for one CPU level, for libtk's
# ahead-of-time table (cmake/stdlib_aot.cmake). Run with cmake -P:
#   TKC, NM, OBJCOPY   the tools
#   LEVEL              a CPU target of `tkc --list-targets` (x86-64-avx2, ...)
#   SOURCE             the .tk file; INSTANCES a file of generic instances, one a line
#   OUT                the object to write; OUT.kernels gets its kernels' symbol names
#   CACHE, DIGEST      optional: a folder where build trees share the results, and
#                      the file holding the digest of the compiler's sources
# tkc -c names a kernel's entry points NAME__grid and NAME__block; here they
# become tkr_aot_<level>_<file>_NAME__grid/__block, so that the same kernel of
# every level and file links into one library, and every other symbol of the
# object is made local.
# The cache: the same compiler sources, LLVM, level, stdlib file and
# instances give the same object, whichever build tree (Debug, ASan) asks.
if(CACHE AND DIGEST)
  file(READ ${DIGEST} digest)
  file(SHA256 ${SOURCE} source_hash)
  file(SHA256 ${INSTANCES} instances_hash)
  string(SHA256 key "${digest} ${LEVEL} ${source_hash} ${instances_hash}")
  get_filename_component(stem ${SOURCE} NAME_WE)
  set(cached ${CACHE}/${LEVEL}-${stem}-${key})
  if(EXISTS ${cached}.o AND EXISTS ${cached}.kernels)
    file(COPY_FILE ${cached}.o ${OUT})
    file(COPY_FILE ${cached}.kernels ${OUT}.kernels)
    return()
  endif()
endif()

file(STRINGS ${INSTANCES} instances)
set(args)
foreach(i IN LISTS instances)
  list(APPEND args --instance ${i})
endforeach()
set(raw ${OUT}.raw.o)
execute_process(COMMAND ${TKC} -c --target=${LEVEL} ${SOURCE} ${args} -o ${raw}
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tkc -c --target=${LEVEL} ${SOURCE} failed (${rc}):\n${err}")
endif()
execute_process(COMMAND ${NM} --defined-only -g ${raw} OUTPUT_VARIABLE syms RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nm ${raw} failed")
endif()
get_filename_component(stem ${SOURCE} NAME_WE)
string(MAKE_C_IDENTIFIER "tkr_aot_${LEVEL}_${stem}_" prefix)
string(REPLACE "\n" ";" lines "${syms}")
set(redefine "")
set(keep "")
set(kernels "")
foreach(line IN LISTS lines)
  if(line MATCHES "^[0-9a-fA-F]+ T (.+)__grid$")
    set(k ${CMAKE_MATCH_1})
    if(NOT syms MATCHES " T ${k}__block\n")
      message(FATAL_ERROR "${raw}: ${k}__grid without ${k}__block")
    endif()
    string(APPEND redefine "${k}__grid ${prefix}${k}__grid\n${k}__block ${prefix}${k}__block\n")
    string(APPEND keep "${prefix}${k}__grid\n${prefix}${k}__block\n")
    string(APPEND kernels "${k}\n")
  endif()
endforeach()
file(WRITE ${OUT}.redefine "${redefine}")
file(WRITE ${OUT}.keep "${keep}")
execute_process(COMMAND ${OBJCOPY} --redefine-syms=${OUT}.redefine --keep-global-symbols=${OUT}.keep ${raw} ${OUT}
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "objcopy ${raw} failed: ${err}")
endif()
file(REMOVE ${raw} ${OUT}.raw.h)
file(WRITE ${OUT}.kernels "${kernels}")
if(cached)
  # written under a temporary name and renamed: another tree reading it sees all of it or nothing
  string(RANDOM LENGTH 8 tmp)
  file(MAKE_DIRECTORY ${CACHE})
  file(COPY_FILE ${OUT} ${cached}.o.${tmp})
  file(COPY_FILE ${OUT}.kernels ${cached}.kernels.${tmp})
  file(RENAME ${cached}.o.${tmp} ${cached}.o)
  file(RENAME ${cached}.kernels.${tmp} ${cached}.kernels)
  # Keep the 4 newest objects of this level and file (a few checkouts or
  # compiler versions side by side): every change of the compiler makes new ones.
  file(GLOB older ${CACHE}/${LEVEL}-${stem}-*.o)
  set(stamped)
  foreach(o IN LISTS older)
    file(TIMESTAMP ${o} t "%s")
    list(APPEND stamped "${t}|${o}")
  endforeach()
  list(SORT stamped COMPARE NATURAL ORDER DESCENDING)
  list(LENGTH stamped n)
  if(n GREATER 4)
    list(SUBLIST stamped 4 -1 stale)
    foreach(e IN LISTS stale)
      string(REGEX REPLACE "^[0-9]+[|]" "" o "${e}")
      string(REGEX REPLACE "[.]o$" "" base "${o}")
      file(REMOVE ${o} ${base}.kernels)
    endforeach()
  endif()
endif()
