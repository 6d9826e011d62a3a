/* reduce.h — what the reduction-family files (reduce*.c, scan.c, softmax.c,
 * sort.c) share: the "lines" geometry of an op along one dim and the typed
 * run loaders that turn a strided run of any dtype into doubles or int64s
 * (one switch per run, a tight loop inside; both in reduce_lines.c), and the
 * vector loops of reduce_vec.c. The engine's own interface is
 * reduce_internal.h. */
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

/* The vectorised loops over a contiguous run of n f32 or bf16 elements at p
 * (reduce_vec.c): sums of x, x², |x| and (x - shift)², accumulated in f32
 * lanes inside fixed blocks whose partials are added in double (the same
 * bits on any thread count and any ISA clone), and the max or min of x or
 * |x| (n >= 1; NaN if any element is NaN). */
double tkr_vsum_f32(const void *p, int64_t n, float shift);
double tkr_vsum_bf16(const void *p, int64_t n, float shift);
double tkr_vsumsq_f32(const void *p, int64_t n, float shift);
double tkr_vsumsq_bf16(const void *p, int64_t n, float shift);
double tkr_vabssum_f32(const void *p, int64_t n, float shift);
double tkr_vabssum_bf16(const void *p, int64_t n, float shift);
double tkr_vsqdev_f32(const void *p, int64_t n, float shift);
double tkr_vsqdev_bf16(const void *p, int64_t n, float shift);
float tkr_vextreme_f32(const void *p, int64_t n, bool want_max);
float tkr_vextreme_bf16(const void *p, int64_t n, bool want_max);
float tkr_vabsextreme_f32(const void *p, int64_t n, bool want_max);
float tkr_vabsextreme_bf16(const void *p, int64_t n, bool want_max);
/* The rest of the reductions on the same runs: the product (in double lanes),
 * the sum of exp(x - shift) (logsumexp's second pass: f32 differences, the
 * vector exp, blocked sums), and the position of the first max or min (or
 * of the first NaN: NaN is the extreme), n >= 1, its value into *best. */
double tkr_vprod_f32(const void *p, int64_t n);
double tkr_vprod_bf16(const void *p, int64_t n);
double tkr_vsumexp_f32(const void *p, int64_t n, float shift);
double tkr_vsumexp_bf16(const void *p, int64_t n, float shift);
int64_t tkr_vargext_f32(const void *p, int64_t n, bool want_max, float *best);
int64_t tkr_vargext_bf16(const void *p, int64_t n, bool want_max, float *best);
/* all/any on n contiguous elements of es bytes (1, 2, 4 or 8): whether one
 * is zero (want_zero) or nonzero after masking with mask (floats mask off
 * the sign bit, so -0 counts as zero; NaN is nonzero). */
bool tkr_vfind(const void *p, int64_t n, int es, uint64_t mask, bool want_zero);

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
