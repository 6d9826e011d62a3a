/* reduce.c — reductions over any set of axes (tk_reduce, tk_sum, tk_mean)
 * and argmax/argmin: axis handling, output shapes, dtype rules, and how each
 * op finishes from the engine's accumulators.
 *
 * The engine (reduce_internal.h) lives beside this file: reduce_engine.c
 * (geometry, runs, pieces, threads), reduce_kernels.c (what each kernel
 * accumulates and how partials combine), reduce_columns.c (one strided dim
 * beside a contiguous kept one), reduce_vec.c (the vector loops over
 * contiguous runs); reduce_lines.c holds what scan, softmax and sort share.
 *
 * The engine sees the input as kept dims (outer, row-major like the output)
 * and reduced dims (inner, sorted by stride so the innermost is the densest),
 * each coalesced. Every output is reduced in a fixed order. Many outputs:
 * parallel over outputs, each reduced serially. Few outputs and a long
 * reduction: each output's reduction is cut into pieces fixed by its length
 * (tkr_pieces), per-piece partials are computed in parallel and combined in
 * piece order. So the bits never depend on the thread count.
 *
 * Accumulation: contiguous f32 and bf16 runs of sums, norms, var's squared
 * deviations, logsumexp's exps, max and min go through reduce_vec.c's vector
 * loops (f32 lanes in fixed 4096-element blocks whose partials are added in
 * double: at the read bandwidth, and more accurate than PyTorch's f32 cascade
 * on 16 M mixed values, see test_reduce.c), as do prod (double lanes) and
 * argmax/argmin; all/any search contiguous runs of any dtype vectorised
 * (tkr_vfind). Everything else accumulates in double.
 * Results are rounded once to the output dtype. Ints and
 * bool accumulate in int64 (wrapping, as PyTorch). var/std take two passes
 * (the mean, then the sum of squared deviations); logsumexp takes two (the
 * max, then the sum of exp(x - max)), as PyTorch does. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reduce_internal.h"
#include "tk/dtype.h"
#include "tk/ops.h"

/* ------------------------------------------------------------ output stores */

static void store_f(tk_tensor *out, const double *v, int64_t n)
{
    char *d = tkr_ptr(out);
    switch (out->dtype) {
    case TK_DTYPE_F32: for (int64_t i = 0; i < n; i++) ((float *)d)[i] = (float)v[i]; return;
    case TK_DTYPE_F64: memcpy(d, v, (size_t)n * sizeof(double)); return;
    case TK_DTYPE_F16: for (int64_t i = 0; i < n; i++) ((uint16_t *)d)[i] = tk_f16_from_f32((float)v[i]); return;
    case TK_DTYPE_BF16: for (int64_t i = 0; i < n; i++) ((uint16_t *)d)[i] = tk_bf16_from_f32((float)v[i]); return;
    default: for (int64_t i = 0; i < n; i++) tkr_store_f(d + i * (int64_t)tk_dtype_size(out->dtype), out->dtype, v[i]); return;
    }
}

static void store_i(tk_tensor *out, const int64_t *v, int64_t n)
{
    char *d = tkr_ptr(out);
    if (out->dtype == TK_DTYPE_I64) {
        memcpy(d, v, (size_t)n * sizeof(int64_t));
        return;
    }
    for (int64_t i = 0; i < n; i++) tkr_store_i(d + i * (int64_t)tk_dtype_size(out->dtype), out->dtype, v[i]);
}

/* ------------------------------------------------------------ tk_reduce */

static const char *const reduce_names[] = { "sum", "mean", "prod", "max", "min", "var", "std", "norm", "all", "any", "logsumexp" };

/* Marks the reduced axes of a (all of them when dims is NULL or ndims 0) and
 * makes the output shape. */
static tk_status parse_axes(tk_context *ctx, const char *op, const tk_tensor *a, const int *dims, int ndims, bool keepdim,
                            bool *reduced, int *out_ndim, int64_t *out_shape)
{
    if (ndims < 0 || ndims > TK_MAX_DIMS)
        return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: ndims is %d (expected 0 .. %d)", op, ndims, TK_MAX_DIMS);
    for (int d = 0; d < TK_MAX_DIMS; d++) reduced[d] = !dims || ndims == 0;
    if (dims && ndims > 0) {
        bool seen[TK_MAX_DIMS] = { false };
        for (int i = 0; i < ndims; i++) {
            int ax;
            tk_status s = tkr_axis(ctx, op, dims[i], a->ndim, &ax);
            if (s) return s;
            if (seen[ax]) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: dim %d appears more than once in dims", op, ax);
            seen[ax] = reduced[ax] = true;
        }
    }
    *out_ndim = 0;
    for (int d = 0; d < a->ndim; d++) {
        if (!reduced[d]) out_shape[(*out_ndim)++] = a->shape[d];
        else if (keepdim) out_shape[(*out_ndim)++] = 1;
    }
    return TK_OK;
}

static tk_status reduce_impl(tk_context *ctx, const char *op, tk_reduce_op rop, const tk_tensor *a, const tk_reduce_opts *opts,
                             tk_tensor **out)
{
    if (!ctx) return TK_ERR_INVALID_ARGUMENT;
    if (!out) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: out is NULL", op);
    *out = NULL;
    tk_status s = tkr_check_arg(ctx, op, "a", a);
    if (!s) s = tkr_lowp_no_arith(ctx, op, a->dtype);
    if (s) return s;
    if ((unsigned)rop > TK_LOGSUMEXP) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: op %d is not a tk_reduce_op", op, (int)rop);
    const char *name = reduce_names[rop];
    tk_reduce_opts none = { NULL, 0, false, false, 0 };
    if (!opts) opts = &none;
    bool isint = tkr_red_is_int(a->dtype);
    bool float_only = rop == TK_MEAN || rop == TK_VAR || rop == TK_STD || rop == TK_NORM || rop == TK_LOGSUMEXP;
    if (float_only && isint)
        return tkr_error(ctx, TK_ERR_DTYPE, "%s: %s needs a float tensor, a is %s", op, name, tk_dtype_name(a->dtype));
    bool reduced[TK_MAX_DIMS];
    int ond = 0;
    int64_t oshape[TK_MAX_DIMS];
    if ((s = parse_axes(ctx, op, a, opts->dims, opts->ndims, opts->keepdim, reduced, &ond, oshape))) return s;
    Geo g;
    tkr_red_geo_init(&g, a, reduced);
    if (g.N == 0 && (rop == TK_MAX || rop == TK_MIN)) {
        char sh[160];
        int zd = 0;
        while (zd < a->ndim && !(reduced[zd] && a->shape[zd] == 0)) zd++;
        return tkr_error(ctx, TK_ERR_SHAPE, "%s: %s of nothing: reduced dim %d of a %s has size 0", op, name, zd, TKR_SHAPE(a, sh));
    }
    tk_dtype odt = a->dtype;
    /* int sums and products: i64 as PyTorch; u16/u32/u64 give u64 as NumPy (exact modulo 2^64 either way) */
    bool wide_unsigned = a->dtype == TK_DTYPE_U16 || a->dtype == TK_DTYPE_U32 || a->dtype == TK_DTYPE_U64;
    if ((rop == TK_SUM || rop == TK_PROD) && isint) odt = wide_unsigned ? TK_DTYPE_U64 : TK_DTYPE_I64;
    if (rop == TK_ALL || rop == TK_ANY) odt = TK_DTYPE_BOOL;

    double t0 = ctx->profile ? tkr_now() : 0;
    double *rf = malloc((size_t)(g.M > 0 ? g.M : 1) * sizeof(double));
    int64_t *ri = malloc((size_t)(g.M > 0 ? g.M : 1) * sizeof(int64_t));
    double *shift = NULL;
    if (!rf || !ri) {
        s = tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, "%s: no memory for %lld results", op, (long long)g.M);
        goto done;
    }
    if ((s = tkr_new(ctx, odt, ond, oshape, out))) goto done;
    double N = (double)g.N;
    switch (rop) {
    case TK_SUM:
    case TK_MEAN:
    case TK_PROD:
    case TK_MAX:
    case TK_MIN: {
        Kop k = rop == TK_PROD ? K_PROD : rop == TK_MAX ? K_MAX : rop == TK_MIN ? K_MIN : K_SUM;
        if ((s = tkr_red_run_engine(ctx, op, &g, a, k, NULL, 0, rf, ri))) goto done;
        if (rop == TK_MEAN)
            for (int64_t o = 0; o < g.M; o++) rf[o] /= N;   /* nothing gives 0/0 = NaN, as PyTorch */
        break;
    }
    case TK_ALL:
    case TK_ANY:
        if ((s = tkr_red_run_engine(ctx, op, &g, a, rop == TK_ALL ? K_ALL : K_ANY, NULL, 0, rf, ri))) goto done;
        break;
    case TK_VAR:
    case TK_STD:
        if (!(shift = malloc((size_t)(g.M > 0 ? g.M : 1) * sizeof(double)))) {
            s = tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, "%s: no memory for %lld means", op, (long long)g.M);
            goto done;
        }
        if ((s = tkr_red_run_engine(ctx, op, &g, a, K_SUM, NULL, 0, shift, ri))) goto done;
        for (int64_t o = 0; o < g.M; o++) shift[o] /= N;
        if ((s = tkr_red_run_engine(ctx, op, &g, a, K_SQDEV, shift, 0, rf, ri))) goto done;
        for (int64_t o = 0; o < g.M; o++) {
            double den = opts->population ? N : N - 1;
            rf[o] = den < 0 ? NAN : rf[o] / den;   /* N - 1 = 0 gives 0/0 = NaN, as PyTorch */
            if (rop == TK_STD) rf[o] = sqrt(rf[o]);
        }
        break;
    case TK_NORM: {
        double p = opts->p == 0 ? 2 : opts->p;
        Kop k = p == 2 ? K_SQSUM : p == 1 ? K_ABSSUM : p == INFINITY ? K_ABSMAX : p == -INFINITY ? K_ABSMIN : K_POWSUM;
        if ((s = tkr_red_run_engine(ctx, op, &g, a, k, NULL, p, rf, ri))) goto done;
        for (int64_t o = 0; o < g.M; o++) {
            if (k == K_SQSUM) rf[o] = sqrt(rf[o]);
            else if (k == K_POWSUM) rf[o] = pow(rf[o], 1 / p);
        }
        break;
    }
    case TK_LOGSUMEXP:
        if (!(shift = malloc((size_t)(g.M > 0 ? g.M : 1) * sizeof(double)))) {
            s = tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, "%s: no memory for %lld maxima", op, (long long)g.M);
            goto done;
        }
        if ((s = tkr_red_run_engine(ctx, op, &g, a, K_MAX, NULL, 0, shift, ri))) goto done;
        /* PyTorch's form: an infinite max shifts by 0, so +inf stays +inf and all -inf gives -inf */
        for (int64_t o = 0; o < g.M; o++)
            if (isinf(shift[o])) shift[o] = 0;
        if ((s = tkr_red_run_engine(ctx, op, &g, a, K_SUMEXP, shift, 0, rf, ri))) goto done;
        for (int64_t o = 0; o < g.M; o++) rf[o] = log(rf[o]) + shift[o];
        break;
    }
    if (odt == TK_DTYPE_BOOL || (isint && rop != TK_MEAN)) store_i(*out, ri, g.M);
    else store_f(*out, rf, g.M);
    s = tkr_ok(ctx);
done:
    free(rf);
    free(ri);
    free(shift);
    if (s) {
        tk_tensor_release(*out);
        *out = NULL;
    } else if (ctx->profile) {
        tkr_profile_record(ctx, "op", op, tkr_now() - t0);
    }
    return s;
}

tk_status tk_reduce(tk_context *ctx, tk_reduce_op op, const tk_tensor *a, const tk_reduce_opts *opts, tk_tensor **out)
{
    return reduce_impl(ctx, "tk_reduce", op, a, opts, out);
}

tk_status tk_sum(tk_context *ctx, const tk_tensor *a, const tk_reduce_opts *opts, tk_tensor **out)
{
    return reduce_impl(ctx, "tk_sum", TK_SUM, a, opts, out);
}

tk_status tk_mean(tk_context *ctx, const tk_tensor *a, const tk_reduce_opts *opts, tk_tensor **out)
{
    return reduce_impl(ctx, "tk_mean", TK_MEAN, a, opts, out);
}

/* ------------------------------------------------------------ argmax / argmin */

static tk_status arg_impl(tk_context *ctx, const char *op, Kop k, const tk_tensor *a, int dim, bool keepdim, tk_tensor **out)
{
    if (!ctx) return TK_ERR_INVALID_ARGUMENT;
    if (!out) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: out is NULL", op);
    *out = NULL;
    tk_status s = tkr_check_arg(ctx, op, "a", a);
    if (!s) s = tkr_lowp_no_arith(ctx, op, a->dtype);
    if (s) return s;
    bool reduced[TK_MAX_DIMS];
    int ond;
    int64_t oshape[TK_MAX_DIMS];
    if ((s = parse_axes(ctx, op, a, &dim, 1, keepdim, reduced, &ond, oshape))) return s;
    Geo g;
    tkr_red_geo_init(&g, a, reduced);
    if (g.N == 0) {
        char sh[160];
        int ax;
        tkr_axis(ctx, op, dim, a->ndim, &ax);
        return tkr_error(ctx, TK_ERR_SHAPE, "%s: dim %d of a %s has size 0", op, ax, TKR_SHAPE(a, sh));
    }
    double t0 = ctx->profile ? tkr_now() : 0;
    if ((s = tkr_new(ctx, TK_DTYPE_I64, ond, oshape, out))) return s;
    /* the positions land straight in the i64 output; res_f is never written by arg kernels */
    if ((s = tkr_red_run_engine(ctx, op, &g, a, k, NULL, 0, NULL, (int64_t *)tkr_ptr(*out)))) {
        tk_tensor_release(*out);
        *out = NULL;
        return s;
    }
    if (ctx->profile) tkr_profile_record(ctx, "op", op, tkr_now() - t0);
    return tkr_ok(ctx);
}

tk_status tk_argmax(tk_context *ctx, const tk_tensor *a, int dim, bool keepdim, tk_tensor **out)
{
    return arg_impl(ctx, "tk_argmax", K_ARGMAX, a, dim, keepdim, out);
}

tk_status tk_argmin(tk_context *ctx, const tk_tensor *a, int dim, bool keepdim, tk_tensor **out)
{
    return arg_impl(ctx, "tk_argmin", K_ARGMIN, a, dim, keepdim, out);
}
