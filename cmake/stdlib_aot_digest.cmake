# stdlib_aot_digest.cmake — writes OUT: one SHA-256 over the sources of the
# compiler (the files listed in LIST, one a line, named relative to ROOT)
# and EXTRA (the LLVM version). Two build trees of the same sources (Debug, ASan) share their
# ahead-of-time stdlib objects through TK_AOT_CACHE_DIR under this digest
# (cmake/stdlib_aot.cmake). Rewritten only when it changes. Run with cmake -P.
file(STRINGS ${LIST} files)
set(all "${EXTRA}\n")
foreach(f IN LISTS files)
  file(SHA256 ${f} h)
  file(RELATIVE_PATH name ${ROOT} ${f})
  string(APPEND all "${name} ${h}\n")
endforeach()
string(SHA256 digest "${all}")
set(old "")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT old STREQUAL digest)
  file(WRITE ${OUT} "${digest}")
endif()
