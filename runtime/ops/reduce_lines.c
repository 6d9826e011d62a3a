/* reduce_lines.c — what the whole reduction family (reduce, scan, softmax,
 * sort) shares, declared in reduce.h: the typed run loaders that turn a
 * strided run of any dtype into doubles or int64s, and the "lines" geometry
 * of an op along one dim. */
#include "reduce.h"
#include "tk/dtype.h"

/* ------------------------------------------------------------ run loaders */

void tkr_load_run_f(const char *p, int64_t s, tk_dtype t, int64_t n, double *d)
{
    switch (t) {
    case TK_DTYPE_F32: for (int64_t i = 0; i < n; i++) d[i] = *(const float *)(p + i * s); return;
    case TK_DTYPE_F64: for (int64_t i = 0; i < n; i++) d[i] = *(const double *)(p + i * s); return;
    case TK_DTYPE_F16: for (int64_t i = 0; i < n; i++) d[i] = tk_f16_to_f32(*(const uint16_t *)(p + i * s)); return;
    case TK_DTYPE_BF16: for (int64_t i = 0; i < n; i++) d[i] = tk_bf16_to_f32(*(const uint16_t *)(p + i * s)); return;
    case TK_DTYPE_I32: for (int64_t i = 0; i < n; i++) d[i] = *(const int32_t *)(p + i * s); return;
    case TK_DTYPE_I64: for (int64_t i = 0; i < n; i++) d[i] = (double)*(const int64_t *)(p + i * s); return;
    default: for (int64_t i = 0; i < n; i++) d[i] = tkr_load_f(p + i * s, t); return;
    }
}

void tkr_load_run_i(const char *p, int64_t s, tk_dtype t, int64_t n, int64_t *d)
{
    switch (t) {
    case TK_DTYPE_I32: for (int64_t i = 0; i < n; i++) d[i] = *(const int32_t *)(p + i * s); return;
    case TK_DTYPE_I64: for (int64_t i = 0; i < n; i++) d[i] = *(const int64_t *)(p + i * s); return;
    case TK_DTYPE_BOOL: for (int64_t i = 0; i < n; i++) d[i] = *(const uint8_t *)(p + i * s) != 0; return;
    case TK_DTYPE_U8: for (int64_t i = 0; i < n; i++) d[i] = *(const uint8_t *)(p + i * s); return;
    case TK_DTYPE_I8: for (int64_t i = 0; i < n; i++) d[i] = *(const int8_t *)(p + i * s); return;
    case TK_DTYPE_I16: for (int64_t i = 0; i < n; i++) d[i] = *(const int16_t *)(p + i * s); return;
    default: for (int64_t i = 0; i < n; i++) d[i] = tkr_load_i(p + i * s, t); return;
    }
}

/* ------------------------------------------------------------ lines (shared with scan, softmax, sort) */

void tkr_lines_init(TkrLines *g, const tk_tensor *t, int dim)
{
    g->len = t->ndim ? t->shape[dim] : 1;
    g->step = t->ndim ? t->strides[dim] : 0;
    g->nouter = 0;
    g->nlines = 1;
    for (int d = 0; d < t->ndim; d++) {
        if (d == dim) continue;
        g->outer_shape[g->nouter] = t->shape[d];
        g->outer_strides[g->nouter++] = t->strides[d];
        g->nlines *= t->shape[d];
    }
}

int64_t tkr_lines_start(const TkrLines *g, int64_t line)
{
    int64_t off = 0;
    for (int d = g->nouter - 1; d >= 0; d--) {
        off += (line % g->outer_shape[d]) * g->outer_strides[d];
        line /= g->outer_shape[d];
    }
    return off;
}
