/* ref_norms.c — double-precision references of the row-wise normalisation
 * kernels (stdlib-kernels/softmax.tk, layernorm.tk, rmsnorm.tk), written from
 * the definitions in docs/stdlib/norms.md. See reference.h. Every kernel
 * works on the last dimension of X: [R, C], row by row; the f32 and bf16
 * kernels share a reference (the data are doubles here either way). */
#include <math.h>
#include <stddef.h>

#include "reference.h"

/* X and Y: [R, C] tensors of the same shape. */
static const char *rows_of(TkRefCall *call, double **x, double **y, int64_t *rows, int64_t *cols)
{
    TkRefTensor *X = tk_ref_tensor_rank(call, "X", 2), *Y = tk_ref_tensor_rank(call, "Y", 2);
    if (X->shape[0] != Y->shape[0] || X->shape[1] != Y->shape[1]) return "X and Y differ in shape";
    *x = X->data;
    *y = Y->data;
    *rows = X->shape[0];
    *cols = X->shape[1];
    return NULL;
}

/* gamma (and beta): one value per column. */
static const char *per_column(TkRefCall *call, const char *name, int64_t cols, double **v)
{
    TkRefTensor *t = tk_ref_tensor_rank(call, name, 1);
    if (t->shape[0] != cols) return "a per-column vector is not C long";
    *v = t->data;
    return NULL;
}

/* y = exp(x - max x) / Σ exp(x - max x) */
static const char *ref_softmax(TkRefCall *call)
{
    double *x, *y;
    int64_t rows, cols;
    const char *why = rows_of(call, &x, &y, &rows, &cols);
    if (why) return why;
    for (int64_t r = 0; r < rows; r++) {
        const double *xr = x + r * cols;
        double *yr = y + r * cols;
        double m = -INFINITY, sum = 0;
        for (int64_t c = 0; c < cols; c++) m = fmax(m, xr[c]);
        for (int64_t c = 0; c < cols; c++) sum += exp(xr[c] - m);
        for (int64_t c = 0; c < cols; c++) yr[c] = exp(xr[c] - m) / sum;
    }
    return NULL;
}

/* y = (x - mean) / sqrt(var + eps) · gamma + beta, var the biased variance (÷ C) */
static const char *ref_layernorm(TkRefCall *call)
{
    double *x, *y, *gamma, *beta;
    int64_t rows, cols;
    const char *why = rows_of(call, &x, &y, &rows, &cols);
    if (!why) why = per_column(call, "gamma", cols, &gamma);
    if (!why) why = per_column(call, "beta", cols, &beta);
    if (why) return why;
    double eps = tk_ref_scalar(call, "eps");
    for (int64_t r = 0; r < rows; r++) {
        const double *xr = x + r * cols;
        double *yr = y + r * cols;
        double mean = 0, var = 0;
        for (int64_t c = 0; c < cols; c++) mean += xr[c];
        mean /= (double)cols;
        for (int64_t c = 0; c < cols; c++) var += (xr[c] - mean) * (xr[c] - mean);
        var /= (double)cols;
        double scale = 1 / sqrt(var + eps);
        for (int64_t c = 0; c < cols; c++) yr[c] = (xr[c] - mean) * scale * gamma[c] + beta[c];
    }
    return NULL;
}

/* y = x / sqrt(mean(x²) + eps) · gamma */
static const char *ref_rmsnorm(TkRefCall *call)
{
    double *x, *y, *gamma;
    int64_t rows, cols;
    const char *why = rows_of(call, &x, &y, &rows, &cols);
    if (!why) why = per_column(call, "gamma", cols, &gamma);
    if (why) return why;
    double eps = tk_ref_scalar(call, "eps");
    for (int64_t r = 0; r < rows; r++) {
        const double *xr = x + r * cols;
        double *yr = y + r * cols;
        double squares = 0;
        for (int64_t c = 0; c < cols; c++) squares += xr[c] * xr[c];
        double scale = 1 / sqrt(squares / (double)cols + eps);
        for (int64_t c = 0; c < cols; c++) yr[c] = xr[c] * scale * gamma[c];
    }
    return NULL;
}

const TkRefKernel tk_ref_norms[] = {
    { "softmax_f32", ref_softmax },     { "softmax_bf16", ref_softmax },     { "layernorm_f32", ref_layernorm },
    { "layernorm_bf16", ref_layernorm }, { "rmsnorm_f32", ref_rmsnorm },     { "rmsnorm_bf16", ref_rmsnorm },
    { 0, 0 },
};
