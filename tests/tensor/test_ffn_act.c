/* test_ffn_act.c — tk_ffn's activations (TK_FFN_RELU, TK_FFN_GELU_ERF, and
 * the older GELU_TANH and SWIGLU) against a plain double loop, f32 and bf16,
 * with plain and with marked weights (the ffn_packed.tk kernels, weights
 * packed once), at shapes that take each kernel path: one row block with F in
 * one chunk (T = 7, D = 33, F = 70), the decode split of F across blocks
 * (T = 3, F = 600: three 256-wide chunks) and 64-row blocks (T = 37). Every
 * result is the same on 1 and 2 threads. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

typedef struct {
    int64_t t, d, f;
} Shape;

static float bf16_round(float v)   /* round to nearest even at bf16, as the kernels' convert does */
{
    uint32_t b;
    memcpy(&b, &v, 4);
    b = (b + 0x7FFFu + ((b >> 16) & 1u)) & 0xFFFF0000u;
    memcpy(&v, &b, 4);
    return v;
}

static double act_ref(tk_ffn_activation a, double h)
{
    switch (a) {
    case TK_FFN_RELU: return h > 0 ? h : 0;
    case TK_FFN_GELU_ERF: return 0.5 * h * (1.0 + erf(h / sqrt(2.0)));
    case TK_FFN_GELU_TANH: return 0.5 * h * (1.0 + tanh(sqrt(2.0 / 3.14159265358979323846) * (h + 0.044715 * h * h * h)));
    default: return h / (1.0 + exp(-h));   /* silu, for SwiGLU's gate */
    }
}

/* A tensor of dtype dt filled from a seeded uniform draw, and its values as
 * doubles (after rounding to dt). */
static tk_tensor *draw(tk_dtype dt, int64_t r, int64_t c, unsigned seed, double scale, double **vals)
{
    int64_t n = r * (c ? c : 1);   /* c = 0: a vector of r */
    float *buf = malloc((size_t)n * sizeof *buf);
    *vals = malloc((size_t)n * sizeof **vals);
    srand(seed);
    for (int64_t i = 0; i < n; i++) {
        float v = (float)(scale * (2.0 * rand() / RAND_MAX - 1.0));
        if (dt == TK_DTYPE_BF16) v = bf16_round(v);
        buf[i] = v;
        (*vals)[i] = v;
    }
    tk_tensor *f32, *out;
    int64_t shape[2] = { r, c };
    TKT_OK(tk_from_data(tkt_ctx, buf, TK_DTYPE_F32, c ? 2 : 1, c ? shape : &r, &f32));
    TKT_OK(tk_to_dtype(tkt_ctx, f32, dt, &out));
    tk_tensor_release(f32);
    free(buf);
    return out;
}

/* out[t][j] = act(x·w1 + b1) · w2 + b2 (SwiGLU: silu(x·w1) ⊙ (x·w3) · w2), the
 * hidden value rounded to bf16 once for bf16 as the kernels define. */
static void reference(tk_ffn_activation a, bool bf16, Shape s, const double *x, const double *w1, const double *w3, const double *w2,
                      const double *b1, const double *b2, double *out)
{
    double *h = malloc((size_t)s.f * sizeof *h);
    for (int64_t t = 0; t < s.t; t++) {
        for (int64_t k = 0; k < s.f; k++) {
            double p = 0, q = 0;
            for (int64_t i = 0; i < s.d; i++) {
                p += x[t * s.d + i] * w1[i * s.f + k];
                if (w3) q += x[t * s.d + i] * w3[i * s.f + k];
            }
            double v = a == TK_FFN_SWIGLU ? act_ref(a, p) * q : act_ref(a, p + b1[k]);
            h[k] = bf16 ? bf16_round((float)v) : v;
        }
        for (int64_t j = 0; j < s.d; j++) {
            double y = a == TK_FFN_SWIGLU ? 0 : b2[j];
            for (int64_t k = 0; k < s.f; k++) y += h[k] * w2[k * s.d + j];
            out[t * s.d + j] = y;
        }
    }
    free(h);
}

static void check(tk_ffn_activation a, tk_dtype dt, Shape s, bool marked)
{
    bool bf = dt == TK_DTYPE_BF16, swiglu = a == TK_FFN_SWIGLU;
    double *x, *w1, *w3 = NULL, *w2, *b1, *b2;
    double sc = 1.0 / sqrt((double)s.d), sc2 = 1.0 / sqrt((double)s.f);
    tk_tensor *tx = draw(dt, s.t, s.d, 1, 1.0, &x), *tw1 = draw(dt, s.d, s.f, 2, 2.0 * sc, &w1), *tw2 = draw(dt, s.f, s.d, 3, 2.0 * sc2, &w2);
    tk_tensor *tw3 = swiglu ? draw(dt, s.d, s.f, 4, 2.0 * sc, &w3) : NULL;
    tk_tensor *tb1 = draw(TK_DTYPE_F32, s.f, 0, 5, 0.5, &b1), *tb2 = draw(TK_DTYPE_F32, s.d, 0, 6, 0.5, &b2);
    if (marked) {
        TKT_OK(tk_mark_weight(tkt_ctx, tw1));
        TKT_OK(tk_mark_weight(tkt_ctx, tw2));
        if (tw3) TKT_OK(tk_mark_weight(tkt_ctx, tw3));
    }
    double *want = malloc((size_t)(s.t * s.d) * sizeof *want);
    reference(a, bf, s, x, w1, w3, w2, b1, b2, want);
    tk_tensor *twant, *got1, *got2, *got64;
    TKT_OK(tk_from_data(tkt_ctx, want, TK_DTYPE_F64, 2, (int64_t[]){ s.t, s.d }, &twant));
    tk_ffn_opts o = { .activation = a, .b1 = swiglu ? NULL : tb1, .b2 = swiglu ? NULL : tb2 };
    char what[128];
    snprintf(what, sizeof what, "tk_ffn act %d %s T=%lld D=%lld F=%lld%s", (int)a, tk_dtype_name(dt), (long long)s.t, (long long)s.d,
             (long long)s.f, marked ? " packed" : "");
    TKT_OK(tk_context_set_threads(tkt_ctx, 1));
    TKT_OK(tk_ffn(tkt_ctx, tx, tw1, tw3, tw2, &o, &got1));
    TKT_OK(tk_context_set_threads(tkt_ctx, 2));
    TKT_OK(tk_ffn(tkt_ctx, tx, tw1, tw3, tw2, &o, &got2));
    tkt_expect_equal(got2, got1, what);
    TKT_OK(tk_to_dtype(tkt_ctx, got1, TK_DTYPE_F64, &got64));
    /* f32: f32 accumulation over D, F <= 600 of O(1) terms; bf16: the result
     * rounded to bf16 (2^-8 relative) on top of f32 sums of bf16 products */
    tkt_expect_close(got64, twant, bf ? 1.0 / 64 : 1e-4, bf ? 2e-2 : 1e-4, true, what);
    TKT_RELEASE(tx, tw1, tw2, tw3, tb1, tb2, twant, got1, got2, got64);
    free(x), free(w1), free(w3), free(w2), free(b1), free(b2), free(want);
}

static const Shape shapes[] = { { 7, 33, 70 }, { 3, 40, 600 }, { 37, 33, 70 } };

START_TEST(ffn_relu_and_gelu_erf_f32)
{
    for (size_t i = 0; i < 3; i++)
        for (int marked = 0; marked < 2; marked++) {
            check(TK_FFN_RELU, TK_DTYPE_F32, shapes[i], marked);
            check(TK_FFN_GELU_ERF, TK_DTYPE_F32, shapes[i], marked);
        }
}
END_TEST

START_TEST(ffn_relu_and_gelu_erf_bf16)
{
    for (size_t i = 0; i < 3; i++)
        for (int marked = 0; marked < 2; marked++) {
            check(TK_FFN_RELU, TK_DTYPE_BF16, shapes[i], marked);
            check(TK_FFN_GELU_ERF, TK_DTYPE_BF16, shapes[i], marked);
        }
}
END_TEST

/* The older activations through the packed kernels (marked weights), now that tk_ffn uses them. */
START_TEST(ffn_swiglu_and_gelu_tanh_packed)
{
    for (size_t i = 0; i < 3; i++)
        for (int bf = 0; bf < 2; bf++) {
            check(TK_FFN_SWIGLU, bf ? TK_DTYPE_BF16 : TK_DTYPE_F32, shapes[i], true);
            check(TK_FFN_GELU_TANH, bf ? TK_DTYPE_BF16 : TK_DTYPE_F32, shapes[i], true);
        }
}
END_TEST

START_TEST(ffn_activation_out_of_range_is_refused)
{
    double *x, *w1, *w2;
    tk_tensor *tx = draw(TK_DTYPE_F32, 2, 8, 1, 1.0, &x), *tw1 = draw(TK_DTYPE_F32, 8, 16, 2, 1.0, &w1),
              *tw2 = draw(TK_DTYPE_F32, 16, 8, 3, 1.0, &w2), *y = NULL;
    TKT_FAILS(tk_ffn(tkt_ctx, tx, tw1, NULL, tw2, &(tk_ffn_opts){ .activation = (tk_ffn_activation)4 }, &y), TK_ERR_INVALID_ARGUMENT,
              "activation 4");
    ck_assert_ptr_null(y);
    TKT_RELEASE(tx, tw1, tw2);
    free(x), free(w1), free(w2);
}
END_TEST

static Suite *ffn_act_suite(void)
{
    Suite *s = suite_create("tensor_ffn_act");
    TCase *tc = tkt_case("ffn_act");
    tcase_add_test(tc, ffn_relu_and_gelu_erf_f32);
    tcase_add_test(tc, ffn_relu_and_gelu_erf_bf16);
    tcase_add_test(tc, ffn_swiglu_and_gelu_tanh_packed);
    tcase_add_test(tc, ffn_activation_out_of_range_is_refused);
    suite_add_tcase(s, tc);
    return s;
}

TKT_MAIN(ffn_act_suite)
