/* compiler_prebuilt.h — internal to libtk: programs whose kernels take their
 * code from objects linked into the library (the stdlib compiled ahead of
 * time, runtime/core/stdlib_aot.h) instead of LLVM and the JIT. The front
 * end still parses and checks the source: it gives the kernels' parameters,
 * sizes and warps (milliseconds), the code finder gives the entry points. */
#ifndef TK_RUNTIME_COMPILER_PREBUILT_H
#define TK_RUNTIME_COMPILER_PREBUILT_H

#include <stdbool.h>

#include "tk/compiler.h"
#include "tk/rt.h"

/* 0 and the entry points of the kernel whose symbol is `symbol` (tkc -c's
 * NAME of NAME__grid: "gemm_f32", "gemm_f32__64_64_64"), or -1. */
typedef int (*tkr_code_finder)(void *finder_ctx, const char *symbol, tk_grid_fn *grid, tk_block_fn *block);

typedef struct {
    const char *target;     /* the CPU target the code was compiled for (kept; also the JIT's, for what is missing) */
    tkr_code_finder find;
    void *finder_ctx;       /* kept as long as the program */
    bool jit_fallback;      /* a kernel the finder lacks: JIT it (true) or fail with TK_ERR_NOT_FOUND */
} tkr_prebuilt_code;

/* tk_compile_source with the code from `code` (copied); instances asked for
 * later (tk_program_kernel) look there too. */
tk_status tkr_compile_prebuilt(const char *name, const char *text, size_t len, const tkr_prebuilt_code *code, tk_program **out,
                               char **diagnostics);

/* How many times any program of this process went to LLVM (tk_cpu_jit: code
 * generation, or an object from the disk cache). */
unsigned long tkr_compiler_jit_count(void);

#endif
