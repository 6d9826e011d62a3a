/* custom_kernel.c — your own .tk kernel called on runtime tensors (tk/call.h):
 * compile a kernel from a string once, then tk_call it on tensors; the sizes
 * come from the shapes. Here a fused "y = gelu(x·w + b)" row kernel written in
 * .tk is run on a tensor and on a transposed view of one, and checked against
 * the same formula through the tensor API (tk_linear + tk_unary).
 *
 *   custom_kernel [OUTDIR]   (writes x.npy, w.npy, b.npy, y.npy there for tests)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tk/tk.h"

/* One block computes 16 rows × 64 columns of Y = gelu_erf(X·W + b). */
static const char source[] =
    "kernel dense_gelu(gl<f32, M, K> X, gl<f32, K, N> W, gl<f32, N> b, gl<f32, M, N> Y)\n"
    "    grid(cdiv(N, 64), cdiv(M, 16)) warps(1)\n"
    "{\n"
    "    rt<f32, 16, 64> acc = zeros();\n"
    "    for (k in 0 .. cdiv(K, 64)) {\n"
    "        rt<f32, 16, 64> x = load(X, block.y, k);\n"
    "        rt<f32, 64, 64, col> w = load(W, k, block.x);\n"
    "        mma_ab(acc, x, w);\n"
    "    }\n"
    "    rv<f32, 64> bias = load(b, block.x);\n"
    "    store(Y, gelu_erf(add_col(acc, bias)), block.y, block.x);\n"
    "}\n";

#define CHECK(call)                                                                    \
    do {                                                                               \
        if ((call) != TK_OK) {                                                         \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, tk_last_error(ctx)); \
            return 1;                                                                  \
        }                                                                              \
    } while (0)

int main(int argc, char **argv)
{
    tk_program *prog;
    char *diags = NULL;
    if (tk_compile_source("dense_gelu.tk", source, strlen(source), NULL, &prog, &diags) != TK_OK) {
        fprintf(stderr, "compile failed:\n%s\n", diags ? diags : "");
        tk_free(diags);
        return 1;
    }
    tk_kernel *kernel = tk_program_kernel(prog, "dense_gelu");
    tk_context *ctx;
    if (!kernel || tk_context_create(NULL, &ctx) != TK_OK) return 1;

    const int64_t M = 100, K = 75, N = 130;   /* not multiples of the tiles */
    tk_tensor *x, *b, *y, *wt_store, *wt;
    CHECK(tk_randn(ctx, TK_DTYPE_F32, 2, (int64_t[]){ M, K }, 1, &x));
    CHECK(tk_randn(ctx, TK_DTYPE_F32, 2, (int64_t[]){ N, K }, 2, &wt_store));   /* stored [N, K] ... */
    CHECK(tk_transpose(ctx, wt_store, 0, 1, &wt));                                 /* ... seen as [K, N]: a view */
    CHECK(tk_randn(ctx, TK_DTYPE_F32, 1, &N, 3, &b));
    CHECK(tk_empty(ctx, TK_DTYPE_F32, 2, (int64_t[]){ M, N }, &y));
    /* the view is not contiguous: tk_call passes a contiguous copy of it */
    tk_call_arg args[] = { TK_CALL_TENSOR(x), TK_CALL_TENSOR(wt), TK_CALL_TENSOR(b), TK_CALL_TENSOR(y) };
    CHECK(tk_call(ctx, kernel, args, 4));

    /* the same through the tensor API: linear takes the weight as [N, K] */
    tk_tensor *lin, *ref, *diff, *err;
    CHECK(tk_linear(ctx, x, wt_store, b, &lin));
    CHECK(tk_unary(ctx, TK_GELU, lin, &ref));
    CHECK(tk_sub(ctx, y, ref, &diff));
    CHECK(tk_reduce(ctx, TK_NORM, diff, &(tk_reduce_opts){ .p = INFINITY }, &err));
    double worst;
    CHECK(tk_item(ctx, err, NULL, &worst));
    printf("custom_kernel: dense_gelu on [%lld, %lld] x [%lld, %lld]: max |tk_call - tensor API| = %.3g (%s)\n", (long long)M,
           (long long)K, (long long)K, (long long)N, worst, worst < 1e-4 ? "ok" : "WRONG");
    if (argc > 1) {
        char path[1024];
        const char *names[] = { "x", "w", "b", "y" };
        tk_tensor *ts[] = { x, wt, b, y };
        for (int i = 0; i < 4; i++) {
            snprintf(path, sizeof path, "%s/%s.npy", argv[1], names[i]);
            CHECK(tk_save_npy(ctx, ts[i], path));
        }
    }
    tk_tensor *all[] = { x, b, y, wt_store, wt, lin, ref, diff, err };
    for (unsigned i = 0; i < sizeof all / sizeof *all; i++) tk_tensor_release(all[i]);
    tk_context_free(ctx);
    tk_program_free(prog);
    return worst < 1e-4 ? 0 : 1;
}
