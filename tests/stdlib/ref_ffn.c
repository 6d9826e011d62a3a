/* ref_ffn.c — double-precision references of the ffn kernels (stdlib-kernels/ffn.tk).
 * See reference.h. Written from the definitions in ffn.tk's header (X [T, D],
 * weights stored [in, out] row-major, Y [T, D]):
 *   SwiGLU: Y[t][j] = Σ_f silu(a[t][f]) · g[t][f] · W2[f][j],
 *           a = X·W1, g = X·W3
 *   GELU:   Y[t][j] = b2[j] + Σ_f gelu(a[t][f] + b1[f]) · W2[f][j],   a = X·W1
 * The hidden activation is kept in double: the bf16 kernels round it to bf16
 * before the second product, and the cases' tolerances account for that. */
#include <stdlib.h>

#include "reference.h"

typedef enum { FFN_SWIGLU, FFN_GELU } FfnKind;

/* Σ_d X[t][d] · W[d][f] for a [D, F] weight */
static double dot_col(const double *X, const double *W, int64_t t, int64_t f, int64_t D, int64_t F)
{
    double s = 0;
    for (int64_t d = 0; d < D; d++) s += X[t * D + d] * W[d * F + f];
    return s;
}

static const char *ffn(TkRefCall *c, FfnKind kind)
{
    int64_t T = tk_ref_size(c, "T"), D = tk_ref_size(c, "D"), F = tk_ref_size(c, "F");
    const double *X = tk_ref_data(c, "X"), *W1 = tk_ref_data(c, "W1"), *W2 = tk_ref_data(c, "W2");
    const double *W3 = kind == FFN_SWIGLU ? tk_ref_data(c, "W3") : NULL;
    const double *b1 = kind == FFN_GELU ? tk_ref_data(c, "b1") : NULL;
    const double *b2 = kind == FFN_GELU ? tk_ref_data(c, "b2") : NULL;
    double *Y = tk_ref_data(c, "Y");

    double *h = malloc((size_t)(F > 0 ? F : 1) * sizeof *h);   /* one row of the hidden activation */
    if (!h) return "out of memory";
    for (int64_t t = 0; t < T; t++) {
        for (int64_t f = 0; f < F; f++) {
            double a = dot_col(X, W1, t, f, D, F);
            h[f] = kind == FFN_SWIGLU ? tk_ref_silu(a) * dot_col(X, W3, t, f, D, F) : tk_ref_gelu(a + b1[f]);
        }
        for (int64_t j = 0; j < D; j++) {
            double s = kind == FFN_GELU ? b2[j] : 0.0;
            for (int64_t f = 0; f < F; f++) s += h[f] * W2[f * D + j];
            Y[t * D + j] = s;
        }
    }
    free(h);
    return NULL;
}

static const char *ref_swiglu(TkRefCall *c) { return ffn(c, FFN_SWIGLU); }
static const char *ref_gelu(TkRefCall *c) { return ffn(c, FFN_GELU); }

const TkRefKernel tk_ref_ffn[] = {
    { "ffn_swiglu_bf16", ref_swiglu },
    { "ffn_swiglu_f32", ref_swiglu },
    { "ffn_gelu_bf16", ref_gelu },
    { "ffn_gelu_f32", ref_gelu },
    { 0, 0 },
};
