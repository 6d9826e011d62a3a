/* sort.c — tk_sort (stable) and tk_topk along a dim.
 *
 * Each line's keys are gathered (as doubles for floats, int64 for ints and
 * bool), a permutation is sorted by a stable merge sort (insertion-sorted runs
 * of 16, then bottom-up merges), and values are copied bit for bit from the
 * input through the permutation. NaN sorts last ascending and first
 * descending, as PyTorch; ties keep their input order (torch.sort(stable=True)).
 * topk is the first k of the stable sort (descending for the largest): the
 * k largest, ties broken by the lower index; opts->unsorted gives the same k
 * in index order. Lines are independent: any split over threads gives the
 * same bits. */
#include <stdlib.h>
#include <string.h>

#include "reduce.h"
#include "tk/ops.h"

#define RUN 16

#define F_ASC(a, b) ((a) < (b) || ((b) != (b) && (a) == (a)))
#define F_DESC(a, b) ((a) > (b) || ((a) != (a) && (b) == (b)))
#define I_ASC(a, b) ((a) < (b))
#define I_DESC(a, b) ((a) > (b))

/* Sorts the permutation p[0..n) of positions by key[p[i]]; BEFORE(x, y) is
 * "x goes strictly before y", so equal keys keep their order. tmp holds n. */
#define DEFINE_SORT(NAME, KT, BEFORE)                                                     \
    static void NAME(const KT *key, int64_t *p, int64_t *tmp, int64_t n)                 \
    {                                                                                     \
        for (int64_t s = 0; s < n; s += RUN) {                                            \
            int64_t e = s + RUN < n ? s + RUN : n;                                        \
            for (int64_t i = s + 1; i < e; i++) {                                         \
                int64_t v = p[i], j = i;                                                  \
                while (j > s && BEFORE(key[v], key[p[j - 1]])) {                          \
                    p[j] = p[j - 1];                                                      \
                    j--;                                                                  \
                }                                                                         \
                p[j] = v;                                                                 \
            }                                                                             \
        }                                                                                 \
        int64_t *src = p, *dst = tmp;                                                     \
        for (int64_t w = RUN; w < n; w *= 2) {                                            \
            for (int64_t lo = 0; lo < n; lo += 2 * w) {                                   \
                int64_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n; \
                int64_t i = lo, j = mid, o = lo;                                          \
                while (i < mid && j < hi) dst[o++] = BEFORE(key[src[j]], key[src[i]]) ? src[j++] : src[i++]; \
                while (i < mid) dst[o++] = src[i++];                                      \
                while (j < hi) dst[o++] = src[j++];                                       \
            }                                                                             \
            int64_t *t = src;                                                             \
            src = dst;                                                                    \
            dst = t;                                                                      \
        }                                                                                 \
        if (src != p) memcpy(p, src, (size_t)n * sizeof *p);                              \
    }

DEFINE_SORT(sort_f_asc, double, F_ASC)
DEFINE_SORT(sort_f_desc, double, F_DESC)
DEFINE_SORT(sort_i_asc, int64_t, I_ASC)
DEFINE_SORT(sort_i_desc, int64_t, I_DESC)

typedef struct {
    const tk_tensor *a;
    tk_tensor *vals, *idx;     /* either may be NULL */
    TkrLines in, vl, il;
    int64_t k;                 /* results per line */
    bool desc, unsorted;
    void *keys;                /* numel doubles or int64s */
    int64_t *perm, *tmp;       /* numel each */
} SortJob;

static int by_position(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

static void sort_lines(int64_t b, int64_t e, void *arg)
{
    const SortJob *J = arg;
    int64_t L = J->in.len, es = (int64_t)tk_dtype_size(J->a->dtype);
    bool isint = tkr_red_is_int(J->a->dtype);
    for (int64_t l = b; l < e; l++) {
        const char *x = tkr_ptr(J->a) + tkr_lines_start(&J->in, l) * es;
        int64_t *p = J->perm + l * L, *tmp = J->tmp + l * L;
        for (int64_t i = 0; i < L; i++) p[i] = i;
        if (isint) {
            int64_t *key = (int64_t *)J->keys + l * L;
            tkr_load_run_i(x, J->in.step * es, J->a->dtype, L, key);
            if (J->a->dtype == TK_DTYPE_U64)   /* unsigned order as int64 order: flip the top bit */
                for (int64_t i = 0; i < L; i++) key[i] ^= INT64_MIN;
            (J->desc ? sort_i_desc : sort_i_asc)(key, p, tmp, L);
        } else {
            double *key = (double *)J->keys + l * L;
            tkr_load_run_f(x, J->in.step * es, J->a->dtype, L, key);
            (J->desc ? sort_f_desc : sort_f_asc)(key, p, tmp, L);
        }
        if (J->unsorted) qsort(p, (size_t)J->k, sizeof *p, by_position);
        if (J->vals) {
            char *v = tkr_ptr(J->vals) + tkr_lines_start(&J->vl, l) * es;
            for (int64_t i = 0; i < J->k; i++) memcpy(v + i * J->vl.step * es, x + p[i] * J->in.step * es, (size_t)es);
        }
        if (J->idx) {
            int64_t *ix = (int64_t *)tkr_ptr(J->idx) + tkr_lines_start(&J->il, l);
            for (int64_t i = 0; i < J->k; i++) ix[i * J->il.step] = p[i];
        }
    }
}

static tk_status sort_impl(tk_context *ctx, const char *op, const tk_tensor *a, int64_t k, bool topk, int dim, bool desc,
                           bool unsorted, tk_tensor **values, tk_tensor **indices)
{
    if (!ctx) return TK_ERR_INVALID_ARGUMENT;
    if (values) *values = NULL;
    if (indices) *indices = NULL;
    if (!values && !indices) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: values and indices are both NULL", op);
    tk_status s = tkr_check_arg(ctx, op, "a", a);
    if (!s) s = tkr_lowp_no_arith(ctx, op, a->dtype);
    if (s) return s;
    int ax;
    if ((s = tkr_axis(ctx, op, dim, a->ndim, &ax))) return s;
    SortJob J = { a, NULL, NULL, { 0 }, { 0 }, { 0 }, 0, desc, unsorted, NULL, NULL, NULL };
    tkr_lines_init(&J.in, a, ax);
    J.k = topk ? k : J.in.len;
    if (J.k < 0 || J.k > J.in.len) {
        char sh[160];
        return tkr_error(ctx, TK_ERR_INDEX, "%s: k %lld is out of range for dim %d of a %s (size %lld)", op, (long long)k, ax,
                         TKR_SHAPE(a, sh), (long long)J.in.len);
    }
    double t0 = ctx->profile ? tkr_now() : 0;
    int64_t shape[TK_MAX_DIMS];
    memcpy(shape, a->shape, sizeof shape);
    int ond = a->ndim;
    if (ond > 0) shape[ax] = J.k;
    else if (J.k == 0) shape[ond++] = 0;   /* topk(0) of a 0-d tensor: nothing */
    int64_t n = J.in.nlines * J.in.len;
    if (n > 0) {
        J.keys = malloc((size_t)n * 8);
        J.perm = malloc((size_t)n * sizeof(int64_t));
        J.tmp = malloc((size_t)n * sizeof(int64_t));
        if (!J.keys || !J.perm || !J.tmp) {
            s = tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, "%s: no memory to sort %lld elements", op, (long long)n);
            goto done;
        }
    }
    if (values && (s = tkr_new(ctx, a->dtype, ond, shape, &J.vals))) goto done;
    if (indices && (s = tkr_new(ctx, TK_DTYPE_I64, ond, shape, &J.idx))) goto done;
    if (J.vals) tkr_lines_init(&J.vl, J.vals, ond > a->ndim ? 0 : ax);
    if (J.idx) tkr_lines_init(&J.il, J.idx, ond > a->ndim ? 0 : ax);
    if (n > 0 && J.k > 0) tkr_parallel_for(ctx, J.in.nlines, J.in.len >= 4096 ? 1 : 4096 / J.in.len, sort_lines, &J);
    s = tkr_ok(ctx);
done:
    free(J.keys);
    free(J.perm);
    free(J.tmp);
    if (s) {
        tk_tensor_release(J.vals);
        tk_tensor_release(J.idx);
        return s;
    }
    if (values) *values = J.vals;
    if (indices) *indices = J.idx;
    if (ctx->profile) tkr_profile_record(ctx, "op", op, tkr_now() - t0);
    return s;
}

tk_status tk_topk(tk_context *ctx, const tk_tensor *a, int64_t k, int dim, const tk_topk_opts *opts, tk_tensor **values,
                  tk_tensor **indices)
{
    tk_topk_opts def = { false, false };
    if (!opts) opts = &def;
    return sort_impl(ctx, "tk_topk", a, k, true, dim, !opts->smallest, opts->unsorted, values, indices);
}

tk_status tk_sort(tk_context *ctx, const tk_tensor *a, int dim, bool descending, tk_tensor **values, tk_tensor **indices)
{
    return sort_impl(ctx, "tk_sort", a, 0, false, dim, descending, false, values, indices);
}
