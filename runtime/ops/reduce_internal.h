/* reduce_internal.h — the reduction engine's private interface, shared by
 * reduce.c (the public ops), reduce_engine.c (geometry, runs, pieces),
 * reduce_kernels.c (what each kernel accumulates) and reduce_columns.c (the
 * column path). Nothing outside these files includes it; reduce.h is what
 * the wider reduction family (scan, softmax, sort) shares. */
#ifndef TK_RUNTIME_OPS_REDUCE_INTERNAL_H
#define TK_RUNTIME_OPS_REDUCE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "reduce.h"

/* The input as kept dims (outer) and reduced dims (inner), each coalesced. */
typedef struct {
    int nk, nr;
    int64_t kshape[TK_MAX_DIMS], kstride[TK_MAX_DIMS];   /* kept dims, row-major like the output (elements) */
    int64_t rshape[TK_MAX_DIMS], rstride[TK_MAX_DIMS];   /* reduced dims, the densest innermost */
    int64_t M, N;                                        /* outputs, elements per output */
} Geo;

/* What the engine accumulates; the public ops finish from these. */
typedef enum {
    K_SUM, K_PROD, K_MAX, K_MIN,
    K_ABSSUM, K_SQSUM, K_POWSUM, K_ABSMAX, K_ABSMIN,   /* norms */
    K_ALL, K_ANY,
    K_SUMEXP,   /* sum of exp(x - shift[o]) */
    K_SQDEV,    /* sum of (x - shift[o])^2 */
    K_ARGMAX, K_ARGMIN,
} Kop;

typedef struct {
    double a;    /* float accumulator, or the best value of arg ops */
    int64_t i;   /* int accumulator, or the best value of arg ops on ints */
    int64_t j;   /* arg ops: the best position, -1 before any */
} St;

#define PIECE_GRAIN 32768     /* reduction elements per piece of a long reduction */

typedef struct {
    const Geo *g;
    const char *in;
    tk_dtype dt;
    int64_t es;
    Kop k;
    bool isint;
    const double *shift;   /* per output (K_SUMEXP, K_SQDEV) */
    double p;              /* K_POWSUM */
    int64_t P;             /* pieces per output (1: whole) */
    St *parts;             /* M * P partials when P > 1 */
    double *res_f;         /* per-output results: float accumulators */
    int64_t *res_i;        /* int accumulators and arg positions */
    bool flip;             /* u64 max/min/arg: values carry their top bit flipped (below) */
} Job;

/* u64 values ordered as int64s: flipping the top bit maps unsigned order onto
 * signed order, so the int64 max/min/argmax/argmin compare them right. */
#define U64_FLIP INT64_MIN

/* Makes g from a and the reduced flags (one per dim of a): the reduced dims
 * sorted densest-innermost, both sets coalesced. */
void tkr_red_geo_init(Geo *g, const tk_tensor *a, const bool *reduced);

/* The element offset of output o's first input element (kept dims only). */
static inline int64_t tkr_red_kept_offset(const Geo *g, int64_t o)
{
    int64_t off = 0;
    for (int d = g->nk - 1; d >= 0; d--) {
        off += (o % g->kshape[d]) * g->kstride[d];
        o /= g->kshape[d];
    }
    return off;
}

/* The bits that make an element of t nonzero for all/any: floats without
 * their sign (-0 is zero, NaN is not), ints whole. */
static inline uint64_t tkr_red_nonzero_mask(tk_dtype t)
{
    switch (t) {
    case TK_DTYPE_F64: return 0x7fffffffffffffffull;
    case TK_DTYPE_F32: return 0x7fffffffull;
    case TK_DTYPE_F16:
    case TK_DTYPE_BF16: return 0x7fffull;
    default: return ~0ull;
    }
}

/* Stores output o's result from s: positions, ints and bools into res_i, floats into res_f. */
static inline void tkr_red_emit(const Job *J, int64_t o, const St *s)
{
    if (J->k == K_ARGMAX || J->k == K_ARGMIN) J->res_i[o] = s->j;
    else if (J->isint || J->k == K_ALL || J->k == K_ANY) J->res_i[o] = J->flip ? s->i ^ U64_FLIP : s->i;
    else J->res_f[o] = s->a;
}

/* The kernels (reduce_kernels.c): a fresh state, feeding n values as doubles
 * or int64s at reduction positions pos.., combining s (earlier positions) with
 * t (later ones), a contiguous f32/bf16 run through reduce_vec.c's loops
 * (false if k has none), and the double sum the f64 runs use. */
void tkr_red_st_init(Kop k, bool isint, St *s);
void tkr_red_feed_f(Kop k, St *s, const double *x, int64_t n, int64_t pos, double shift, double p);
void tkr_red_feed_i(Kop k, St *s, const int64_t *x, int64_t n, int64_t pos);
void tkr_red_st_combine(Kop k, bool isint, St *s, const St *t);
bool tkr_red_feed_vec(Kop k, bool bf16, St *s, const char *p, int64_t n, int64_t pos, double shift);
double tkr_red_sum_f64(const double *p, int64_t n);

/* Runs kernel k over every output of g into res_f / res_i (M entries)
 * (reduce_engine.c). */
tk_status tkr_red_run_engine(tk_context *ctx, const char *op, const Geo *g, const tk_tensor *a, Kop k, const double *shift,
                             double p, double *res_f, int64_t *res_i);

/* One strided reduced dim beside a contiguous kept one, every output at once
 * (reduce_columns.c; tkr_red_run_engine decides when). */
tk_status tkr_red_column_sums(tk_context *ctx, const char *op, const Job *J);

#endif
