/* tk/rt.h — the small run-time a compiled kernel needs and nothing more: the
 * calling convention of the functions tkc generates, and a launcher that runs
 * a grid of blocks over a thread pool. Link with -ltkrt -lpthread (no LLVM).
 *
 * Calling convention. For each kernel NAME, an object from `tkc -c` defines
 *   void NAME__grid(void **args, const int64_t *sizes, int64_t grid[4]);
 *   void NAME__block(void **args, const int64_t *sizes, int32_t bx, int32_t by, int32_t bz);
 * args[p] is the data pointer of tensor parameter p (contiguous, row-major,
 * of its element type: f32 = float, bf16 and f16 = 16-bit patterns) or a
 * pointer to the value of scalar parameter p (bool = one byte). sizes[v] is
 * the value of the kernel's v-th size variable, in order of first appearance
 * in the parameter list. NAME__grid writes the block counts to grid[0..2] and
 * the bytes of stack one block needs to grid[3]; a launcher may run blocks on
 * its own thread when they fit there (a grid function that leaves grid[3]
 * alone gets worker threads only). The generated header wraps both in one
 * typed function per kernel. */
#ifndef TK_RT_H
#define TK_RT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint16_t tk_bf16;   /* bfloat16 bit pattern */
typedef uint16_t tk_f16;    /* IEEE half bit pattern */

typedef void (*tk_grid_fn)(void **args, const int64_t *sizes, int64_t grid[4]);
typedef void (*tk_block_fn)(void **args, const int64_t *sizes, int32_t bx, int32_t by, int32_t bz);

/* Threads used when `threads` is 0: $TK_NUM_THREADS, else one per core.
 * After a launch, pool workers poll $TK_WORKER_SPIN_US µs (default 30; 0:
 * none) for the next one before they sleep. */
int tk_rt_threads(int threads);

/* Runs every block of the kernel's grid; returns 0, or -1 if the grid is too
 * large or a thread cannot be started (the message is in tk_rt_error()). */
int tk_rt_launch(tk_grid_fn grid, tk_block_fn block, void **args, const int64_t *sizes, int threads);

/* The message of the last failed launch on this thread ("" if none). */
const char *tk_rt_error(void);

#ifdef __cplusplus
}
#endif

#endif
