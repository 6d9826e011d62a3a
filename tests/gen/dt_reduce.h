/* dt_reduce.h — shrinking a failing program to a small reproducer.
 *
 * A candidate is kept when it still fails the same way (the same outcome,
 * see dt_run.h) on the failing configuration; a candidate the checker
 * rejects, or whose bounds become unreliable, is dropped. Passes, repeated
 * until none makes progress:
 *   sizes      each size to the smallest of 1, 2, 3, 5, 8, 16, 17, 33, half
 *   tiles      each tile constant (TR, TC, TK, W) to a smaller value
 *   blocks     a statement with its braces ({ ... }), or an if/else's braces alone
 *   lines      runs of lines, halving the run length down to one line
 *   helpers    a whole helper definition
 * Every candidate runs in a child process, so a crashing or hanging one is fine. */
#ifndef TK_TESTS_GEN_DT_REDUCE_H
#define TK_TESTS_GEN_DT_REDUCE_H

#include "dt_run.h"

typedef struct {
    const char *self;         /* this executable, for the children */
    const char *work_dir;     /* scratch files */
    const char *kernel, *scalars;
    uint64_t input_seed;
    const char *config;       /* the failing configuration */
    DtOutcome outcome;        /* ... and how it failed */
    unsigned timeout_s;
    unsigned max_trials;      /* 0: 400 */
    bool verbose;
} DtReduceSpec;

/* Reduces *text (malloc'd; replaced) and sizes (a buffer of sizes_len) in place.
 * Returns the number of candidates tried, or -1 when memory runs out. */
int dt_reduce(const DtReduceSpec *s, char **text, char *sizes, size_t sizes_len);

#endif
