/* creation.c — tensors made from nothing: empty, zeros, ones, full, arange,
 * linspace, eye, and seeded random numbers. Random numbers come from Philox
 * 4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3"),
 * counter-based: element i is a function of (seed, i), so any split of the
 * work over threads gives the same tensor. */
#include <math.h>
#include <string.h>

#include "internal.h"

#define CHECK_CTX(ctx, out)                  \
    do {                                     \
        if (!(ctx) || !(out)) return TK_ERR_INVALID_ARGUMENT; \
        *(out) = NULL;                       \
    } while (0)

tk_status tk_empty(tk_context *ctx, tk_dtype dtype, int ndim, const int64_t *shape, tk_tensor **out)
{
    CHECK_CTX(ctx, out);
    tk_status s = tkr_new(ctx, dtype, ndim, shape, out);
    return s ? s : tkr_ok(ctx);
}

tk_status tk_full(tk_context *ctx, tk_dtype dtype, int ndim, const int64_t *shape, double value, tk_tensor **out)
{
    CHECK_CTX(ctx, out);
    tk_status s = tkr_new(ctx, dtype, ndim, shape, out);
    if (!s && (s = tk_fill_(ctx, *out, value))) {
        tk_tensor_release(*out);
        *out = NULL;
    }
    return s;
}

tk_status tk_zeros(tk_context *ctx, tk_dtype dtype, int ndim, const int64_t *shape, tk_tensor **out)
{
    return tk_full(ctx, dtype, ndim, shape, 0.0, out);
}

tk_status tk_ones(tk_context *ctx, tk_dtype dtype, int ndim, const int64_t *shape, tk_tensor **out)
{
    return tk_full(ctx, dtype, ndim, shape, 1.0, out);
}

tk_status tk_empty_like(tk_context *ctx, const tk_tensor *t, tk_tensor **out)
{
    CHECK_CTX(ctx, out);
    tk_status s = tkr_check_device_arg(ctx, "tk_empty_like", "t", t);
    return s ? s : tk_empty(ctx, t->dtype, t->ndim, t->shape, out);
}

tk_status tk_zeros_like(tk_context *ctx, const tk_tensor *t, tk_tensor **out)
{
    CHECK_CTX(ctx, out);
    tk_status s = tkr_check_device_arg(ctx, "tk_zeros_like", "t", t);
    return s ? s : tk_zeros(ctx, t->dtype, t->ndim, t->shape, out);
}

/* Writes f(i) for i in [0, n) into a new 1-d tensor (serial: these are small). */
static tk_status fill_1d(tk_context *ctx, tk_dtype dtype, int64_t n, double (*f)(int64_t, const double *), const double *p,
                         tk_tensor **out)
{
    if (!ctx->device->host_ops) {
        tk_tensor *h = NULL;
        return tkr_moved_from_host(ctx, fill_1d(ctx->host, dtype, n, f, p, &h), &h, out);
    }
    tk_status s = tkr_new(ctx, dtype, 1, &n, out);
    if (s) return s;
    char *d = tkr_ptr(*out);
    size_t es = tk_dtype_size(dtype);
    bool isf = tk_dtype_is_float(dtype) || tkr_dtype_is_lowp_float(dtype);   /* float8 steps keep their fractions */
    for (int64_t i = 0; i < n; i++) {
        double v = f(i, p);
        if (isf) tkr_store_f(d + i * (int64_t)es, dtype, v);
        else tkr_store_i(d + i * (int64_t)es, dtype, (int64_t)llround(v));
    }
    return tkr_ok(ctx);
}

static double arange_at(int64_t i, const double *p) { return p[0] + (double)i * p[1]; }

tk_status tk_arange(tk_context *ctx, tk_dtype dtype, double start, double end, double step, tk_tensor **out)
{
    CHECK_CTX(ctx, out);
    if (step == 0 || !isfinite(step) || !isfinite(start) || !isfinite(end))
        return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "tk_arange: start %g, end %g, step %g: step must be non-zero and all finite",
                         start, end, step);
    if ((end - start) / step > 1e15)
        return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "tk_arange: %g elements are too many", (end - start) / step);
    int64_t n = (int64_t)ceil((end - start) / step);
    if (n < 0) n = 0;
    double p[2] = { start, step };
    return fill_1d(ctx, dtype, n, arange_at, p, out);
}

/* PyTorch's linspace: the first half counts up from start, the second down
 * from end, so both ends are exact. */
static double linspace_at(int64_t i, const double *p)
{
    double start = p[0], end = p[1], step = p[2];
    int64_t n = (int64_t)p[3];
    return i < n / 2 ? start + step * (double)i : end - step * (double)(n - 1 - i);
}

tk_status tk_linspace(tk_context *ctx, tk_dtype dtype, double start, double end, int64_t steps, tk_tensor **out)
{
    CHECK_CTX(ctx, out);
    if (steps < 0) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "tk_linspace: steps is %lld, must be >= 0", (long long)steps);
    double p[4] = { start, end, steps > 1 ? (end - start) / (double)(steps - 1) : 0.0, (double)steps };
    return fill_1d(ctx, dtype, steps, linspace_at, p, out);
}

tk_status tk_eye(tk_context *ctx, tk_dtype dtype, int64_t n, int64_t m, tk_tensor **out)
{
    CHECK_CTX(ctx, out);
    if (m < 0) m = n;
    if (n < 0) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "tk_eye: n is %lld, must be >= 0", (long long)n);
    if (!ctx->device->host_ops) {
        tk_tensor *h = NULL;
        return tkr_moved_from_host(ctx, tk_eye(ctx->host, dtype, n, m, &h), &h, out);
    }
    tk_status s = tk_zeros(ctx, dtype, 2, (int64_t[]){ n, m }, out);
    if (s) return s;
    char *d = tkr_ptr(*out);
    size_t es = tk_dtype_size(dtype);
    for (int64_t i = 0; i < n && i < m; i++) tkr_store_f(d + (i * m + i) * (int64_t)es, dtype, 1.0);
    return tkr_ok(ctx);
}

/* ---------------------------------------------------------------- Philox 4x32-10 */

static void philox(uint64_t counter, uint64_t seed, uint32_t out[4])
{
    uint32_t c0 = (uint32_t)counter, c1 = (uint32_t)(counter >> 32), c2 = 0, c3 = 0;
    uint32_t k0 = (uint32_t)seed, k1 = (uint32_t)(seed >> 32);
    for (int r = 0; r < 10; r++) {
        uint64_t p0 = (uint64_t)0xD2511F53u * c0, p1 = (uint64_t)0xCD9E8D57u * c2;
        uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1 ^ k0, n2 = (uint32_t)(p0 >> 32) ^ c3 ^ k1;
        c1 = (uint32_t)p1;
        c3 = (uint32_t)p0;
        c0 = n0;
        c2 = n2;
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
    out[0] = c0, out[1] = c1, out[2] = c2, out[3] = c3;
}

/* A double in [0, 1) with 53 random bits, and one in (0, 1]. */
static double u01(uint32_t hi, uint32_t lo) { return (double)(((uint64_t)hi << 21) ^ (lo >> 11)) * 0x1p-53; }

typedef struct {
    tk_dtype dtype;
    char *data;
    uint64_t seed;
    double a, b;
    bool normal;
} RandArg;

static void rand_range(int64_t begin, int64_t end, void *p)
{
    const RandArg *r = p;
    size_t es = tk_dtype_size(r->dtype);
    for (int64_t i = begin; i < end; i++) {
        uint32_t w[4];
        philox((uint64_t)i, r->seed, w);
        double v;
        if (r->normal) {   /* Box–Muller on two 53-bit uniforms */
            double u1 = 1.0 - u01(w[0], w[1]), u2 = u01(w[2], w[3]);
            v = r->a + r->b * sqrt(-2.0 * log(u1)) * cos(6.283185307179586476925 * u2);
        } else {
            v = r->a + (r->b - r->a) * u01(w[0], w[1]);
            /* rounding to a narrow dtype must not reach high */
            tkr_store_f(r->data + i * (int64_t)es, r->dtype, v);
            if (tkr_load_f(r->data + i * (int64_t)es, r->dtype) >= r->b) tkr_store_f(r->data + i * (int64_t)es, r->dtype, r->a);
            continue;
        }
        tkr_store_f(r->data + i * (int64_t)es, r->dtype, v);
    }
}

static tk_status random_tensor(tk_context *ctx, const char *op, tk_dtype dtype, int ndim, const int64_t *shape, uint64_t seed,
                               double a, double b, bool normal, tk_tensor **out)
{
    CHECK_CTX(ctx, out);
    if (!tk_dtype_is_float(dtype))
        return tkr_error(ctx, TK_ERR_DTYPE, "%s: dtype %s is not a float type", op, tk_dtype_name(dtype));
    if (!normal && !(a < b)) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "%s: low %g must be below high %g", op, a, b);
    if (!ctx->device->host_ops) {
        tk_tensor *h = NULL;
        return tkr_moved_from_host(ctx, random_tensor(ctx->host, op, dtype, ndim, shape, seed, a, b, normal, &h), &h, out);
    }
    tk_status s = tkr_new(ctx, dtype, ndim, shape, out);
    if (s) return s;
    RandArg r = { dtype, tkr_ptr(*out), seed, a, b, normal };
    tkr_parallel_for(ctx, tk_tensor_numel(*out), 16384, rand_range, &r);
    return tkr_ok(ctx);
}

tk_status tk_rand(tk_context *ctx, tk_dtype dtype, int ndim, const int64_t *shape, uint64_t seed, double low, double high,
                  tk_tensor **out)
{
    return random_tensor(ctx, "tk_rand", dtype, ndim, shape, seed, low, high, false, out);
}

tk_status tk_randn(tk_context *ctx, tk_dtype dtype, int ndim, const int64_t *shape, uint64_t seed, tk_tensor **out)
{
    return random_tensor(ctx, "tk_randn", dtype, ndim, shape, seed, 0.0, 1.0, true, out);
}
