/* ref_ffn.c — double-precision references of the ffn kernels (stdlib-kernels/ffn.tk).
 * See reference.h. Written from the definitions in ffn.tk's header (X [T, D],
 * weights stored [in, out] row-major, Y [T, D]):
 *   SwiGLU: Y[t][j] = Σ_f silu(a[t][f]) · g[t][f] · W2[f][j],
 *           a = X·W1, g = X·W3
 *   GELU:   Y[t][j] = b2[j] + Σ_f gelu(a[t][f] + b1[f]) · W2[f][j],   a = X·W1
 * The split-F decode kernels (the same header):
 *   *_part:             P[s][t][j] = Σ_{f : ⌊f/256⌋ mod S = s} h[t][f] · W2[f][j]
 *                       (h as above, without b2)
 *   ffn_partial_sum*:   Y[t][j] = Σ_s P[s][t][j]  (+ b2[j] in the _bias variants)
 * The packed-weight kernels (ffn_packed.tk) read their weights through the
 * packed layout (tk_ref_packed_at) and are otherwise the same.
 * The hidden activation is kept in double: the bf16 kernels round it to bf16
 * before the second product, and the cases' tolerances account for that. */
#include <stdlib.h>
#include <string.h>

#include "reference.h"

typedef enum { FFN_SWIGLU, FFN_GELU } FfnKind;

enum { SPLIT_CHUNK = 256 };   /* hidden columns per chunk of the split kernels (FC in ffn.tk) */

/* Σ_d X[t][d] · W[d][f] for a [D, F] weight */
static double dot_col(const double *X, const double *W, int64_t t, int64_t f, int64_t D, int64_t F)
{
    double s = 0;
    for (int64_t d = 0; d < D; d++) s += X[t * D + d] * W[d * F + f];
    return s;
}

/* h[f] for row t: the hidden activation, exactly */
static void hidden_row(FfnKind kind, const double *X, const double *W1, const double *W3, const double *b1,
                       int64_t t, int64_t D, int64_t F, double *h)
{
    for (int64_t f = 0; f < F; f++) {
        double a = dot_col(X, W1, t, f, D, F);
        h[f] = kind == FFN_SWIGLU ? tk_ref_silu(a) * dot_col(X, W3, t, f, D, F) : tk_ref_gelu(a + b1[f]);
    }
}

/* The weights of one call, as logical row-major matrices. */
typedef struct {
    const double *W1, *W3, *W2;   /* [D, F], [D, F] (SwiGLU only), [F, D] */
} Weights;

/* The fused kernels (split = false: Y = h·W2 (+ b2)) and the _part kernels
 * (split = true: P[s] = the part of h·W2 over the chunks of slice s). */
static const char *ffn_with(TkRefCall *c, FfnKind kind, bool split, int64_t F, Weights w)
{
    int64_t T = tk_ref_size(c, "T"), D = tk_ref_size(c, "D");
    int64_t S = split ? tk_ref_size(c, "S") : 1;
    if (S < 1) return "S (slices of the split-F scratch) must be at least 1";
    const double *X = tk_ref_data(c, "X"), *W1 = w.W1, *W3 = w.W3, *W2 = w.W2;
    const double *b1 = kind == FFN_GELU ? tk_ref_data(c, "b1") : NULL;
    const double *b2 = kind == FFN_GELU && !split ? tk_ref_data(c, "b2") : NULL;
    double *out = tk_ref_data(c, split ? "P" : "Y");   /* [S, T, D]; S = 1 for Y */

    double *h = malloc((size_t)(F > 0 ? F : 1) * sizeof *h);   /* one row of the hidden activation */
    if (!h) return "out of memory";
    for (int64_t t = 0; t < T; t++) {
        hidden_row(kind, X, W1, W3, b1, t, D, F, h);
        for (int64_t s = 0; s < S; s++)
            for (int64_t j = 0; j < D; j++) {
                double sum = b2 ? b2[j] : 0.0;
                for (int64_t f = 0; f < F; f++)
                    if (!split || (f / SPLIT_CHUNK) % S == s) sum += h[f] * W2[f * D + j];
                out[(s * T + t) * D + j] = sum;
            }
    }
    free(h);
    return NULL;
}

static const char *ffn(TkRefCall *c, FfnKind kind, bool split)
{
    Weights w = { tk_ref_data(c, "W1"), kind == FFN_SWIGLU ? tk_ref_data(c, "W3") : NULL, tk_ref_data(c, "W2") };
    return ffn_with(c, kind, split, tk_ref_size(c, "F"), w);
}

/* Logical [rows, cols] matrix M[r][j] of the packed tensor P[NB, KT, 256, 256]
 * (tk_ref_packed_b_index; pairs: bf16, rows interleaved in pairs), 0 where P
 * has no plane (a tile load past the tensor reads 0). */
static double *unpack(const TkRefTensor *P, int64_t rows, int64_t cols, bool pairs)
{
    double *m = malloc((size_t)(rows * cols > 0 ? rows * cols : 1) * sizeof *m);
    if (!m) return NULL;
    for (int64_t r = 0; r < rows; r++)
        for (int64_t j = 0; j < cols; j++) {
            int64_t at = tk_ref_packed_b_index(P, r, j, pairs);
            m[r * cols + j] = at >= 0 ? P->data[at] : 0.0;
        }
    return m;
}

/* The packed-weight kernels (ffn_packed.tk): W1p, W3p [NF, DT, 256, 256], W2p [ND, FT, 256, 256].
 * SwiGLU uses all NF·256 hidden columns (the weights' zero padding is the caller's
 * promise, so the reference uses what the kernel reads); GELU masks past F (b1's). */
static const char *ffn_packed(TkRefCall *c, FfnKind kind, bool split)
{
    bool pairs = strstr(c->kernel, "_bf16_") != NULL;   /* pack_b_bf16's layout, else pack_b_f32's */
    int64_t D = tk_ref_size(c, "D");
    TkRefTensor *P1 = tk_ref_tensor_rank(c, "W1", 4), *P2 = tk_ref_tensor_rank(c, "W2", 4);
    TkRefTensor *P3 = kind == FFN_SWIGLU ? tk_ref_tensor_rank(c, "W3", 4) : NULL;
    int64_t F = kind == FFN_SWIGLU ? P1->shape[0] * P1->shape[3] : tk_ref_size(c, "F");
    if (P2->shape[0] * P2->shape[3] < D) return "W2p has fewer than D columns (ND·256 >= D is required)";
    double *W1 = unpack(P1, D, F, pairs), *W3 = P3 ? unpack(P3, D, F, pairs) : NULL, *W2 = unpack(P2, F, D, pairs);
    const char *err = !W1 || !W2 || (P3 && !W3) ? "out of memory" : ffn_with(c, kind, split, F, (Weights){ W1, W3, W2 });
    free(W1);
    free(W3);
    free(W2);
    return err;
}

/* Y[t][j] = Σ_s P[s][t][j] (+ b2[j]) */
static const char *partial_sum(TkRefCall *c, bool bias)
{
    int64_t S = tk_ref_size(c, "S"), T = tk_ref_size(c, "T"), D = tk_ref_size(c, "D");
    const double *P = tk_ref_data(c, "P"), *b2 = bias ? tk_ref_data(c, "b2") : NULL;
    double *Y = tk_ref_data(c, "Y");
    for (int64_t t = 0; t < T; t++)
        for (int64_t j = 0; j < D; j++) {
            double sum = b2 ? b2[j] : 0.0;
            for (int64_t s = 0; s < S; s++) sum += P[(s * T + t) * D + j];
            Y[t * D + j] = sum;
        }
    return NULL;
}

static const char *ref_swiglu(TkRefCall *c) { return ffn(c, FFN_SWIGLU, false); }
static const char *ref_gelu(TkRefCall *c) { return ffn(c, FFN_GELU, false); }
static const char *ref_swiglu_part(TkRefCall *c) { return ffn(c, FFN_SWIGLU, true); }
static const char *ref_gelu_part(TkRefCall *c) { return ffn(c, FFN_GELU, true); }
static const char *ref_swiglu_packed(TkRefCall *c) { return ffn_packed(c, FFN_SWIGLU, false); }
static const char *ref_gelu_packed(TkRefCall *c) { return ffn_packed(c, FFN_GELU, false); }
static const char *ref_swiglu_packed_part(TkRefCall *c) { return ffn_packed(c, FFN_SWIGLU, true); }
static const char *ref_gelu_packed_part(TkRefCall *c) { return ffn_packed(c, FFN_GELU, true); }
static const char *ref_sum(TkRefCall *c) { return partial_sum(c, false); }
static const char *ref_sum_bias(TkRefCall *c) { return partial_sum(c, true); }

const TkRefKernel tk_ref_ffn[] = {
    { "ffn_swiglu_bf16", ref_swiglu },
    { "ffn_swiglu_f32", ref_swiglu },
    { "ffn_gelu_bf16", ref_gelu },
    { "ffn_gelu_f32", ref_gelu },
    { "ffn_swiglu_bf16_part", ref_swiglu_part },
    { "ffn_swiglu_f32_part", ref_swiglu_part },
    { "ffn_gelu_bf16_part", ref_gelu_part },
    { "ffn_gelu_f32_part", ref_gelu_part },
    { "ffn_swiglu_bf16_packed", ref_swiglu_packed },
    { "ffn_gelu_bf16_packed", ref_gelu_packed },
    { "ffn_swiglu_bf16_packed_part", ref_swiglu_packed_part },
    { "ffn_gelu_bf16_packed_part", ref_gelu_packed_part },
    { "ffn_swiglu_f32_packed", ref_swiglu_packed },
    { "ffn_gelu_f32_packed", ref_gelu_packed },
    { "ffn_swiglu_f32_packed_part", ref_swiglu_packed_part },
    { "ffn_gelu_f32_packed_part", ref_gelu_packed_part },
    { "ffn_partial_sum_bf16", ref_sum },
    { "ffn_partial_sum_f32", ref_sum },
    { "ffn_partial_sum_bias_bf16", ref_sum_bias },
    { "ffn_partial_sum_bias_f32", ref_sum_bias },
    { 0, 0 },
};
