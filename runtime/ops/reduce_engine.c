/* reduce_engine.c — the reduction engine: the input seen as kept and reduced
 * dims (geometry), each output's reduction walked as strided runs fed to a
 * kernel (reduce_kernels.c), and the split of the work over threads: many
 * outputs in parallel, each reduced serially, or a few long ones cut into
 * pieces fixed by their length whose partials combine in piece order (so the
 * bits never depend on the thread count). A strided reduced dim beside a
 * contiguous kept one goes to the column path (reduce_columns.c). */
#include <stdlib.h>

#include "reduce_internal.h"

/* ------------------------------------------------------------ geometry */

/* Drops size-1 dims and merges neighbours that step as one. */
static int coalesce(int n, int64_t *shape, int64_t *stride)
{
    int m = 0;
    for (int d = 0; d < n; d++) {
        if (shape[d] == 1) continue;
        if (m > 0 && stride[m - 1] == stride[d] * shape[d]) {
            shape[m - 1] *= shape[d];
            stride[m - 1] = stride[d];
            continue;
        }
        shape[m] = shape[d];
        stride[m++] = stride[d];
    }
    return m;
}

void tkr_red_geo_init(Geo *g, const tk_tensor *a, const bool *reduced)
{
    g->nk = g->nr = 0;
    g->M = g->N = 1;
    for (int d = 0; d < a->ndim; d++) {
        if (reduced[d]) {
            g->N *= a->shape[d];
            g->rshape[g->nr] = a->shape[d];
            g->rstride[g->nr++] = a->strides[d];
        } else {
            g->M *= a->shape[d];
            g->kshape[g->nk] = a->shape[d];
            g->kstride[g->nk++] = a->strides[d];
        }
    }
    /* the reduction order is ours to choose: walk memory densest-innermost (stable for equal strides) */
    for (int i = 1; i < g->nr; i++)
        for (int j = i; j > 0 && g->rstride[j - 1] < g->rstride[j]; j--) {
            int64_t s = g->rstride[j], n = g->rshape[j];
            g->rstride[j] = g->rstride[j - 1], g->rshape[j] = g->rshape[j - 1];
            g->rstride[j - 1] = s, g->rshape[j - 1] = n;
        }
    if (g->M > 0 && g->N > 0) {
        g->nk = coalesce(g->nk, g->kshape, g->kstride);
        g->nr = coalesce(g->nr, g->rshape, g->rstride);
    }
}

/* ------------------------------------------------------------ engine */

#define CHUNK 256
#define FEW_OUTPUTS 64        /* below this many outputs a long reduction is cut into pieces */

/* The kernels that compare values: u64 inputs take U64_FLIP for them. */
static bool order_kernel(Kop k) { return k == K_MAX || k == K_MIN || k == K_ARGMAX || k == K_ARGMIN; }

/* all/any of a contiguous run of any dtype: one vectorised search (tkr_vfind); false for other kernels. */
static bool feed_logic(const Job *J, St *s, const char *p, int64_t n)
{
    if (J->k != K_ALL && J->k != K_ANY) return false;
    if (J->k == K_ALL ? s->i == 0 : s->i != 0) return true;   /* decided already */
    bool found = tkr_vfind(p, n, (int)J->es, tkr_red_nonzero_mask(J->dt), J->k == K_ALL);
    s->i = J->k == K_ALL ? !found : found;
    return true;
}

/* Feeds one strided run of n elements at reduction positions pos... */
static void feed_run(const Job *J, St *s, const char *p, int64_t stride, int64_t n, int64_t pos, double shift)
{
    /* the hot cases straight from memory: contiguous f32/bf16 runs (reduce_vec.c), all/any and f64 sums */
    if (stride == J->es && (J->dt == TK_DTYPE_F32 || J->dt == TK_DTYPE_BF16) &&
        tkr_red_feed_vec(J->k, J->dt == TK_DTYPE_BF16, s, p, n, pos, shift))
        return;
    if (stride == J->es && feed_logic(J, s, p, n)) return;
    if (J->dt == TK_DTYPE_F64 && stride == 8 && J->k == K_SUM) {
        s->a += tkr_red_sum_f64((const double *)p, n);
        return;
    }
    for (int64_t c = 0; c < n; c += CHUNK) {
        int64_t m = n - c < CHUNK ? n - c : CHUNK;
        if (J->isint) {
            int64_t buf[CHUNK];
            tkr_load_run_i(p + c * stride, stride, J->dt, m, buf);
            if (J->flip)
                for (int64_t i = 0; i < m; i++) buf[i] ^= U64_FLIP;
            tkr_red_feed_i(J->k, s, buf, m, pos + c);
        } else {
            double buf[CHUNK];
            tkr_load_run_f(p + c * stride, stride, J->dt, m, buf);
            tkr_red_feed_f(J->k, s, buf, m, pos + c, shift, J->p);
        }
    }
}

/* Reduces positions [b, e) of output o into s, walking the reduced dims in row-major order. */
static void reduce_range(const Job *J, int64_t o, int64_t b, int64_t e, St *s)
{
    if (b >= e) return;   /* an empty reduction keeps the initial state */
    const Geo *g = J->g;
    const char *base = J->in + tkr_red_kept_offset(g, o) * J->es;
    double shift = J->shift ? J->shift[o] : 0;
    int nr = g->nr;
    if (nr == 0) {   /* one element per output */
        feed_run(J, s, base, 0, 1, 0, shift);
        return;
    }
    int64_t idx[TK_MAX_DIMS], rem = b;
    for (int d = nr - 1; d >= 0; d--) {
        idx[d] = rem % g->rshape[d];
        rem /= g->rshape[d];
    }
    int64_t inner = g->rshape[nr - 1], istride = g->rstride[nr - 1] * J->es;
    for (int64_t pos = b; pos < e;) {
        int64_t off = 0;
        for (int d = 0; d < nr; d++) off += idx[d] * g->rstride[d];
        int64_t run = inner - idx[nr - 1];
        if (run > e - pos) run = e - pos;
        feed_run(J, s, base + off * J->es, istride, run, pos, shift);
        pos += run;
        idx[nr - 1] += run;
        for (int d = nr - 1; d > 0 && idx[d] == g->rshape[d]; d--) idx[d] = 0, idx[d - 1]++;
    }
}

static void whole_outputs(int64_t b, int64_t e, void *arg)
{
    const Job *J = arg;
    for (int64_t o = b; o < e; o++) {
        St s;
        tkr_red_st_init(J->k, J->isint, &s);
        reduce_range(J, o, 0, J->g->N, &s);
        tkr_red_emit(J, o, &s);
    }
}

static void partial_pieces(int64_t b, int64_t e, void *arg)
{
    const Job *J = arg;
    for (int64_t t = b; t < e; t++) {
        int64_t o = t / J->P, rb, re;
        tkr_piece_range(J->g->N, PIECE_GRAIN, t % J->P, &rb, &re);
        tkr_red_st_init(J->k, J->isint, &J->parts[t]);
        reduce_range(J, o, rb, re, &J->parts[t]);
    }
}

/* Runs kernel k over every output of g into res_f / res_i (M entries). */
tk_status tkr_red_run_engine(tk_context *ctx, const char *op, const Geo *g, const tk_tensor *a, Kop k, const double *shift,
                             double p, double *res_f, int64_t *res_i)
{
    Job J = { g, tkr_ptr(a), a->dtype, (int64_t)tk_dtype_size(a->dtype), k, tkr_red_is_int(a->dtype), shift, p, 1, NULL, res_f,
              res_i, false };
    J.flip = a->dtype == TK_DTYPE_U64 && order_kernel(k);
    if (g->M == 0) return TK_OK;
    /* a float reduction (sum of x, x², |x|, squared deviations or shifted exps, product, max, min, argmax,
     * argmin) or all/any over one strided dim beside a contiguous kept one: rows streamed into partials */
    bool float_dt = J.dt == TK_DTYPE_F32 || J.dt == TK_DTYPE_F64 || J.dt == TK_DTYPE_BF16;
    bool columnwise = k == K_SUM || k == K_SQSUM || k == K_ABSSUM || k == K_SQDEV || k == K_SUMEXP || k == K_PROD || k == K_MAX ||
                      k == K_MIN || k == K_ARGMAX || k == K_ARGMIN;
    bool logic = (k == K_ALL || k == K_ANY) && (J.es == 1 || J.es == 2 || J.es == 4 || J.es == 8);   /* any dtype */
    if (((columnwise && float_dt) || logic) && g->nk >= 1 && g->kstride[g->nk - 1] == 1 && g->nr == 1 && g->rstride[0] > 1 &&
        g->N > 0)
        return tkr_red_column_sums(ctx, op, &J);
    if (g->M < FEW_OUTPUTS && g->N >= 2 * PIECE_GRAIN) J.P = tkr_pieces(g->N, PIECE_GRAIN);
    if (J.P == 1) {
        int64_t per = g->N > 0 ? g->N : 1;
        tkr_parallel_for(ctx, g->M, per >= PIECE_GRAIN ? 1 : PIECE_GRAIN / per, whole_outputs, &J);
        return TK_OK;
    }
    J.parts = malloc((size_t)(g->M * J.P) * sizeof(St));
    if (!J.parts) return tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, "%s: no memory for %lld partial results", op, (long long)(g->M * J.P));
    tkr_parallel_for(ctx, g->M * J.P, 1, partial_pieces, &J);
    for (int64_t o = 0; o < g->M; o++) {   /* in piece order: the same bits on any thread count */
        St s = J.parts[o * J.P];
        for (int64_t i = 1; i < J.P; i++) tkr_red_st_combine(k, J.isint, &s, &J.parts[o * J.P + i]);
        tkr_red_emit(&J, o, &s);
    }
    free(J.parts);
    return TK_OK;
}
