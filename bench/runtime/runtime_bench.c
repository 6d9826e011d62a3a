/* runtime_bench.c — the tensor runtime's own timings, one case per call, one
 * JSON object per line (bench/runtime/run.sh interleaves these with the
 * NumPy/PyTorch peers and the bandwidth probe, and prints the ratios):
 *
 *   runtime_bench add N THREADS REPS       c = a + b over N f32 (2 reads, 1 write)
 *   runtime_bench sum N THREADS REPS       the sum of N f32 (1 read)
 *   runtime_bench sum0 R THREADS REPS      the sum over dim 0 of an R×R f32 matrix (1 read)
 *   runtime_bench sumrow R THREADS REPS    the sums of the rows of an R×R f32 matrix (1 read)
 *   runtime_bench OP_bf16 N THREADS REPS   OP (add, mul, exp, gelu, sum) over N bf16:
 *                                          add/mul 2 reads + 1 write, exp/gelu 1 + 1, sum 1
 *   runtime_bench tiny THREADS REPS        per-op cost of an 8-element add
 *   runtime_bench matmul M THREADS REPS    M×M×M f32 through tk_matmul and the same
 *                                          stdlib kernel launched directly
 *   runtime_bench conv_grouped|conv_dilated|conv_transpose N THREADS REPS
 *                                          the convolutions outside the direct conv kernels
 *                                          (CONVS below; N the batch), f32 NCHW
 * Times are seconds per op: the minimum and the median of REPS samples. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tk/tk.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void report(const char *impl, const char *cs, double *t, int n, double bytes, double flops)
{
    qsort(t, (size_t)n, sizeof *t, cmp);
    printf("{\"impl\":\"%s\",\"case\":\"%s\",\"min_s\":%.9g,\"median_s\":%.9g,\"bytes\":%.0f,\"flops\":%.0f}\n", impl, cs, t[0],
           t[n / 2], bytes, flops);
}

/* The conv cases: x [N, C, H, W], w as the op takes it, options (PyTorch's shapes of
 * ResNeXt-50's grouped 3×3, a DeepLab-style dilated 3×3 and a U-Net up-convolution). */
static const struct {
    const char *name;
    int64_t c, h, w, wshape[4];
    tk_conv_opts opts;
    bool transpose;
} CONVS[] = {
    { "conv_grouped", 128, 56, 56, { 128, 4, 3, 3 }, { .padding = { 1, 1 }, .groups = 32 }, false },
    { "conv_dilated", 256, 28, 28, { 256, 256, 3, 3 }, { .padding = { 2, 2 }, .dilation = { 2, 2 } }, false },
    { "conv_transpose", 256, 28, 28, { 256, 128, 2, 2 }, { .stride = { 2, 2 } }, true },
};

#define CHECK(call)                                                                           \
    do {                                                                                      \
        if ((call) != TK_OK) {                                                                \
            fprintf(stderr, "runtime_bench: %s: %s\n", #call, tk_last_error(ctx));           \
            exit(1);                                                                          \
        }                                                                                     \
    } while (0)

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: runtime_bench add|sum|sum0|sumrow|OP_bf16|conv_* N THREADS REPS | tiny THREADS REPS | matmul M THREADS REPS\n");
        return 2;
    }
    const char *op = argv[1];
    bool tiny = strcmp(op, "tiny") == 0;
    int64_t n = tiny ? 8 : atoll(argv[2]);
    int threads = atoi(argv[tiny ? 2 : 3]), reps = atoi(argv[tiny ? 3 : 4]);
    if (reps < 1 || reps > 1000) reps = 5;
    tk_context *ctx;
    if (tk_context_create(&(tk_context_opts){ .threads = threads }, &ctx) != TK_OK) return 1;
    double *t = calloc((size_t)reps, sizeof *t);
    char cs[96];
    bool sum2d = strcmp(op, "sum0") == 0 || strcmp(op, "sumrow") == 0;
    size_t oplen = strlen(op);
    bool bf16 = oplen > 5 && strcmp(op + oplen - 5, "_bf16") == 0;
    if (strcmp(op, "add") == 0 || strcmp(op, "sum") == 0 || tiny || sum2d || bf16) {
        /* sum2d: n is the side of the square; bf16: the op's name before the suffix */
        char base[32];
        snprintf(base, sizeof base, "%.*s", bf16 ? (int)(oplen - 5) : (int)oplen, op);
        tk_dtype dt = bf16 ? TK_DTYPE_BF16 : TK_DTYPE_F32;
        int nd = sum2d ? 2 : 1;
        int64_t shape[2] = { n, n };
        tk_tensor *a, *b;
        CHECK(tk_randn(ctx, dt, nd, shape, 1, &a));
        CHECK(tk_randn(ctx, dt, nd, shape, 2, &b));
        int inner = tiny ? 100000 : 1;
        int dim = strcmp(op, "sum0") == 0 ? 0 : 1;
        tk_reduce_opts along = { &dim, 1, false, false, 0 };
        for (int r = -1; r < reps; r++) {   /* r = -1 warms the allocator and the pool */
            double t0 = now();
            for (int i = 0; i < inner; i++) {
                tk_tensor *c;
                if (sum2d) CHECK(tk_sum(ctx, a, &along, &c));
                else if (strcmp(base, "sum") == 0) CHECK(tk_sum(ctx, a, NULL, &c));
                else if (strcmp(base, "mul") == 0) CHECK(tk_mul(ctx, a, b, &c));
                else if (strcmp(base, "exp") == 0) CHECK(tk_unary(ctx, TK_EXP, a, &c));
                else if (strcmp(base, "gelu") == 0) CHECK(tk_unary(ctx, TK_GELU, a, &c));
                else CHECK(tk_add(ctx, a, b, &c));
                tk_tensor_release(c);
            }
            if (r >= 0) t[r] = (now() - t0) / inner;
        }
        int64_t numel = sum2d ? n * n : n;
        double es = bf16 ? 2.0 : 4.0, streams = strcmp(base, "add") == 0 || strcmp(base, "mul") == 0 ? 3 : strcmp(base, "exp") == 0 || strcmp(base, "gelu") == 0 ? 2 : 1;
        snprintf(cs, sizeof cs, "%s_%s_%lld_t%d", base, bf16 ? "bf16" : "f32", (long long)n, threads);
        report("tilekit", cs, t, reps, es * streams * (double)numel, (double)numel);
        tk_tensor_release(a);
        tk_tensor_release(b);
    } else if (strcmp(op, "matmul") == 0) {
        tk_tensor *a, *b, *c;
        CHECK(tk_randn(ctx, TK_DTYPE_F32, 2, (int64_t[]){ n, n }, 1, &a));
        CHECK(tk_randn(ctx, TK_DTYPE_F32, 2, (int64_t[]){ n, n }, 2, &b));
        CHECK(tk_empty(ctx, TK_DTYPE_F32, 2, (int64_t[]){ n, n }, &c));
        /* the kernel tk_matmul picks for this size (the default gemm_f32 instance), launched directly */
        tk_program *p;
        char *diags = NULL;
        const char *src = getenv("TK_STDLIB_GEMM");
        if (!src || tk_compile_file(src, NULL, &p, &diags) != TK_OK) {
            fprintf(stderr, "runtime_bench: set TK_STDLIB_GEMM to stdlib-kernels/gemm.tk (%s)\n", diags ? diags : "");
            return 1;
        }
        tk_kernel *k = tk_program_kernel(p, n <= 16 ? "gemv_f32" : n <= 256 ? "gemm_f32_small" : "gemm_f32");
        tk_arg args[3] = { TK_TENSOR2(tk_tensor_data(a), n, n), TK_TENSOR2(tk_tensor_data(b), n, n), TK_TENSOR2(tk_tensor_data(c), n, n) };
        double *d = calloc((size_t)reps, sizeof *d);
        for (int r = -1; r < reps; r++) {   /* interleaved: the runtime, then the kernel alone */
            tk_tensor *o;
            double t0 = now();
            CHECK(tk_matmul(ctx, a, b, &o));
            double t1 = now();
            tk_tensor_release(o);
            double t2 = now();
            if (tk_kernel_launch(k, args, 3, threads) != TK_OK) return 1;
            double t3 = now();
            if (r >= 0) t[r] = t1 - t0, d[r] = t3 - t2;
        }
        snprintf(cs, sizeof cs, "matmul_f32_%lld_t%d", (long long)n, threads);
        double fl = 2.0 * (double)n * (double)n * (double)n;
        report("tilekit", cs, t, reps, 0, fl);
        report("kernel", cs, d, reps, 0, fl);
        free(d);
        tk_program_free(p);
        tk_tensor_release(a);
        tk_tensor_release(b);
        tk_tensor_release(c);
    } else if (strncmp(op, "conv_", 5) == 0) {
        size_t i = 0;
        while (i < sizeof CONVS / sizeof CONVS[0] && strcmp(CONVS[i].name, op) != 0) i++;
        if (i == sizeof CONVS / sizeof CONVS[0]) {
            fprintf(stderr, "runtime_bench: unknown case %s\n", op);
            return 2;
        }
        tk_tensor *x, *w, *y = NULL;
        CHECK(tk_randn(ctx, TK_DTYPE_F32, 4, (int64_t[]){ n, CONVS[i].c, CONVS[i].h, CONVS[i].w }, 1, &x));
        CHECK(tk_randn(ctx, TK_DTYPE_F32, 4, CONVS[i].wshape, 2, &w));
        for (int r = -1; r < reps; r++) {
            double t0 = now();
            if (CONVS[i].transpose) CHECK(tk_conv_transpose2d(ctx, x, w, NULL, &CONVS[i].opts, &y));
            else CHECK(tk_conv2d(ctx, x, w, NULL, &CONVS[i].opts, &y));
            if (r >= 0) t[r] = now() - t0;
            if (r < reps - 1) tk_tensor_release(y);
        }
        /* the useful multiply-adds: every output (conv) or input (transpose) pixel × its group's C × the taps */
        const int64_t *ws = CONVS[i].wshape;
        double pix = CONVS[i].transpose ? (double)(n * CONVS[i].h * CONVS[i].w) : (double)(tk_tensor_numel(y) / ws[0]);
        double macs = CONVS[i].transpose ? pix * (double)(CONVS[i].c * ws[1] * ws[2] * ws[3])
                                         : pix * (double)(ws[0] * ws[1] * ws[2] * ws[3]);
        snprintf(cs, sizeof cs, "%s_f32_%lld_t%d", op, (long long)n, threads);
        report("tilekit", cs, t, reps, 0, 2 * macs);
        tk_tensor_release(x);
        tk_tensor_release(w);
        tk_tensor_release(y);
    } else {
        fprintf(stderr, "runtime_bench: unknown case %s\n", op);
        return 2;
    }
    free(t);
    tk_context_free(ctx);
    return 0;
}
