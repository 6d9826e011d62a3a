/* triangle.c — tril and triu: a copy of t with the elements outside the
 * lower / upper triangle of the last two dims set to zero (all-zero bits is
 * zero in every dtype). The copy runs on the iterator; the zeroing is one
 * memset per row, rows split over the context's threads. */
#include "shape_util.h"

typedef struct {
    tk_tensor *out;
    int64_t rows, cols, diagonal;
    bool lower;
} Triangle;

static void zero_rows(int64_t begin, int64_t end, void *arg)
{
    const Triangle *a = arg;
    size_t es = tk_dtype_size(a->out->dtype);
    for (int64_t r = begin; r < end; r++) {
        int64_t i = r % a->rows;
        char *row = tkr_ptr(a->out) + r * a->cols * (int64_t)es;
        /* tril keeps columns j <= i + diagonal, triu keeps j >= i + diagonal */
        int64_t edge = i + a->diagonal + (a->lower ? 1 : 0);
        edge = edge < 0 ? 0 : edge > a->cols ? a->cols : edge;
        if (a->lower) memset(row + edge * (int64_t)es, 0, (size_t)(a->cols - edge) * es);
        else memset(row, 0, (size_t)edge * es);
    }
}

static tk_status triangle(tk_context *ctx, const char *op, const tk_tensor *t, int64_t diagonal, bool lower, tk_tensor **out)
{
    TKR_BEGIN(ctx, out);
    double t0 = tkr_op_start(ctx);
    tk_status s = tkr_check_arg(ctx, op, "t", t);
    if (s) return s;
    if (t->ndim < 2) {
        char a[160];
        return tkr_error(ctx, TK_ERR_SHAPE, "%s: t of shape %s has %d dim%s (at least 2: the triangle is in the last two)", op,
                         TKR_SHAPE(t, a), t->ndim, t->ndim == 1 ? "" : "s");
    }
    if ((s = tkr_new(ctx, t->dtype, t->ndim, t->shape, out))) return s;
    tkr_copy_into(ctx, op, *out, t);
    Triangle a = { *out, t->shape[t->ndim - 2], t->shape[t->ndim - 1], diagonal, lower };
    int64_t nrows = tkr_numel(t->ndim - 1, t->shape);
    if (nrows && a.cols) {
        /* clamp the diagonal so i + diagonal cannot overflow */
        if (a.diagonal > a.cols) a.diagonal = a.cols;
        if (a.diagonal < -a.rows - 1) a.diagonal = -a.rows - 1;
        int64_t grain = 32768 / a.cols;
        tkr_parallel_for(ctx, nrows, grain > 0 ? grain : 1, zero_rows, &a);
    }
    tkr_op_done(ctx, op, t0);
    return tkr_ok(ctx);
}

tk_status tk_tril(tk_context *ctx, const tk_tensor *t, int64_t diagonal, tk_tensor **out)
{
    return triangle(ctx, "tk_tril", t, diagonal, true, out);
}

tk_status tk_triu(tk_context *ctx, const tk_tensor *t, int64_t diagonal, tk_tensor **out)
{
    return triangle(ctx, "tk_triu", t, diagonal, false, out);
}
