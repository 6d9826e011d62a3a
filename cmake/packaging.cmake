# packaging.cmake — what `cmake --install` puts under the prefix, and the two
# ways a user's build finds it (docs/ARCHITECTURE.md, "Packaging"):
#
#   bin/tkc
#   lib/libtk.so -> libtk.so.0   the compiler at run time (tk/compiler.h) and
#                                the tensor runtime, one shared library (LLVM
#                                stays a dependency of it, not of the user)
#   lib/libtk.a                  the same as one static archive
#   lib/libtkrt.a                the launcher AOT objects from `tkc -c` need (no LLVM)
#   include/tk/*.h
#   lib/pkgconfig/tk.pc, tkrt.pc
#   lib/cmake/TileKit/           find_package(TileKit): TileKit::tk, TileKit::tk_static,
#                                TileKit::tkrt, TileKit::tkc
#
# The component libraries (tklang, tklower, ...) are internal: libtk.so and
# libtk.a contain all of them, so a user links one library.
include(GNUInstallDirs)
find_package(Threads REQUIRED)

# Every TileKit archive that goes into libtk (whole: the public API lives in
# several of them, and a user may call any of it).
set(TK_COMPONENTS tk tkcpu tkamdgpu tknvptx tkemu tkgpu tkemit tklower tklang tkintrin tkrt)
if(TARGET tktensor)
  list(APPEND TK_COMPONENTS tktensor tknpy)
endif()

add_library(tk_shared SHARED ${CMAKE_SOURCE_DIR}/cmake/empty.c)
# The archives as files between --whole-archive flags: CMake's WHOLE_ARCHIVE
# feature refuses a library that is also a (transitive) plain dependency.
set(whole)
foreach(c IN LISTS TK_COMPONENTS)
  list(APPEND whole $<TARGET_FILE:${c}>)
endforeach()
target_link_libraries(tk_shared PRIVATE -Wl,--whole-archive ${whole} -Wl,--no-whole-archive)
add_dependencies(tk_shared ${TK_COMPONENTS})
target_link_libraries(tk_shared PRIVATE tk_llvm m Threads::Threads)
target_include_directories(tk_shared INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
set_target_properties(tk_shared PROPERTIES OUTPUT_NAME tk VERSION ${PROJECT_VERSION} SOVERSION 0
                      INSTALL_RPATH "${LLVM_LIBRARY_DIRS}" EXPORT_NAME tk)

# libtk.a: the component archives merged with ar's MRI script (GNU ar).
set(TK_STATIC ${CMAKE_BINARY_DIR}/libtk-merged.a)
set(mri "create ${TK_STATIC}\n")
foreach(c IN LISTS TK_COMPONENTS)
  string(APPEND mri "addlib $<TARGET_FILE:${c}>\n")
endforeach()
string(APPEND mri "save\nend\n")
file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/libtk-merge.mri CONTENT "${mri}")
set(deps)
foreach(c IN LISTS TK_COMPONENTS)
  list(APPEND deps ${c})
endforeach()
add_custom_command(OUTPUT ${TK_STATIC}
  COMMAND ${CMAKE_COMMAND} -E rm -f ${TK_STATIC}
  COMMAND ${CMAKE_AR} -M < ${CMAKE_BINARY_DIR}/libtk-merge.mri
  DEPENDS ${deps} ${CMAKE_BINARY_DIR}/libtk-merge.mri
  COMMENT "merging the TileKit archives into libtk.a")
add_custom_target(tk_static_merged ALL DEPENDS ${TK_STATIC})

set_target_properties(tkc PROPERTIES INSTALL_RPATH "${LLVM_LIBRARY_DIRS}")
install(TARGETS tkc tkrun RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS tk_shared EXPORT TileKitTargets LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${TK_STATIC} DESTINATION ${CMAKE_INSTALL_LIBDIR} RENAME libtk.a)
install(FILES $<TARGET_FILE:tkrt> DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/tk DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
install(EXPORT TileKitTargets NAMESPACE TileKit:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/TileKit)

include(CMakePackageConfigHelpers)
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/TileKitConfig.cmake.in
  ${CMAKE_BINARY_DIR}/TileKitConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/TileKit)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/TileKitConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/TileKitConfig.cmake ${CMAKE_BINARY_DIR}/TileKitConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/TileKit)

# pkg-config: tk (the shared library; --static adds what libtk.a needs) and
# tkrt (AOT objects only).
set(TK_LLVM_LIBDIR ${LLVM_LIBRARY_DIRS})
configure_file(${CMAKE_SOURCE_DIR}/cmake/tk.pc.in ${CMAKE_BINARY_DIR}/tk.pc @ONLY)
configure_file(${CMAKE_SOURCE_DIR}/cmake/tkrt.pc.in ${CMAKE_BINARY_DIR}/tkrt.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/tk.pc ${CMAKE_BINARY_DIR}/tkrt.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
