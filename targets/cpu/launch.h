/* launch.h — running a kernel's grid on the host (the implementation of
 * tk/rt.h, also used by the JIT): blocks are spread over threads
 * (TK_NUM_THREADS, default one per core), the caller among them when a
 * block fits in its stack. Every block writes its own outputs
 * and reduces in a fixed order, so results do not depend on the thread count. */
#ifndef TK_TARGETS_CPU_LAUNCH_H
#define TK_TARGETS_CPU_LAUNCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tk/rt.h"

typedef tk_grid_fn TkGridFn;
typedef tk_block_fn TkBlockFn;

/* Threads to use: the argument if > 0, else $TK_NUM_THREADS, else the core count. */
int tk_cpu_threads(int requested);

/* Is there room for stack_bytes (what NAME__grid reports, > 0) below the
 * calling thread's current stack position? Then blocks may run on it. */
bool tk_cpu_caller_fits(int64_t stack_bytes);

/* Asks Linux for the AMX tile state (arch_prctl ARCH_REQ_XCOMP_PERM,
 * XTILEDATA; Linux 5.16+), once per process: a tile instruction before that
 * raises SIGILL. True when granted; false on other systems and CPUs. Every
 * launch asks first, so kernels compiled for AMX run from the JIT, tkc run
 * and AOT objects alike; the host target drops AMX when it is refused. */
bool tk_cpu_amx_permit(void);

/* Runs every block of the grid, on the calling thread too when they fit in its
 * stack. Returns 0, or -1 with a message. */
/* tk_rt_error()'s buffer, for the other calls of tk/rt.h (rt_cuda.c) to fill. */
char *tk_rt_error_buffer(size_t *len);

int tk_cpu_launch(TkGridFn grid, TkBlockFn block, void **args, const int64_t *sizes, int nthreads, char *err, size_t errlen);

#endif
