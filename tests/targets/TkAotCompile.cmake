# tk_aot_compile(TARGET OUTDIR OUTVAR): `tkc -c --target=TARGET` for each
# example into OUTDIR (object and generated header side by side); OUTVAR gets
# the objects. Call it from the directory whose target consumes the objects.
set(TK_AOT_EXAMPLES gemm softmax attention)
function(tk_aot_compile target outdir outvar)
  file(MAKE_DIRECTORY ${outdir})
  set(objs)
  foreach(k ${TK_AOT_EXAMPLES})
    add_custom_command(
      OUTPUT ${outdir}/${k}.o ${outdir}/${k}.h
      COMMAND $<TARGET_FILE:tkc> -c --target=${target} ${CMAKE_SOURCE_DIR}/examples/${k}.tk -o ${outdir}/${k}.o
      DEPENDS tkc ${CMAKE_SOURCE_DIR}/examples/${k}.tk
      COMMENT "tkc -c --target=${target} examples/${k}.tk")
    list(APPEND objs ${outdir}/${k}.o)
  endforeach()
  set(${outvar} ${objs} PARENT_SCOPE)
endfunction()

# What every AOT program must print (test_aot.c), with at least one check run.
set(TK_AOT_EXPECT "^aot_examples: [1-9][0-9]* passed, 0 failed$")
