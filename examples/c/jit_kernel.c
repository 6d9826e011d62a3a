/* jit_kernel.c — the smallest program against an installed TileKit: compile
 * a .tk kernel from a string at run time (tk/compiler.h), launch it on plain
 * arrays, and check it against a C loop. Built by tests/install/run.sh both
 * with pkg-config and with find_package(TileKit).
 *
 *   cc jit_kernel.c $(pkg-config --cflags --libs tk) -o jit_kernel && ./jit_kernel
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tk/compiler.h"

static const char source[] =
    "kernel scale_add(gl<f32, M, N> X, gl<f32, M, N> Y, f32 a) grid(cdiv(N, 64), cdiv(M, 16)) {\n"
    "    rt<f32, 16, 64> x = load(X, block.y, block.x);\n"
    "    store(Y, exp(x) * a + x, block.y, block.x);\n"
    "}\n";

int main(void)
{
    enum { M = 37, N = 100 };   /* not multiples of the 16×64 tile */
    static float x[M * N], y[M * N];
    float a = 0.5f;
    for (int i = 0; i < M * N; i++) x[i] = (float)((i * 37) % 101) / 50.0f - 1.0f;

    tk_program *p;
    char *diags = NULL;
    if (tk_compile_source("scale_add.tk", source, strlen(source), NULL, &p, &diags) != TK_OK) {
        fprintf(stderr, "compile failed:\n%s\n", diags ? diags : "(no diagnostics)");
        tk_free(diags);
        return 1;
    }
    tk_kernel *k = tk_program_kernel(p, "scale_add");
    tk_arg args[3] = { TK_TENSOR2(x, M, N), TK_TENSOR2(y, M, N), TK_SCALAR(&a) };
    if (!k || tk_kernel_launch(k, args, 3, 0) != TK_OK) {
        fprintf(stderr, "launch failed: %s\n", tk_program_error(p));
        tk_program_free(p);
        return 1;
    }
    /* error against the same formula in double, relative to the size of its
     * terms (the sum cancels near x = -0.35): f32 rounding leaves a few 1e-7 */
    double worst = 0;
    for (int i = 0; i < M * N; i++) {
        double e = exp((double)x[i]) * a, want = e + x[i];
        double err = fabs(y[i] - want) / (fabs(e) + fabs(x[i]));
        if (err > worst) worst = err;
    }
    tk_program_free(p);
    printf("jit_kernel: %d×%d scale_add, worst error %.2e of the terms (%s)\n", M, N, worst, worst < 1e-6 ? "ok" : "WRONG");
    return worst < 1e-6 ? 0 : 1;
}
