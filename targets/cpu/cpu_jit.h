/* cpu_jit.h — host code generation: TIR → LLVM IR → machine code in this
 * process through ORC LLJIT, optimised at O3 for the host CPU's features. */
#ifndef TK_TARGETS_CPU_JIT_H
#define TK_TARGETS_CPU_JIT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tir.h"

typedef void (*TkGridFn)(void **args, const int64_t *sizes, int64_t grid[3]);
typedef void (*TkBlockFn)(void **args, const int64_t *sizes, int32_t bx, int32_t by, int32_t bz);

typedef struct TkCpuModule TkCpuModule;

typedef struct {
    int opt_level;        /* 0..3 */
    FILE *dump_llvm;      /* if set, the optimised module is printed here */
    double *compile_ms;   /* if set, receives the wall time of LLVM */
} TkCpuJitOptions;

/* Compiles every kernel of m. Returns 0, or -1 with a message in err. */
int tk_cpu_jit(const TirModule *m, const TkCpuJitOptions *opts, TkCpuModule **out, char *err, size_t errlen);
int tk_cpu_lookup(TkCpuModule *mod, const char *kernel, TkGridFn *grid, TkBlockFn *block, char *err, size_t errlen);
void tk_cpu_module_free(TkCpuModule *mod);

/* Prints the LLVM IR of m (unoptimised unless opt_level > 0) for --emit=llvm. */
int tk_cpu_print_llvm(const TirModule *m, int opt_level, FILE *out, char *err, size_t errlen);

#endif
