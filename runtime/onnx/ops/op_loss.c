/* op_loss.c — ONNX NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss
 * (the latter is log_softmax over the class axis, then the former).
 *
 * x is [N, C, d1, ...], target [N, d1, ...] of class indices, weight [C]
 * (optional). Each element's loss is -x[n, t, d] · weight[t], and 0 where t is
 * ignore_index. reduction 'none' gives those losses, 'sum' their sum, 'mean'
 * their sum over the sum of the weights of the elements not ignored (the
 * count of them without weights; NaN when every element is ignored). Sums
 * accumulate in double in element order, so they do not depend on threads. */
#include <math.h>
#include <string.h>

#include "op.h"
#include "tk/ops.h"
#include "tk/shape.h"

typedef enum { RED_NONE, RED_SUM, RED_MEAN } Reduction;

static const char *check_reduction(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    const char *r = tko_attr_string(n, "reduction", "mean");
    if (strcmp(r, "none") && strcmp(r, "sum") && strcmp(r, "mean")) {
        snprintf(why, len, "reduction='%s' is none of 'none', 'sum', 'mean'", r);
        return why;
    }
    return NULL;
}

/* The loss of log-probabilities lp (contiguous) against target, into *out in lp's dtype. */
static tk_status nll(TkoOpCtx *oc, const tk_tensor *lp, const tk_tensor *target, const tk_tensor *weight, tk_tensor **out)
{
    const TkoNode *n = oc->node;
    tk_context *ctx = oc->ctx;
    tk_dtype d = tk_tensor_dtype(lp);
    int nd = tk_tensor_ndim(lp);
    const int64_t *xs = tk_tensor_shape(lp), *ts = tk_tensor_shape(target);
    char b1[96], b2[96];
    if (!tk_dtype_is_float(d)) return tko_fail(oc, TK_ERR_DTYPE, "input is %s; a float type is required", tk_dtype_name(d));
    tk_dtype td = tk_tensor_dtype(target);
    if (td != TK_DTYPE_I32 && td != TK_DTYPE_I64) return tko_fail(oc, TK_ERR_DTYPE, "target is %s; i32 or i64 is required", tk_dtype_name(td));
    bool fits = nd >= 2 && tk_tensor_ndim(target) == nd - 1 && ts[0] == xs[0];
    for (int a = 2; a < nd && fits; a++) fits = ts[a - 1] == xs[a];
    if (!fits)
        return tko_fail(oc, TK_ERR_SHAPE, "input %s and target %s do not match ([N, C, d...] and [N, d...])",
                        tkr_shape_str(nd, xs, b1, sizeof b1), tkr_shape_str(tk_tensor_ndim(target), ts, b2, sizeof b2));
    int64_t N = xs[0], C = xs[1], D = tk_tensor_numel(target) / (N ? N : 1);
    if (weight && (tk_tensor_ndim(weight) != 1 || tk_tensor_shape(weight)[0] != C))
        return tko_fail(oc, TK_ERR_SHAPE, "weight %s must be [C] = [%lld]", TKR_SHAPE(weight, b1), (long long)C);
    const char *rs = tko_attr_string(n, "reduction", "mean");
    Reduction red = strcmp(rs, "none") == 0 ? RED_NONE : strcmp(rs, "sum") == 0 ? RED_SUM : RED_MEAN;
    const TkoAttr *ia = tko_attr(n, "ignore_index");
    int64_t ignore = ia ? ia->i : 0;

    tk_tensor *t = NULL, *w = NULL, *loss = NULL;
    tk_status s = tk_contiguous(ctx, target, &t);
    if (!s && weight) s = tk_to_dtype(ctx, weight, TK_DTYPE_F64, &w);
    if (!s) s = red == RED_NONE ? tk_empty(ctx, d, tk_tensor_ndim(target), ts, &loss) : tk_empty(ctx, d, 0, NULL, &loss);
    if (s) goto done;
    const char *xp = tkr_ptr(lp), *tp = tkr_ptr(t);
    const double *wp = w ? (const double *)tkr_ptr(w) : NULL;
    char *lp_out = tkr_ptr(loss);
    size_t es = tk_dtype_size(d), ts_ = tk_dtype_size(td);
    double sum = 0, wsum = 0;
    for (int64_t i = 0; i < N; i++)
        for (int64_t k = 0; k < D; k++) {
            int64_t e = i * D + k, c = tkr_load_i(tp + e * (int64_t)ts_, td);
            double v = 0;
            if (!(ia && c == ignore)) {
                if (c < 0 || c >= C) {
                    s = tko_fail(oc, TK_ERR_INDEX, "target %lld at element %lld is outside 0..%lld", (long long)c, (long long)e,
                                 (long long)C - 1);
                    goto done;
                }
                double wt = wp ? wp[c] : 1.0;
                v = -tkr_load_f(xp + ((i * C + c) * D + k) * (int64_t)es, d) * wt;
                wsum += wt;
            }
            if (red == RED_NONE) tkr_store_f(lp_out + e * (int64_t)es, d, v);
            else sum += v;
        }
    if (red != RED_NONE) tkr_store_f(lp_out, d, red == RED_SUM ? sum : sum / wsum);
    *out = loss, loss = NULL;
done:
    tk_tensor_release(t), tk_tensor_release(w), tk_tensor_release(loss);
    return s ? tko_wrap(oc, s) : TK_OK;
}

static tk_status run_nll(TkoOpCtx *oc)
{
    tk_tensor *x;
    tk_status s = tko_wrap(oc, tk_contiguous(oc->ctx, oc->in[0], &x));
    if (s) return s;
    s = nll(oc, x, oc->in[1], oc->nin > 2 ? oc->in[2] : NULL, &oc->out[0]);
    tk_tensor_release(x);
    return s;
}

/* SoftmaxCrossEntropyLoss: the optional second output is the log-probabilities. */
static tk_status run_sce(TkoOpCtx *oc)
{
    const tk_tensor *x = oc->in[0];
    if (tk_tensor_ndim(x) < 2) return tko_fail(oc, TK_ERR_SHAPE, "scores must be [N, C, d...], they have rank %d", tk_tensor_ndim(x));
    if (!tk_dtype_is_float(tk_tensor_dtype(x)))
        return tko_fail(oc, TK_ERR_DTYPE, "scores are %s; a float type is required", tk_dtype_name(tk_tensor_dtype(x)));
    tk_tensor *lp;
    tk_status s = tko_wrap(oc, tk_log_softmax(oc->ctx, x, 1, &lp));
    if (s) return s;
    s = nll(oc, lp, oc->in[1], oc->nin > 2 ? oc->in[2] : NULL, &oc->out[0]);
    if (!s && oc->nout > 1 && oc->node->outputs[1] != TKO_NO_VALUE) oc->out[1] = lp;
    else tk_tensor_release(lp);
    return s;
}

static const TkoOpDef defs[] = {
    OPDEF("NegativeLogLikelihoodLoss", 12, TKO_ANY, "ignore_index,reduction", run_nll, check_reduction, 2, 3, 0),
    OPDEF("SoftmaxCrossEntropyLoss", 12, TKO_ANY, "ignore_index,reduction", run_sce, check_reduction, 2, 3, 0),
};

TKO_FAMILY_OF(tko_ops_loss, defs);
