/* op_misc.c — ONNX Det, and the random generators refused at load.
 *
 * Det: LU factorisation with partial pivoting in double, one matrix per
 * piece of a parallel loop (a matrix's result never depends on threads).
 *
 * Bernoulli, RandomNormal, RandomUniform and their *Like forms: their output
 * is random, so no test can check it, and even a seeded one would not match
 * another runtime's generator; a model that needs them is refused at load
 * with that reason rather than run with numbers nobody can verify. */
#include <math.h>
#include <string.h>

#include "op.h"
#include "tk/shape.h"

typedef struct {
    tk_tensor *a;   /* [..., m, m] f64, contiguous, our own copy: factored in place */
    tk_tensor *y;   /* [...] */
    int64_t m;
} DetArgs;

static void det_pieces(int64_t begin, int64_t end, void *arg)
{
    const DetArgs *d = arg;
    int64_t m = d->m;
    size_t ys = tk_dtype_size(d->y->dtype);
    for (int64_t b = begin; b < end; b++) {
        double *a = (double *)tkr_ptr(d->a) + b * m * m, det = 1;
        for (int64_t c = 0; c < m; c++) {
            int64_t p = c;   /* the largest pivot in column c */
            for (int64_t r = c + 1; r < m; r++)
                if (fabs(a[r * m + c]) > fabs(a[p * m + c])) p = r;
            if (a[p * m + c] == 0) {
                det = 0;
                break;
            }
            if (p != c) {
                for (int64_t k = 0; k < m; k++) {
                    double t = a[c * m + k];
                    a[c * m + k] = a[p * m + k], a[p * m + k] = t;
                }
                det = -det;
            }
            det *= a[c * m + c];
            for (int64_t r = c + 1; r < m; r++) {
                double f = a[r * m + c] / a[c * m + c];
                for (int64_t k = c + 1; k < m; k++) a[r * m + k] -= f * a[c * m + k];
            }
        }
        tkr_store_f(tkr_ptr(d->y) + b * (int64_t)ys, d->y->dtype, det);
    }
}

static tk_status run_det(TkoOpCtx *oc)
{
    const tk_tensor *x = oc->in[0];
    int nd = tk_tensor_ndim(x);
    const int64_t *xs = tk_tensor_shape(x);
    char b[96];
    if (!tk_dtype_is_float(tk_tensor_dtype(x))) return tko_fail(oc, TK_ERR_DTYPE, "input is %s; a float type is required", tk_dtype_name(tk_tensor_dtype(x)));
    if (nd < 2 || xs[nd - 1] != xs[nd - 2]) return tko_fail(oc, TK_ERR_SHAPE, "input %s is not [..., M, M]", TKR_SHAPE(x, b));
    int64_t m = xs[nd - 1];
    tk_tensor *a = NULL, *y = NULL;
    /* a copy of our own in f64 (tk_clone when x already is f64: tk_to_dtype may hand back x itself) */
    tk_status s = tk_tensor_dtype(x) == TK_DTYPE_F64 ? tk_clone(oc->ctx, x, &a) : tk_to_dtype(oc->ctx, x, TK_DTYPE_F64, &a);
    if (!s) s = tkr_new(oc->ctx, tk_tensor_dtype(x), nd - 2, xs, &y);
    if (!s) {
        DetArgs d = { a, y, m };
        int64_t count = tk_tensor_numel(y), work = m * m * m;
        tkr_parallel_for(oc->ctx, count, work >= 4096 ? 1 : 4096 / (work ? work : 1), det_pieces, &d);
        oc->out[0] = y, y = NULL;
    }
    tk_tensor_release(a), tk_tensor_release(y);
    return tko_wrap(oc, s);
}

static const char *check_random(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m, (void)n;
    snprintf(why, len, "random output: it cannot be checked, and a seed would not reproduce another runtime's numbers");
    return why;
}

static tk_status run_random(TkoOpCtx *oc)
{
    return tko_fail(oc, TK_ERR_UNSUPPORTED, "random output is not supported");
}

static const TkoOpDef defs[] = {
    OPDEF("Det", 11, TKO_ANY, "", run_det, NULL, 1, 1, 0),
    OPDEF("Bernoulli", 15, TKO_ANY, "dtype,seed", run_random, check_random, 1, 1, 0),
    OPDEF("RandomNormal", 1, TKO_ANY, "dtype,mean,scale,seed,shape", run_random, check_random, 0, 0, 0),
    OPDEF("RandomUniform", 1, TKO_ANY, "dtype,high,low,seed,shape", run_random, check_random, 0, 0, 0),
    OPDEF("RandomNormalLike", 1, TKO_ANY, "dtype,mean,scale,seed", run_random, check_random, 1, 1, 0),
    OPDEF("RandomUniformLike", 1, TKO_ANY, "dtype,high,low,seed", run_random, check_random, 1, 1, 0),
};

TKO_FAMILY_OF(tko_ops_misc, defs);
