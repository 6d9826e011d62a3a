# suite.cmake — the build of a replayed numeric suite, shared by tests/cross
# and tests/stdlib: a generator (gen.c, built as tk_cross_gen or
# tk_stdlib_gen) writes the inputs and expected outputs of every case and the
# registry of the kernels; runner.c is built once per target with the objects
# `tkc -c --target=T` makes of the kernel files, and replays the cases.
#
#   tk_numeric_suite(PREFIX p GENERATOR gen_target KERNEL_DIR dir
#                    KERNELS files... MANIFESTS files... TARGETS targets...
#                    LABELS labels... [GEN_ARGS args...])
#
# makes, in the calling directory's binary dir:
#   p.dat, p_cases.c            the data file and the registry (target tk_p_data)
#   ctest p_numeric_T           for every T of TARGETS:
#     x86-64*                   the runner built natively (add_executable
#                               p_runner_T, so it gets the build's sanitizer
#                               flags), skipped (77) if /proc/cpuinfo lacks
#                               the target's features, or on a non-x86 host
#     aarch64-*                 the runner linked statically by
#                               aarch64-linux-gnu-gcc (T/p_runner), run under
#                               qemu-aarch64-static -cpu max (which has BF16);
#                               skipped (77) without the cross tools
# A test passes when the runner exits 0 and prints "p_numeric: N passed, 0 failed"
# with N ≥ 1.

set(TK_CROSS_SUITE_DIR ${CMAKE_CURRENT_LIST_DIR})

# /proc/cpuinfo flags a native x86-64 target needs (targets/target.c's features).
function(tk_x86_cpu_flags target outvar)
  set(avx512 "avx512f avx512bw avx512dq avx512vl avx2 fma")
  if(target STREQUAL "x86-64")
    set(f "sse2")
  elseif(target STREQUAL "x86-64-avx2")
    set(f "avx2 fma")
  elseif(target STREQUAL "x86-64-avx512")
    set(f "${avx512}")
  elseif(target STREQUAL "x86-64-avx512bf16")
    set(f "${avx512} avx512_bf16")
  elseif(target STREQUAL "x86-64-amx")
    set(f "${avx512} avx512_bf16 amx_tile amx_bf16")
  else()
    message(FATAL_ERROR "tk_x86_cpu_flags: unknown x86-64 target ${target}")
  endif()
  set(${outvar} "${f}" PARENT_SCOPE)
endfunction()

# tk_suite_objects(TARGET OUTDIR OUTVAR KERNELS...): `tkc -c --target=TARGET` for
# each kernel file. A file that does not compile fails the build with tkc's diagnostic.
function(tk_suite_objects target outdir outvar)
  file(MAKE_DIRECTORY ${outdir})
  set(objs)
  foreach(k ${ARGN})
    get_filename_component(name ${k} NAME_WE)
    add_custom_command(
      OUTPUT ${outdir}/${name}.o
      COMMAND $<TARGET_FILE:tkc> -c --target=${target} ${k} -o ${outdir}/${name}.o
      DEPENDS tkc ${k}
      COMMENT "tkc -c --target=${target} ${name}.tk"
      VERBATIM)
    list(APPEND objs ${outdir}/${name}.o)
  endforeach()
  set(${outvar} ${objs} PARENT_SCOPE)
endfunction()

function(tk_numeric_suite)
  cmake_parse_arguments(S "" "PREFIX;GENERATOR;KERNEL_DIR" "KERNELS;MANIFESTS;TARGETS;GEN_ARGS;LABELS" ${ARGN})
  if(S_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tk_numeric_suite: unknown arguments ${S_UNPARSED_ARGUMENTS}")
  endif()
  set(p ${S_PREFIX})
  set(bin ${CMAKE_CURRENT_BINARY_DIR})
  set(data ${bin}/${p}.dat)
  set(registry ${bin}/${p}_cases.c)
  set(expect "^${p}_numeric: [1-9][0-9]* passed, 0 failed$")
  set(runner_sources ${TK_CROSS_SUITE_DIR}/runner.c ${registry} ${CMAKE_SOURCE_DIR}/targets/cpu/launch.c)
  set(runner_defs "TK_CROSS_SUITE=\"${p}_numeric\"")

  set(manifest_args)
  foreach(m ${S_MANIFESTS})
    list(APPEND manifest_args --manifest ${m})
  endforeach()
  add_custom_command(
    OUTPUT ${data} ${registry}
    COMMAND ${S_GENERATOR} ${S_GEN_ARGS} ${manifest_args} --kernels ${S_KERNEL_DIR} --data ${data} --registry ${registry}
    DEPENDS ${S_GENERATOR} ${S_MANIFESTS} ${S_KERNELS}
    COMMENT "${S_GENERATOR}: inputs and expected results of the ${p} cases"
    VERBATIM)
  # The one target that drives the generation; everything using its outputs depends on it.
  add_custom_target(tk_${p}_data ALL DEPENDS ${data} ${registry})

  # the AArch64 cross tools, once
  set(why "")
  find_program(TK_AARCH64_CC aarch64-linux-gnu-gcc)
  find_program(TK_QEMU_AARCH64 qemu-aarch64-static)
  if(NOT TK_AARCH64_CC)
    set(why "aarch64-linux-gnu-gcc not found")
  elseif(NOT TK_QEMU_AARCH64)
    set(why "qemu-aarch64-static not found")
  else()
    # the cross gcc alone cannot link -static: it needs the arm64 libc
    execute_process(COMMAND ${TK_AARCH64_CC} -print-file-name=libc.a OUTPUT_VARIABLE libc OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT IS_ABSOLUTE "${libc}" OR NOT EXISTS "${libc}")
      set(why "the aarch64 static libc (libc.a) is missing")
    endif()
  endif()
  set(aarch64_packages "gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static")
  set(x86_host FALSE)
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
    set(x86_host TRUE)
  endif()

  foreach(t ${S_TARGETS})
    set(test ${p}_numeric_${t})
    if(t MATCHES "^aarch64")
      if(NOT why STREQUAL "")
        add_test(NAME ${test} COMMAND sh -c "echo 'skipped: ${why}; install ${aarch64_packages} and reconfigure'; exit 77")
        set_tests_properties(${test} PROPERTIES SKIP_RETURN_CODE 77 LABELS "${S_LABELS}")
        continue()
      endif()
      set(flags -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -O2 -pthread -static)
      if(TK_WERROR)
        list(APPEND flags -Werror)
      endif()
      set(dir ${bin}/${t})
      tk_suite_objects(${t} ${dir} objs ${S_KERNELS})
      add_custom_command(
        OUTPUT ${dir}/${p}_runner
        COMMAND ${TK_AARCH64_CC} ${flags} "-DTK_CROSS_TARGET=\"${t}\"" "-D${runner_defs}" -I${CMAKE_SOURCE_DIR}/include
                -I${CMAKE_SOURCE_DIR}/targets/cpu ${runner_sources} ${objs} -lm -o ${dir}/${p}_runner
        DEPENDS ${objs} ${runner_sources} ${CMAKE_SOURCE_DIR}/targets/cpu/launch.h ${CMAKE_SOURCE_DIR}/include/tk/rt.h
        COMMENT "aarch64-linux-gnu-gcc -static: the ${p} runner for ${t}"
        VERBATIM)
      add_custom_target(${test}_prog ALL DEPENDS ${dir}/${p}_runner)
      add_dependencies(${test}_prog tk_${p}_data)
      add_test(NAME ${test}
               COMMAND bash ${CMAKE_SOURCE_DIR}/tests/targets/run_expect.sh --expect "${expect}"
                       -- ${TK_QEMU_AARCH64} -cpu max ${dir}/${p}_runner ${data})
      set_tests_properties(${test} PROPERTIES LABELS "${S_LABELS}" TIMEOUT 600)
    elseif(t MATCHES "^x86-64")
      if(NOT x86_host)
        add_test(NAME ${test}
                 COMMAND sh -c "echo 'skipped: runs x86-64 code natively; this build machine is ${CMAKE_SYSTEM_PROCESSOR}'; exit 77")
        set_tests_properties(${test} PROPERTIES SKIP_RETURN_CODE 77 LABELS "${S_LABELS}")
        continue()
      endif()
      tk_x86_cpu_flags(${t} cpu_flags)
      tk_suite_objects(${t} ${bin}/${t} objs ${S_KERNELS})
      add_executable(${p}_runner_${t} ${runner_sources} ${objs})
      add_dependencies(${p}_runner_${t} tk_${p}_data)
      target_include_directories(${p}_runner_${t} PRIVATE ${CMAKE_SOURCE_DIR}/include ${CMAKE_SOURCE_DIR}/targets/cpu)
      target_compile_definitions(${p}_runner_${t} PRIVATE "TK_CROSS_TARGET=\"${t}\"" "${runner_defs}")
      find_package(Threads REQUIRED)
      target_link_libraries(${p}_runner_${t} PRIVATE Threads::Threads m)
      add_test(NAME ${test}
               COMMAND bash ${CMAKE_SOURCE_DIR}/tests/targets/run_expect.sh --cpu-flags "${cpu_flags}" --expect "${expect}"
                       -- $<TARGET_FILE:${p}_runner_${t}> ${data})
      set_tests_properties(${test} PROPERTIES SKIP_RETURN_CODE 77 LABELS "${S_LABELS}" TIMEOUT 300)
    else()
      message(FATAL_ERROR "tk_numeric_suite: no way to run target ${t} (x86-64* natively, aarch64* under qemu)")
    endif()
  endforeach()
endfunction()
