/* mlp.c — a small MLP forward pass on the tensor runtime: x → linear → GELU →
 * linear → softmax, batch 32, f32 (and the same in bf16), with the weights
 * marked constant so the products read them packed. Seeded random weights;
 * the result is checked against PyTorch by tests/tensor/examples_test.py.
 *
 *   mlp [OUTDIR]   (writes the inputs, weights and outputs as .npy there)
 */
#include <stdio.h>
#include <stdlib.h>

#include "tk/tk.h"

#define CHECK(call)                                                                    \
    do {                                                                               \
        if ((call) != TK_OK) {                                                         \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, tk_last_error(ctx)); \
            return 1;                                                                  \
        }                                                                              \
    } while (0)

enum { BATCH = 32, IN = 200, HIDDEN = 320, OUT = 10 };

int main(int argc, char **argv)
{
    tk_context *ctx;
    if (tk_context_create(NULL, &ctx) != TK_OK) return 1;
    tk_tensor *x, *w1, *b1, *w2, *b2, *h, *a, *logits, *y;
    CHECK(tk_randn(ctx, TK_DTYPE_F32, 2, (int64_t[]){ BATCH, IN }, 10, &x));
    CHECK(tk_rand(ctx, TK_DTYPE_F32, 2, (int64_t[]){ HIDDEN, IN }, 11, -0.07, 0.07, &w1));   /* PyTorch's [out, in] */
    CHECK(tk_rand(ctx, TK_DTYPE_F32, 1, (int64_t[]){ HIDDEN }, 12, -0.07, 0.07, &b1));
    CHECK(tk_rand(ctx, TK_DTYPE_F32, 2, (int64_t[]){ OUT, HIDDEN }, 13, -0.05, 0.05, &w2));
    CHECK(tk_rand(ctx, TK_DTYPE_F32, 1, (int64_t[]){ OUT }, 14, -0.05, 0.05, &b2));
    CHECK(tk_mark_weight(ctx, w1));
    CHECK(tk_mark_weight(ctx, w2));

    CHECK(tk_linear(ctx, x, w1, b1, &h));
    CHECK(tk_unary(ctx, TK_GELU, h, &a));
    CHECK(tk_linear(ctx, a, w2, b2, &logits));
    CHECK(tk_softmax(ctx, logits, -1, &y));

    tk_tensor *best;
    CHECK(tk_argmax(ctx, y, -1, false, &best));
    printf("mlp: [%d, %d] -> linear %d -> gelu -> linear %d -> softmax\n", BATCH, IN, HIDDEN, OUT);
    char *row = tk_tensor_describe(best, 12);
    printf("  predicted classes of the first rows: %s\n", row ? row : "?");
    free(row);
    if (argc > 1) {
        const char *names[] = { "x", "w1", "b1", "w2", "b2", "y" };
        tk_tensor *ts[] = { x, w1, b1, w2, b2, y };
        char path[1024];
        for (int i = 0; i < 6; i++) {
            snprintf(path, sizeof path, "%s/%s.npy", argv[1], names[i]);
            CHECK(tk_save_npy(ctx, ts[i], path));
        }
    }
    tk_tensor *all[] = { x, w1, b1, w2, b2, h, a, logits, y, best };
    for (unsigned i = 0; i < sizeof all / sizeof *all; i++) tk_tensor_release(all[i]);
    tk_context_free(ctx);
    return 0;
}
