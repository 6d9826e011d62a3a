/* reduce.h — what the reduction-family files (reduce.c, scan.c, softmax.c,
 * sort.c) share: the "lines" geometry of an op along one dim and the typed
 * run loaders that turn a strided run of any dtype into doubles or int64s
 * (one switch per run, a tight loop inside). */
#ifndef TK_RUNTIME_OPS_REDUCE_H
#define TK_RUNTIME_OPS_REDUCE_H

#include <stdbool.h>
#include <stdint.h>

#include "internal.h"

/* True for the dtypes the reductions compute on as integers (every int and bool). */
static inline bool tkr_red_is_int(tk_dtype t)
{
    return !tk_dtype_is_float(t);
}

/* Loads n elements of dtype t, `stride` bytes apart from p, into dst as doubles
 * (floats and ints alike) or as int64s (ints and bool). */
void tkr_load_run_f(const char *p, int64_t stride, tk_dtype t, int64_t n, double *dst);
void tkr_load_run_i(const char *p, int64_t stride, tk_dtype t, int64_t n, int64_t *dst);

/* A tensor seen as lines along one dim: line l (0 <= l < nlines, row-major
 * over the other dims) starts at element offset tkr_lines_start(g, l) from the
 * tensor's first element and steps `step` elements len times. */
typedef struct {
    int64_t len, step, nlines;
    int nouter;                          /* the other dims, row-major */
    int64_t outer_shape[TK_MAX_DIMS];
    int64_t outer_strides[TK_MAX_DIMS];  /* elements */
} TkrLines;

void tkr_lines_init(TkrLines *g, const tk_tensor *t, int dim);
int64_t tkr_lines_start(const TkrLines *g, int64_t line);

#endif
