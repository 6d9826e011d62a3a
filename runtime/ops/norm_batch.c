/* norm_batch.c — batch_norm (inference: the running statistics) and
 * group_norm over [N, C, ...].
 *
 * Both end as y = x·α[c] + β[c] over the planes of x (a plane: one (n, c),
 * the trailing dims flattened): batch_norm's α, β come from the running
 * statistics (as PyTorch computes them), group_norm's from each (n, group)'s
 * mean and biased variance, summed in double in a fixed order by one task.
 * f32 planes run in f32 (a loop the compiler vectorises), f64 in f64; bf16
 * and f16 are widened to f32 (exact), computed in f32 and rounded once to
 * their dtype at the end. */
#include <math.h>
#include <stdlib.h>

#include "conv_common.h"

/* Checks x [N, C, ...] float, and p (NULL allowed) [C] float. */
static tk_status check_x(tk_context *ctx, const char *op, const tk_tensor *x)
{
    tk_status s = tkr_check_arg(ctx, op, "x", x);
    if (s) return s;
    char sx[160];
    if (x->ndim < 2) return tkr_error(ctx, TK_ERR_SHAPE, "%s: x %s must be [N, C, ...] (at least 2 dims)", op, TKR_SHAPE(x, sx));
    if (!tk_dtype_is_float(x->dtype)) return tkr_error(ctx, TK_ERR_DTYPE, "%s: x is %s, needs a float tensor", op, tk_dtype_name(x->dtype));
    return TK_OK;
}

static tk_status check_channel_param(tk_context *ctx, const char *op, const char *name, const tk_tensor *x, const tk_tensor *p)
{
    if (!p) return TK_OK;
    tk_status s = tkr_check_arg(ctx, op, name, p);
    if (s) return s;
    char sx[160], sp[160];
    if (p->ndim != 1 || p->shape[0] != x->shape[1])
        return tkr_error(ctx, TK_ERR_SHAPE, "%s: %s %s must be [C] = [%lld] for x %s", op, name, TKR_SHAPE(p, sp), (long long)x->shape[1],
                         TKR_SHAPE(x, sx));
    if (!tk_dtype_is_float(p->dtype)) return tkr_error(ctx, TK_ERR_DTYPE, "%s: %s is %s, needs a float tensor", op, name, tk_dtype_name(p->dtype));
    return TK_OK;
}

/* p's values as doubles (contiguous f64 copy), or NULL when p is NULL. */
static tk_status as_f64(tk_context *ctx, const tk_tensor *p, tk_tensor **out)
{
    *out = NULL;
    return p ? tkr_contiguous_as(ctx, p, TK_DTYPE_F64, out) : TK_OK;
}

/* ------------------------------------------------------------ y = x·α + β per plane */

typedef struct {
    const void *x;    /* contiguous, work dtype */
    void *y;          /* contiguous, work dtype */
    tk_dtype work;
    const double *alpha, *beta;   /* per plane (N·C entries) */
    int64_t plane;                /* elements per plane */
} Affine;

static void affine_planes(int64_t begin, int64_t end, void *arg)
{
    const Affine *a = arg;
    for (int64_t p = begin; p < end; p++) {
        if (a->work == TK_DTYPE_F32) {
            const float *x = (const float *)a->x + p * a->plane;
            float *y = (float *)a->y + p * a->plane, al = (float)a->alpha[p], be = (float)a->beta[p];
            for (int64_t i = 0; i < a->plane; i++) y[i] = x[i] * al + be;
        } else {
            const double *x = (const double *)a->x + p * a->plane;
            double *y = (double *)a->y + p * a->plane, al = a->alpha[p], be = a->beta[p];
            for (int64_t i = 0; i < a->plane; i++) y[i] = x[i] * al + be;
        }
    }
}

/* out = x·alpha[plane] + beta[plane] for x [N, C, ...] (planes = N·C). */
static tk_status apply_affine(tk_context *ctx, const tk_tensor *xc, const double *alpha, const double *beta, tk_dtype dtype,
                              tk_tensor **out)
{
    tk_tensor *yw = NULL;
    tk_status s = tkr_new(ctx, xc->dtype, xc->ndim, xc->shape, &yw);
    if (s) return s;
    int64_t planes = xc->shape[0] * xc->shape[1], plane = planes ? tk_tensor_numel(xc) / planes : 0;
    Affine a = { tkr_ptr(xc), tkr_ptr(yw), xc->dtype, alpha, beta, plane };
    tkr_parallel_for(ctx, planes, plane >= 16384 ? 1 : 16384 / (plane ? plane : 1), affine_planes, &a);
    if (dtype == xc->dtype) {
        *out = yw;
        return TK_OK;
    }
    s = tk_to_dtype(ctx, yw, dtype, out);   /* bf16, f16: rounded once */
    tk_tensor_release(yw);
    return s;
}

tk_status tk_batch_norm(tk_context *ctx, const tk_tensor *x, const tk_tensor *running_mean, const tk_tensor *running_var,
                        const tk_tensor *weight, const tk_tensor *bias, double eps, tk_tensor **out)
{
    const char *op = "tk_batch_norm";
    if (!ctx || !out) return TK_ERR_INVALID_ARGUMENT;
    *out = NULL;
    double t0 = ctx->profile ? tkr_now() : 0;
    tk_status s = check_x(ctx, op, x);
    if (s) return s;
    if (!running_mean || !running_var)
        return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: %s is NULL (inference needs the running statistics)", op,
                         running_mean ? "running_var" : "running_mean");
    if ((s = check_channel_param(ctx, op, "running_mean", x, running_mean)) || (s = check_channel_param(ctx, op, "running_var", x, running_var)) ||
        (s = check_channel_param(ctx, op, "weight", x, weight)) || (s = check_channel_param(ctx, op, "bias", x, bias)))
        return s;
    if (!(eps >= 0)) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: eps is %g, must be >= 0", op, eps);
    int64_t n = x->shape[0], c = x->shape[1];
    tk_tensor *m = NULL, *v = NULL, *g = NULL, *b = NULL, *xc = NULL;
    double *alpha = malloc((size_t)(n * c > 0 ? n * c : 1) * 2 * sizeof(double));
    if (!alpha) return tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, "%s: no memory for %lld channel factors", op, (long long)(n * c));
    double *beta = alpha + (n * c > 0 ? n * c : 1);
    if ((s = as_f64(ctx, running_mean, &m)) || (s = as_f64(ctx, running_var, &v)) || (s = as_f64(ctx, weight, &g)) ||
        (s = as_f64(ctx, bias, &b)) || (s = tkr_contiguous_as(ctx, x, x->dtype == TK_DTYPE_F64 ? TK_DTYPE_F64 : TK_DTYPE_F32, &xc)))
        goto done;
    const double *md = (const double *)tkr_ptr(m), *vd = (const double *)tkr_ptr(v);
    const double *gd = g ? (const double *)tkr_ptr(g) : NULL, *bd = b ? (const double *)tkr_ptr(b) : NULL;
    for (int64_t j = 0; j < c; j++) {   /* PyTorch's form: α = weight / √(var + eps), β = bias − mean·α */
        double al = (gd ? gd[j] : 1.0) / sqrt(vd[j] + eps), be = (bd ? bd[j] : 0.0) - md[j] * al;
        for (int64_t i = 0; i < n; i++) alpha[i * c + j] = al, beta[i * c + j] = be;
    }
    s = apply_affine(ctx, xc, alpha, beta, x->dtype, out);
done:
    free(alpha);
    tk_tensor_release(m);
    tk_tensor_release(v);
    tk_tensor_release(g);
    tk_tensor_release(b);
    tk_tensor_release(xc);
    return tkr_conv_finish(ctx, op, t0, s, out);
}

/* ------------------------------------------------------------ group statistics */

typedef struct {
    const void *x;
    tk_dtype work;
    int64_t c, groups, plane;   /* plane: elements per channel */
    const double *g, *b;        /* [C] or NULL */
    double eps;
    double *alpha, *beta;       /* [N·C] */
} Groups;

#define GROUP_STATS(T)                                                                                    \
    static void group_stats_##T(const Groups *a, int64_t item)                                            \
    {                                                                                                     \
        int64_t cg = a->c / a->groups, n = item / a->groups, grp = item % a->groups, m = cg * a->plane;   \
        const T *x = (const T *)a->x + (n * a->c + grp * cg) * a->plane;                                  \
        double sum = 0, sq = 0;                                                                           \
        for (int64_t i = 0; i < m; i++) sum += (double)x[i];                                              \
        double mean = m ? sum / (double)m : 0.0;                                                          \
        for (int64_t i = 0; i < m; i++) {                                                                 \
            double d = (double)x[i] - mean;                                                               \
            sq += d * d;                                                                                  \
        }                                                                                                 \
        double rstd = 1.0 / sqrt((m ? sq / (double)m : 0.0) + a->eps);                                    \
        for (int64_t k = 0; k < cg; k++) {                                                                \
            int64_t ch = grp * cg + k;                                                                    \
            double al = rstd * (a->g ? a->g[ch] : 1.0);                                                   \
            a->alpha[n * a->c + ch] = al;                                                                 \
            a->beta[n * a->c + ch] = (a->b ? a->b[ch] : 0.0) - mean * al;                                 \
        }                                                                                                 \
    }
GROUP_STATS(float)
GROUP_STATS(double)

static void group_items(int64_t begin, int64_t end, void *arg)
{
    const Groups *a = arg;
    for (int64_t i = begin; i < end; i++) {
        if (a->work == TK_DTYPE_F64) group_stats_double(a, i);
        else group_stats_float(a, i);
    }
}

tk_status tk_group_norm(tk_context *ctx, const tk_tensor *x, int64_t groups, const tk_tensor *weight, const tk_tensor *bias,
                        double eps, tk_tensor **out)
{
    const char *op = "tk_group_norm";
    if (!ctx || !out) return TK_ERR_INVALID_ARGUMENT;
    *out = NULL;
    double t0 = ctx->profile ? tkr_now() : 0;
    tk_status s = check_x(ctx, op, x);
    if (s || (s = check_channel_param(ctx, op, "weight", x, weight)) || (s = check_channel_param(ctx, op, "bias", x, bias))) return s;
    char sx[160];
    int64_t n = x->shape[0], c = x->shape[1];
    if (groups < 1 || c % groups != 0)
        return tkr_error(ctx, TK_ERR_SHAPE, "%s: groups %lld must be >= 1 and divide the %lld channels of x %s", op, (long long)groups,
                         (long long)c, TKR_SHAPE(x, sx));
    if (!(eps >= 0)) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: eps is %g, must be >= 0", op, eps);
    tk_tensor *g = NULL, *b = NULL, *xc = NULL;
    double *alpha = malloc((size_t)(n * c > 0 ? n * c : 1) * 2 * sizeof(double));
    if (!alpha) return tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, "%s: no memory for %lld channel factors", op, (long long)(n * c));
    double *beta = alpha + (n * c > 0 ? n * c : 1);
    tk_dtype work = x->dtype == TK_DTYPE_F64 ? TK_DTYPE_F64 : TK_DTYPE_F32;
    if ((s = as_f64(ctx, weight, &g)) || (s = as_f64(ctx, bias, &b)) || (s = tkr_contiguous_as(ctx, x, work, &xc))) goto done;
    int64_t plane = n * c != 0 ? tk_tensor_numel(x) / (n * c) : 0;
    Groups a = { tkr_ptr(xc), work, c, groups, plane, g ? (const double *)tkr_ptr(g) : NULL, b ? (const double *)tkr_ptr(b) : NULL,
                 eps, alpha, beta };
    int64_t per = plane * (c / groups);
    tkr_parallel_for(ctx, n * groups, per >= 16384 ? 1 : 16384 / (per ? per : 1), group_items, &a);
    s = apply_affine(ctx, xc, alpha, beta, x->dtype, out);
done:
    free(alpha);
    tk_tensor_release(g);
    tk_tensor_release(b);
    tk_tensor_release(xc);
    return tkr_conv_finish(ctx, op, t0, s, out);
}
