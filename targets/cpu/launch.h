/* launch.h — running a compiled kernel's grid on the host: blocks are
 * spread over a pool of threads (TK_NUM_THREADS, default one per core).
 * Every block writes its own outputs and reduces in a fixed order, so the
 * result does not depend on the number of threads. */
#ifndef TK_TARGETS_CPU_LAUNCH_H
#define TK_TARGETS_CPU_LAUNCH_H

#include <stddef.h>
#include <stdint.h>

#include "cpu_jit.h"

/* Threads to use: the argument if > 0, else $TK_NUM_THREADS, else the core count. */
int tk_cpu_threads(int requested);

/* Runs every block of the grid. Returns 0, or -1 with a message. */
int tk_cpu_launch(TkGridFn grid, TkBlockFn block, void **args, const int64_t *sizes, int nthreads, char *err, size_t errlen);

#endif
