/* stdlib_aot.h — the stdlib kernels compiled ahead of time into libtk
 * (cmake/stdlib_aot.cmake; docs/ARCHITECTURE.md, "The stdlib ahead of time").
 * The build compiles every stdlib file the ops use, for every CPU level of
 * this architecture, with the instances of runtime/core/stdlib_instances.txt;
 * a generated table maps (level, file, kernel symbol) to the entry points.
 * At run time one level is chosen, once, from the CPU's features: the best
 * one whose code runs here (targets/target.c, AMX only with the kernel's
 * permission). The kernels' metadata still comes from the front end. */
#ifndef TK_RUNTIME_CORE_STDLIB_AOT_H
#define TK_RUNTIME_CORE_STDLIB_AOT_H

#include <stddef.h>

#include "tk/rt.h"

typedef struct {
    unsigned level;       /* index into tkr_aot_levels */
    const char *file;     /* "gemm.tk" */
    const char *symbol;   /* the kernel's symbol: "gemm_f32", "gemm_f32__64_64_64" */
    tk_grid_fn grid;
    tk_block_fn block;
} TkrAotKernel;

/* generated (stdlib_aot_table.c) */
extern const char *const tkr_aot_levels[];   /* best first, NULL-terminated; empty with TK_AOT_STDLIB=OFF */
extern const TkrAotKernel tkr_aot_kernels[];
extern const size_t tkr_aot_nkernels;

/* TK_STDLIB_AOT: unset or 1 → the table, with the JIT for what it lacks;
 * strict → the table only (a missing kernel is an error: for the tests);
 * 0 → the JIT for the host, as before the table (for comparing, and for
 * work on the stdlib itself). */
typedef enum { TKR_AOT_OFF, TKR_AOT_ON, TKR_AOT_STRICT } TkrAotMode;
TkrAotMode tkr_aot_mode(void);

/* The level the table's code is taken from on this CPU, NULL if none of them
 * runs here (or the table is empty). Chosen once per process. */
const char *tkr_aot_level(void);

/* A code finder for tkr_compile_prebuilt: `file` is the stdlib file name.
 * 0 and the entry points of that kernel at tkr_aot_level(), or -1. */
int tkr_aot_find(void *file, const char *symbol, tk_grid_fn *grid, tk_block_fn *block);
/* The same at level tkr_aot_levels[level], whether or not it is this CPU's
 * choice (the tests run every level this CPU can). */
int tkr_aot_find_at(unsigned level, const char *file, const char *symbol, tk_grid_fn *grid, tk_block_fn *block);

#endif
