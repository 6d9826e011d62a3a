/* scan.c — running sums and products along a dim (tk_cumsum, tk_cumprod).
 *
 * The accumulator follows PyTorch 1.13's CPU kernel (acc_type): f32 and f64
 * accumulate in double, f16 and bf16 in f32, and each output is rounded from
 * the accumulator; ints and bool accumulate in int64 and give i64.
 *
 * The input (made contiguous) is seen as [outer, L, inner]; a task scans L
 * for one outer index and a block of up to BLOCK inner columns side by side,
 * so a scan over a non-last dim still reads memory row by row. Every output
 * depends on its own column only: any split over threads gives the same bits. */
#include <stdlib.h>
#include <string.h>

#include "reduce.h"
#include "tk/dtype.h"
#include "tk/ops.h"

#define BLOCK 256

typedef struct {
    const char *in;
    char *out;
    tk_dtype idt, odt;
    int64_t L, inner, nblocks;
    bool prod;
} ScanJob;

static void store_run(char *d, tk_dtype t, const double *v, int64_t n)
{
    switch (t) {
    case TK_DTYPE_F32: for (int64_t i = 0; i < n; i++) ((float *)d)[i] = (float)v[i]; return;
    case TK_DTYPE_F64: memcpy(d, v, (size_t)n * sizeof(double)); return;
    case TK_DTYPE_F16: for (int64_t i = 0; i < n; i++) ((uint16_t *)d)[i] = tk_f16_from_f32((float)v[i]); return;
    default: for (int64_t i = 0; i < n; i++) ((uint16_t *)d)[i] = tk_bf16_from_f32((float)v[i]); return;
    }
}

/* Lines o in [b, e) of a scan whose inner size is 1, BLOCK elements at a time. */
static void scan_lines(const ScanJob *J, int64_t b, int64_t e, bool isint, bool half)
{
    int64_t ies = (int64_t)tk_dtype_size(J->idt), oes = (int64_t)tk_dtype_size(J->odt);
    for (int64_t o = b; o < e; o++) {
        const char *x = J->in + o * J->L * ies;
        char *y = J->out + o * J->L * oes;
        int64_t iacc = J->prod;
        double facc = J->prod;
        for (int64_t c = 0; c < J->L; c += BLOCK) {
            int64_t w = J->L - c < BLOCK ? J->L - c : BLOCK;
            if (isint) {
                int64_t v[BLOCK];
                tkr_load_run_i(x + c * ies, ies, J->idt, w, v);
                for (int64_t j = 0; j < w; j++)
                    v[j] = iacc = (int64_t)(J->prod ? (uint64_t)iacc * (uint64_t)v[j] : (uint64_t)iacc + (uint64_t)v[j]);
                memcpy(y + c * oes, v, (size_t)w * sizeof(int64_t));
            } else {
                double v[BLOCK];
                tkr_load_run_f(x + c * ies, ies, J->idt, w, v);
                for (int64_t j = 0; j < w; j++) {
                    facc = J->prod ? facc * v[j] : facc + v[j];
                    if (half) facc = (float)facc;   /* f16/bf16: an f32 accumulator, as in scan_tasks */
                    v[j] = facc;
                }
                store_run(y + c * oes, J->odt, v, w);
            }
        }
    }
}

static void scan_tasks(int64_t b, int64_t e, void *arg)
{
    const ScanJob *J = arg;
    int64_t ies = (int64_t)tk_dtype_size(J->idt), oes = (int64_t)tk_dtype_size(J->odt);
    bool isint = tkr_red_is_int(J->idt);
    bool half = J->idt == TK_DTYPE_F16 || J->idt == TK_DTYPE_BF16;   /* accumulates in f32 */
    if (J->inner == 1) {   /* a scan along the last dim: each task is one contiguous line */
        scan_lines(J, b, e, isint, half);
        return;
    }
    for (int64_t t = b; t < e; t++) {
        int64_t o = t / J->nblocks, c0 = (t % J->nblocks) * BLOCK;
        int64_t w = J->inner - c0 < BLOCK ? J->inner - c0 : BLOCK;
        if (isint) {
            int64_t acc[BLOCK], x[BLOCK];
            for (int64_t j = 0; j < w; j++) acc[j] = J->prod;
            for (int64_t i = 0; i < J->L; i++) {
                int64_t at = (o * J->L + i) * J->inner + c0;
                tkr_load_run_i(J->in + at * ies, ies, J->idt, w, x);
                /* unsigned arithmetic: wraps like PyTorch without signed overflow */
                if (J->prod) for (int64_t j = 0; j < w; j++) acc[j] = (int64_t)((uint64_t)acc[j] * (uint64_t)x[j]);
                else for (int64_t j = 0; j < w; j++) acc[j] = (int64_t)((uint64_t)acc[j] + (uint64_t)x[j]);
                memcpy(J->out + at * oes, acc, (size_t)w * sizeof(int64_t));
            }
        } else {
            double acc[BLOCK], x[BLOCK];
            for (int64_t j = 0; j < w; j++) acc[j] = J->prod;
            for (int64_t i = 0; i < J->L; i++) {
                int64_t at = (o * J->L + i) * J->inner + c0;
                tkr_load_run_f(J->in + at * ies, ies, J->idt, w, x);
                if (J->prod) for (int64_t j = 0; j < w; j++) acc[j] *= x[j];
                else for (int64_t j = 0; j < w; j++) acc[j] += x[j];
                /* f16/bf16: an f32 accumulator; an op on two floats done in double and rounded once is the f32 op */
                if (half)
                    for (int64_t j = 0; j < w; j++) acc[j] = (float)acc[j];
                store_run(J->out + at * oes, J->odt, acc, w);
            }
        }
    }
}

static tk_status scan_impl(tk_context *ctx, const char *op, bool prod, const tk_tensor *a, int dim, tk_tensor **out)
{
    if (!ctx) return TK_ERR_INVALID_ARGUMENT;
    if (!out) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: out is NULL", op);
    *out = NULL;
    tk_status s = tkr_check_arg(ctx, op, "a", a);
    if (!s) s = tkr_lowp_no_arith(ctx, op, a->dtype);
    if (s) return s;
    int ax;
    if ((s = tkr_axis(ctx, op, dim, a->ndim, &ax))) return s;
    double t0 = ctx->profile ? tkr_now() : 0;
    /* as tk_sum: ints give i64, u16/u32/u64 u64 (the same wrapping int64 accumulator's bits) */
    bool wide_unsigned = a->dtype == TK_DTYPE_U16 || a->dtype == TK_DTYPE_U32 || a->dtype == TK_DTYPE_U64;
    tk_dtype odt = !tkr_red_is_int(a->dtype) ? a->dtype : wide_unsigned ? TK_DTYPE_U64 : TK_DTYPE_I64;
    tk_tensor *c = NULL;
    if ((s = tkr_contiguous(ctx, a, &c))) return s;
    if ((s = tkr_new(ctx, odt, a->ndim, a->shape, out))) {
        tk_tensor_release(c);
        return s;
    }
    ScanJob J = { tkr_ptr(c), tkr_ptr(*out), a->dtype, odt, 1, 1, 1, prod };
    int64_t outer = 1;
    for (int d = 0; d < a->ndim; d++) {
        if (d < ax) outer *= a->shape[d];
        else if (d == ax) J.L = a->shape[d];
        else J.inner *= a->shape[d];
    }
    J.nblocks = (J.inner + BLOCK - 1) / BLOCK;
    int64_t tasks = J.inner > 0 ? outer * J.nblocks : 0;
    int64_t work = J.L * (J.inner < BLOCK ? J.inner : BLOCK);
    tkr_parallel_for(ctx, tasks, work >= 16384 ? 1 : 16384 / (work > 0 ? work : 1), scan_tasks, &J);
    tk_tensor_release(c);
    if (ctx->profile) tkr_profile_record(ctx, "op", op, tkr_now() - t0);
    return tkr_ok(ctx);
}

tk_status tk_cumsum(tk_context *ctx, const tk_tensor *a, int dim, tk_tensor **out)
{
    return scan_impl(ctx, "tk_cumsum", false, a, dim, out);
}

tk_status tk_cumprod(tk_context *ctx, const tk_tensor *a, int dim, tk_tensor **out)
{
    return scan_impl(ctx, "tk_cumprod", true, a, dim, out);
}
