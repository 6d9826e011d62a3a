/* softmax.c — tk_softmax and tk_log_softmax along any dim, in the input's
 * float dtype, numerically stable (the line's max is subtracted first).
 *
 * Fast path: an f32 line that is contiguous (the last dim of a contiguous
 * tensor): one pass for the max, one writing exp(x - max) and summing it (in
 * double), one scaling. Every other case goes line by line in double through
 * the typed run loaders. Lines are independent, so any split over threads
 * gives the same bits. A softmax over the last dim of a contiguous f32 or
 * bf16 tensor runs the stdlib kernel (softmax.tk: vectorised exp, 16 rows per
 * block) instead, f32 only when rows are at least one 64-wide tile. */
#include <math.h>

#include "gpu_nn.h"
#include "reduce.h"
#include "stdlib_kernels.h"
#include "tk/ops.h"

#define CHUNK 256

typedef struct {
    const tk_tensor *a, *out;
    TkrLines in, on;
    bool logp;
} SoftmaxJob;

static void softmax_f32_row(const float *x, float *y, int64_t n, bool logp)
{
    float m = -INFINITY;
    for (int64_t i = 0; i < n; i++) m = x[i] > m ? x[i] : m;
    /* a NaN in the row is skipped by the max but poisons the sum: the row is NaN, as PyTorch */
    double sum = 0;
    if (logp) {
        for (int64_t i = 0; i < n; i++) sum += expf(x[i] - m);
        float ls = (float)log(sum);
        for (int64_t i = 0; i < n; i++) y[i] = (x[i] - m) - ls;
    } else {
        for (int64_t i = 0; i < n; i++) {
            y[i] = expf(x[i] - m);
            sum += y[i];
        }
        float r = (float)(1.0 / sum);
        for (int64_t i = 0; i < n; i++) y[i] *= r;
    }
}

/* Any dtype, any stride: double arithmetic, CHUNK elements at a time. */
static void softmax_line(const SoftmaxJob *J, int64_t l)
{
    int64_t es = (int64_t)tk_dtype_size(J->a->dtype), oes = (int64_t)tk_dtype_size(J->out->dtype);
    const char *x = tkr_ptr(J->a) + tkr_lines_start(&J->in, l) * es;
    char *y = tkr_ptr(J->out) + tkr_lines_start(&J->on, l) * oes;
    int64_t n = J->in.len, xs = J->in.step * es, ys = J->on.step * oes;
    double buf[CHUNK], m = -INFINITY, sum = 0;
    for (int64_t c = 0; c < n; c += CHUNK) {
        int64_t w = n - c < CHUNK ? n - c : CHUNK;
        tkr_load_run_f(x + c * xs, xs, J->a->dtype, w, buf);
        for (int64_t i = 0; i < w; i++) m = buf[i] > m ? buf[i] : m;
    }
    for (int64_t c = 0; c < n; c += CHUNK) {
        int64_t w = n - c < CHUNK ? n - c : CHUNK;
        tkr_load_run_f(x + c * xs, xs, J->a->dtype, w, buf);
        for (int64_t i = 0; i < w; i++) sum += exp(buf[i] - m);
    }
    double ls = log(sum), r = 1.0 / sum;
    for (int64_t c = 0; c < n; c += CHUNK) {
        int64_t w = n - c < CHUNK ? n - c : CHUNK;
        tkr_load_run_f(x + c * xs, xs, J->a->dtype, w, buf);
        for (int64_t i = 0; i < w; i++) buf[i] = J->logp ? (buf[i] - m) - ls : exp(buf[i] - m) * r;
        for (int64_t i = 0; i < w; i++) tkr_store_f(y + (c + i) * ys, J->out->dtype, buf[i]);
    }
}

static void softmax_lines(int64_t b, int64_t e, void *arg)
{
    const SoftmaxJob *J = arg;
    bool fast = J->a->dtype == TK_DTYPE_F32 && J->in.step == 1 && J->on.step == 1;
    for (int64_t l = b; l < e; l++) {
        if (fast)
            softmax_f32_row((const float *)tkr_ptr(J->a) + tkr_lines_start(&J->in, l),
                            (float *)tkr_ptr(J->out) + tkr_lines_start(&J->on, l), J->in.len, J->logp);
        else
            softmax_line(J, l);
    }
}

static tk_status softmax_impl(tk_context *ctx, const char *op, bool logp, const tk_tensor *a, int dim, tk_tensor **out)
{
    if (!ctx) return TK_ERR_INVALID_ARGUMENT;
    if (!out) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: out is NULL", op);
    *out = NULL;
    if (!ctx->device->host_ops && !logp) return tkr_gpu_softmax(ctx, a, dim, out);
    tk_status s = tkr_check_arg(ctx, op, "a", a);
    if (s) return s;
    if (!tk_dtype_is_float(a->dtype))
        return tkr_error(ctx, TK_ERR_DTYPE, "%s: needs a float tensor, a is %s", op, tk_dtype_name(a->dtype));
    int ax;
    if ((s = tkr_axis(ctx, op, dim, a->ndim, &ax))) return s;
    double t0 = ctx->profile ? tkr_now() : 0;
    if ((s = tkr_new(ctx, a->dtype, a->ndim, a->shape, out))) return s;
    int64_t cols = a->ndim ? a->shape[a->ndim - 1] : 1, rows = cols ? tk_tensor_numel(a) / cols : 0;
    /* f32 rows narrower than the kernel's 64-wide tiles (a 10-token attention's scores) go
     * to the row loop: the tiles' masked edges made the kernel 4× slower per element there */
    if (!logp && ax == a->ndim - 1 && a->ndim > 0 && rows * cols > 0 && tk_tensor_is_contiguous(a) &&
        ((a->dtype == TK_DTYPE_F32 && cols >= 64) || a->dtype == TK_DTYPE_BF16)) {
        tk_kernel *k;
        s = tkr_stdlib_kernel(ctx, "softmax.tk", a->dtype == TK_DTYPE_F32 ? "softmax_f32" : "softmax_bf16", &k);
        if (!s) {
            tk_arg args[2] = { { tkr_ptr(a), { rows, cols, 0, 0 }, 2 }, { tkr_ptr(*out), { rows, cols, 0, 0 }, 2 } };
            s = tkr_launch_est(ctx, k, NULL, args, 2, tkr_est_bytes_ns(2.0 * (double)(rows * cols) * (double)tk_dtype_size(a->dtype)));
        }
        if (s) {
            tk_tensor_release(*out);
            *out = NULL;
            return s;
        }
        if (ctx->profile) tkr_profile_record(ctx, "op", op, tkr_now() - t0);
        return tkr_ok(ctx);
    }
    SoftmaxJob J = { a, *out, { 0 }, { 0 }, logp };
    tkr_lines_init(&J.in, a, ax);
    tkr_lines_init(&J.on, *out, ax);
    if (J.in.len == 1) J.in.step = J.on.step = 1;   /* a 1-long line is contiguous whatever its stride */
    if (J.in.len > 0) tkr_parallel_for(ctx, J.in.nlines, J.in.len >= 16384 ? 1 : 16384 / J.in.len, softmax_lines, &J);
    if (ctx->profile) tkr_profile_record(ctx, "op", op, tkr_now() - t0);
    return tkr_ok(ctx);
}

tk_status tk_softmax(tk_context *ctx, const tk_tensor *a, int dim, tk_tensor **out)
{
    return softmax_impl(ctx, "tk_softmax", false, a, dim, out);
}

tk_status tk_log_softmax(tk_context *ctx, const tk_tensor *a, int dim, tk_tensor **out)
{
    return softmax_impl(ctx, "tk_log_softmax", true, a, dim, out);
}
