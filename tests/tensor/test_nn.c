/* test_nn.c — matmul, bmm, linear, layer_norm, rms_norm against PyTorch, and
 * tk_call of a user's kernel on tensors. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"

/* f32 products accumulate in f32 in the kernels: the error grows with K. */
static void expect_product(const tk_tensor *got, const tk_tensor *want, int64_t k, const char *label)
{
    double tol = 4e-6 * sqrt((double)(k > 1 ? k : 1));
    tkt_expect_close(got, want, tol, tol, true, label);
}

START_TEST(matmul_shapes)
{
    const char *cases[] = { "mm_37x29x53", "mm_1x300x70", "mm_20x33x40", "mm_300x270x290", "mm_vec_mat", "mm_mat_vec",
                            "mm_dot",      "mm_batched",  "mm_batched_2d_b", "mm_empty_k" };
    for (unsigned i = 0; i < sizeof cases / sizeof *cases; i++) {
        tk_tensor *a = tkt_fx(cases[i], "a"), *b = tkt_fx(cases[i], "b"), *want = tkt_fx(cases[i], "out"), *got;
        TKT_OK(tk_matmul(tkt_ctx, a, b, &got));
        expect_product(got, want, tk_tensor_size(a, -1), cases[i]);
        /* f64 runs the plain loop with an f64 accumulator */
        tk_tensor *a64, *b64, *want64 = tkt_fx(cases[i], "out64"), *got64;
        TKT_OK(tk_to_dtype(tkt_ctx, a, TK_DTYPE_F64, &a64));
        TKT_OK(tk_to_dtype(tkt_ctx, b, TK_DTYPE_F64, &b64));
        TKT_OK(tk_matmul(tkt_ctx, a64, b64, &got64));
        /* the inputs were rounded to f32 first, the reference was not */
        tkt_expect_close(got64, want64, 1e-6, 1e-6, true, cases[i]);
        TKT_RELEASE(a, b, want, got, a64, b64, want64, got64);
    }
}
END_TEST

/* b given as a transposed view runs the nt kernels in place; a non-contiguous a is copied. */
START_TEST(matmul_views)
{
    tk_tensor *a = tkt_fx("mm_37x29x53", "a"), *b = tkt_fx("mm_37x29x53", "b"), *want = tkt_fx("mm_37x29x53", "out");
    tk_tensor *bt, *btt, *btc, *got;
    TKT_OK(tk_transpose(tkt_ctx, b, 0, 1, &bt));    /* [53, 29] view */
    TKT_OK(tk_contiguous(tkt_ctx, bt, &btc));       /* [53, 29] contiguous */
    TKT_OK(tk_transpose(tkt_ctx, btc, 0, 1, &btt)); /* [29, 53] view of it: the nt case */
    ck_assert(!tk_tensor_is_contiguous(btt));
    TKT_OK(tk_matmul(tkt_ctx, a, btt, &got));
    expect_product(got, want, 29, "a @ (b.T contiguous).T");
    tk_tensor *at, *atc, *att, *got2;
    TKT_OK(tk_transpose(tkt_ctx, a, 0, 1, &at));
    TKT_OK(tk_contiguous(tkt_ctx, at, &atc));
    TKT_OK(tk_transpose(tkt_ctx, atc, 0, 1, &att));
    TKT_OK(tk_matmul(tkt_ctx, att, btt, &got2));
    expect_product(got2, want, 29, "both transposed views");
    TKT_RELEASE(a, b, want, bt, btt, btc, got, at, atc, att, got2);
}
END_TEST

START_TEST(matmul_bf16_and_int)
{
    const char *cases[] = { "mm_bf16_33x45x50", "mm_bf16_batched" };
    for (int i = 0; i < 2; i++) {
        tk_tensor *a = tkt_fx(cases[i], "a"), *b = tkt_fx(cases[i], "b"), *want = tkt_fx(cases[i], "out"), *got;
        TKT_OK(tk_matmul(tkt_ctx, a, b, &got));
        /* one rounding to bf16 (2^-8 relative) plus f32 accumulation */
        tkt_expect_close(got, want, 1.0 / 128, 1e-2, true, cases[i]);
        TKT_RELEASE(a, b, want, got);
    }
    tk_tensor *a = tkt_fx("mm_i64", "a"), *b = tkt_fx("mm_i64", "b"), *want = tkt_fx("mm_i64", "out"), *got;
    TKT_OK(tk_matmul(tkt_ctx, a, b, &got));
    tkt_expect_equal(got, want, "i64 matmul");
    TKT_RELEASE(a, b, want, got);
}
END_TEST

START_TEST(matmul_errors)
{
    tk_tensor *a, *b, *c = NULL, *h;
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 2, (int64_t[]){ 3, 4 }, &a));
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 2, (int64_t[]){ 5, 6 }, &b));
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_BF16, 2, (int64_t[]){ 4, 6 }, &h));
    TKT_FAILS(tk_matmul(tkt_ctx, a, b, &c), TK_ERR_SHAPE, "[3, 4] and [5, 6]");
    ck_assert_ptr_null(c);
    TKT_FAILS(tk_matmul(tkt_ctx, a, h, &c), TK_ERR_DTYPE, "bf16");
    TKT_FAILS(tk_matmul(tkt_ctx, a, NULL, &c), TK_ERR_INVALID_ARGUMENT, "b is NULL");
    TKT_FAILS(tk_bmm(tkt_ctx, a, b, &c), TK_ERR_SHAPE, "[B, M, K]");
    TKT_FAILS(tk_linear(tkt_ctx, a, b, NULL, &c), TK_ERR_SHAPE, "weight");
    TKT_RELEASE(a, b, h);
}
END_TEST

START_TEST(matmul_thread_identity)
{
    tk_tensor *a = tkt_fx("mm_300x270x290", "a"), *b = tkt_fx("mm_300x270x290", "b"), *one, *two;
    TKT_OK(tk_context_set_threads(tkt_ctx, 1));
    TKT_OK(tk_matmul(tkt_ctx, a, b, &one));
    TKT_OK(tk_context_set_threads(tkt_ctx, 2));
    TKT_OK(tk_matmul(tkt_ctx, a, b, &two));
    tkt_expect_equal(one, two, "matmul on 1 and 2 threads");
    TKT_RELEASE(a, b, one, two);
}
END_TEST

START_TEST(linear_matches_torch)
{
    tk_tensor *x = tkt_fx("linear", "x"), *w = tkt_fx("linear", "w"), *bias = tkt_fx("linear", "bias");
    tk_tensor *want = tkt_fx("linear", "out"), *want_nb = tkt_fx("linear", "out_nobias"), *got, *got_nb;
    TKT_OK(tk_linear(tkt_ctx, x, w, bias, &got));
    expect_product(got, want, 40, "linear");
    TKT_OK(tk_linear(tkt_ctx, x, w, NULL, &got_nb));
    expect_product(got_nb, want_nb, 40, "linear without bias");
    tk_tensor *x64, *w64, *b64, *got64, *want64 = tkt_fx("linear", "out64");
    TKT_OK(tk_to_dtype(tkt_ctx, x, TK_DTYPE_F64, &x64));
    TKT_OK(tk_to_dtype(tkt_ctx, w, TK_DTYPE_F64, &w64));
    TKT_OK(tk_to_dtype(tkt_ctx, bias, TK_DTYPE_F64, &b64));
    TKT_OK(tk_linear(tkt_ctx, x64, w64, b64, &got64));
    tkt_expect_close(got64, want64, 1e-6, 1e-6, true, "linear f64");
    TKT_RELEASE(x, w, bias, want, want_nb, got, got_nb, x64, w64, b64, got64, want64);
    tk_tensor *xb = tkt_fx("linear_bf16", "x"), *wb = tkt_fx("linear_bf16", "w"), *bb = tkt_fx("linear_bf16", "bias");
    tk_tensor *wantb = tkt_fx("linear_bf16", "out"), *gotb;
    TKT_OK(tk_linear(tkt_ctx, xb, wb, bb, &gotb));
    tkt_expect_close(gotb, wantb, 1.0 / 128, 1e-2, true, "linear bf16");
    TKT_RELEASE(xb, wb, bb, wantb, gotb);
}
END_TEST

START_TEST(norms_match_torch)
{
    tk_tensor *x = tkt_fx("layer_norm", "x"), *w = tkt_fx("layer_norm", "w"), *b = tkt_fx("layer_norm", "b");
    tk_tensor *want = tkt_fx("layer_norm", "out"), *want_plain = tkt_fx("layer_norm", "out_plain"), *got, *got_plain;
    TKT_OK(tk_layer_norm(tkt_ctx, x, 1, w, b, 1e-5, &got));
    tkt_expect_close(got, want, 1e-5, 1e-5, true, "layer_norm");
    TKT_OK(tk_layer_norm(tkt_ctx, x, 2, NULL, NULL, 1e-5, &got_plain));
    tkt_expect_close(got_plain, want_plain, 1e-5, 1e-5, true, "layer_norm over 2 dims, no affine");
    tk_tensor *x64, *got64, *want64 = tkt_fx("layer_norm", "out64");
    TKT_OK(tk_to_dtype(tkt_ctx, x, TK_DTYPE_F64, &x64));
    TKT_OK(tk_layer_norm(tkt_ctx, x64, 1, w, b, 1e-5, &got64));
    tkt_expect_close(got64, want64, 1e-6, 1e-6, true, "layer_norm f64");
    TKT_RELEASE(x, w, b, want, want_plain, got, got_plain, x64, got64, want64);

    tk_tensor *xb = tkt_fx("layer_norm_bf16", "x"), *wb = tkt_fx("layer_norm_bf16", "w"), *wantb = tkt_fx("layer_norm_bf16", "out"), *gotb;
    TKT_OK(tk_layer_norm(tkt_ctx, xb, 1, wb, NULL, 1e-6, &gotb));
    tkt_expect_close(gotb, wantb, 1.0 / 128, 1e-2, true, "layer_norm bf16");
    TKT_RELEASE(xb, wb, wantb, gotb);

    tk_tensor *xr = tkt_fx("rms_norm", "x"), *wr = tkt_fx("rms_norm", "w"), *wantr = tkt_fx("rms_norm", "out"), *gotr;
    TKT_OK(tk_rms_norm(tkt_ctx, xr, 1, wr, 1e-6, &gotr));
    tkt_expect_close(gotr, wantr, 1e-5, 1e-5, true, "rms_norm");
    TKT_RELEASE(xr, wr, wantr, gotr);
    tk_tensor *xrb = tkt_fx("rms_norm_bf16", "x"), *wantrb = tkt_fx("rms_norm_bf16", "out"), *gotrb;
    TKT_OK(tk_rms_norm(tkt_ctx, xrb, 1, NULL, 1e-5, &gotrb));
    tkt_expect_close(gotrb, wantrb, 1.0 / 128, 1e-2, true, "rms_norm bf16");
    TKT_RELEASE(xrb, wantrb, gotrb);

    tk_tensor *bad = NULL;
    tk_tensor *xx = tkt_fx("layer_norm", "x"), *ww = tkt_fx("rms_norm", "w");
    TKT_FAILS(tk_layer_norm(tkt_ctx, xx, 1, ww, NULL, 1e-5, &bad), TK_ERR_SHAPE, "weight [70]");
    TKT_FAILS(tk_layer_norm(tkt_ctx, xx, 4, NULL, NULL, 1e-5, &bad), TK_ERR_SHAPE, "normalized_ndim 4");
    TKT_FAILS(tk_rms_norm(tkt_ctx, xx, 1, NULL, -1, &bad), TK_ERR_INVALID_ARGUMENT, "eps");
    ck_assert_ptr_null(bad);
    TKT_RELEASE(xx, ww);
}
END_TEST

/* A weight marked constant is packed once and read by the packed kernels at
 * every M regime (decode rows, m32, full tiles); results match the plain path. */
START_TEST(linear_packed_weight)
{
    const tk_dtype types[2] = { TK_DTYPE_F32, TK_DTYPE_BF16 };
    const int64_t rows[3] = { 1, 40, 300 };
    for (int t = 0; t < 2; t++) {
        tk_tensor *w, *b;
        TKT_OK(tk_randn(tkt_ctx, types[t], 2, (int64_t[]){ 300, 270 }, 11, &w));   /* [out, in], ragged planes */
        TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 1, (int64_t[]){ 300 }, 12, &b));
        for (int r = 0; r < 3; r++) {
            tk_tensor *x, *plain, *packed;
            TKT_OK(tk_randn(tkt_ctx, types[t], 2, (int64_t[]){ rows[r], 270 }, 13 + r, &x));
            TKT_OK(tk_linear(tkt_ctx, x, w, b, &plain));
            TKT_OK(tk_mark_weight(tkt_ctx, w));
            TKT_OK(tk_linear(tkt_ctx, x, w, b, &packed));
            double tol = types[t] == TK_DTYPE_BF16 ? 1.0 / 128 : 1e-4;
            tkt_expect_close(packed, plain, tol, tol, true, types[t] == TK_DTYPE_BF16 ? "packed bf16" : "packed f32");
            TKT_RELEASE(x, plain, packed);
        }
        TKT_RELEASE(w, b);
    }
}
END_TEST

/* A marked matmul B [K, N] (an ONNX MatMul's weight) runs the packed kernels,
 * batch dims folded into M, and matches the unmarked path; a strided view as
 * B packs from its strides. */
START_TEST(matmul_packed_weight)
{
    const tk_dtype types[2] = { TK_DTYPE_F32, TK_DTYPE_BF16 };
    const int64_t rows[3] = { 1, 33, 290 };
    for (int t = 0; t < 2; t++) {
        tk_tensor *b, *bt_base, *bt;
        TKT_OK(tk_randn(tkt_ctx, types[t], 2, (int64_t[]){ 270, 300 }, 21, &b));
        TKT_OK(tk_randn(tkt_ctx, types[t], 2, (int64_t[]){ 300, 270 }, 22, &bt_base));
        TKT_OK(tk_transpose(tkt_ctx, bt_base, 0, 1, &bt));   /* [270, 300], not contiguous */
        tk_tensor *bs[2] = { b, bt };
        for (int v = 0; v < 2; v++)
            for (int r = 0; r < 3; r++) {
                tk_tensor *x, *plain, *packed;
                TKT_OK(tk_randn(tkt_ctx, types[t], 3, (int64_t[]){ 2, rows[r], 270 }, 23 + r, &x));
                TKT_OK(tk_matmul(tkt_ctx, x, bs[v], &plain));
                TKT_OK(tk_mark_weight(tkt_ctx, bs[v]));
                TKT_OK(tk_matmul(tkt_ctx, x, bs[v], &packed));
                double tol = types[t] == TK_DTYPE_BF16 ? 1.0 / 64 : 1e-4;
                tkt_expect_close(packed, plain, tol, tol, true, "matmul with a packed B");
                TKT_RELEASE(x, plain, packed);
            }
        TKT_RELEASE(b, bt_base, bt);
    }
}
END_TEST

/* Attention on the flash and decode kernels, and the plain loop for f64. */
START_TEST(sdpa_matches_torch)
{
    const struct {
        const char *name;
        bool causal, mask;
        double scale;
    } cases[] = { { "sdpa_causal", true, false, 0 }, { "sdpa_mask", false, true, 0 },   { "sdpa_padmask", false, true, 0 },
                  { "sdpa_cache", true, false, 0 },  { "sdpa_decode", false, false, 0 }, { "sdpa_decode_d100", false, false, 0.3 } };
    for (unsigned i = 0; i < sizeof cases / sizeof *cases; i++) {
        tk_tensor *q = tkt_fx(cases[i].name, "q"), *k = tkt_fx(cases[i].name, "k"), *v = tkt_fx(cases[i].name, "v");
        tk_tensor *m = cases[i].mask ? tkt_fx(cases[i].name, "mask") : NULL;
        tk_tensor *want = tkt_fx(cases[i].name, "out"), *got;
        tk_sdpa_opts o = { .causal = cases[i].causal, .mask = m, .has_scale = cases[i].scale != 0, .scale = cases[i].scale };
        TKT_OK(tk_sdpa(tkt_ctx, q, k, v, &o, &got));
        tkt_expect_close(got, want, 1e-4, 1e-5, true, cases[i].name);
        /* the plain loop in double agrees with the f64 reference */
        tk_tensor *q64, *k64, *v64, *got64, *want64 = tkt_fx(cases[i].name, "out64");
        TKT_OK(tk_to_dtype(tkt_ctx, q, TK_DTYPE_F64, &q64));
        TKT_OK(tk_to_dtype(tkt_ctx, k, TK_DTYPE_F64, &k64));
        TKT_OK(tk_to_dtype(tkt_ctx, v, TK_DTYPE_F64, &v64));
        TKT_OK(tk_sdpa(tkt_ctx, q64, k64, v64, &o, &got64));
        tkt_expect_close(got64, want64, 1e-6, 1e-6, true, cases[i].name);
        TKT_RELEASE(q, k, v, m, want, got, q64, k64, v64, got64, want64);
    }
    /* decode with split keys and a causal prefill: the same bits on 1 and 2 threads */
    const char *det[2] = { "sdpa_decode", "sdpa_causal" };
    for (int i = 0; i < 2; i++) {
        tk_tensor *q = tkt_fx(det[i], "q"), *k = tkt_fx(det[i], "k"), *v = tkt_fx(det[i], "v"), *one, *two;
        TKT_OK(tk_context_set_threads(tkt_ctx, 1));
        TKT_OK(tk_sdpa(tkt_ctx, q, k, v, &(tk_sdpa_opts){ .causal = i == 1 }, &one));
        TKT_OK(tk_context_set_threads(tkt_ctx, 2));
        TKT_OK(tk_sdpa(tkt_ctx, q, k, v, &(tk_sdpa_opts){ .causal = i == 1 }, &two));
        tkt_expect_equal(one, two, det[i]);
        TKT_RELEASE(q, k, v, one, two);
    }
    tk_tensor *q = tkt_fx("sdpa_bf16", "q"), *k = tkt_fx("sdpa_bf16", "k"), *v = tkt_fx("sdpa_bf16", "v");
    tk_tensor *want = tkt_fx("sdpa_bf16", "out"), *got, *bad = NULL;
    TKT_OK(tk_sdpa(tkt_ctx, q, k, v, &(tk_sdpa_opts){ .causal = true }, &got));
    tkt_expect_close(got, want, 1.0 / 64, 1e-2, true, "sdpa bf16");
    TKT_FAILS(tk_sdpa(tkt_ctx, q, q, v, NULL, &bad), TK_ERR_SHAPE, "do not fit");
    tk_tensor *k3;
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_BF16, 4, (int64_t[]){ 1, 3, 33, 96 }, &k3));
    TKT_FAILS(tk_sdpa(tkt_ctx, q, k3, k3, NULL, &bad), TK_ERR_SHAPE, "multiple of HKV");
    ck_assert_ptr_null(bad);
    TKT_RELEASE(q, k, v, want, got, k3);
}
END_TEST

/* The fused FFN (both activations) at a full size and at a decode size, where
 * two threads split F: the same bits on 1 and 2 threads. */
START_TEST(ffn_matches_torch)
{
    const char *cases[] = { "ffn_37x70x300", "ffn_decode_3x64x600" };
    for (int i = 0; i < 2; i++) {
        tk_tensor *x = tkt_fx(cases[i], "x"), *w1 = tkt_fx(cases[i], "w1"), *w3 = tkt_fx(cases[i], "w3"), *w2 = tkt_fx(cases[i], "w2");
        tk_tensor *b1 = tkt_fx(cases[i], "b1"), *b2 = tkt_fx(cases[i], "b2"), *ws = tkt_fx(cases[i], "swiglu"), *wg = tkt_fx(cases[i], "gelu");
        tk_tensor *ys, *yg, *y1;
        TKT_OK(tk_context_set_threads(tkt_ctx, 2));
        TKT_OK(tk_ffn(tkt_ctx, x, w1, w3, w2, NULL, &ys));
        tkt_expect_close(ys, ws, 1e-4, 1e-4, true, cases[i]);
        TKT_OK(tk_ffn(tkt_ctx, x, w1, NULL, w2, &(tk_ffn_opts){ .activation = TK_FFN_GELU_TANH, .b1 = b1, .b2 = b2 }, &yg));
        tkt_expect_close(yg, wg, 1e-4, 1e-4, true, cases[i]);
        TKT_OK(tk_context_set_threads(tkt_ctx, 1));
        TKT_OK(tk_ffn(tkt_ctx, x, w1, w3, w2, NULL, &y1));
        tkt_expect_equal(y1, ys, "ffn on 1 and 2 threads");
        tk_tensor *bad = NULL;
        TKT_FAILS(tk_ffn(tkt_ctx, x, w2, w3, w1, NULL, &bad), TK_ERR_SHAPE, "do not fit");
        ck_assert_ptr_null(bad);
        TKT_RELEASE(x, w1, w3, w2, b1, b2, ws, wg, ys, yg, y1);
    }
}
END_TEST

static const char scale_src[] =
    "kernel scale_add(gl<f32, M, N> X, gl<f32, M, N> Y, f32 a) grid(cdiv(N, 64), cdiv(M, 16)) {\n"
    "    rt<f32, 16, 64> x = load(X, block.y, block.x);\n"
    "    store(Y, x * a + x, block.y, block.x);\n"
    "}\n";

/* A user's kernel on tensors: contiguous and non-contiguous (copied in and
 * back), its errors named, and the profile records the kernel. */
START_TEST(call_user_kernel)
{
    tk_program *p;
    char *diags = NULL;
    ck_assert_int_eq(tk_compile_source("scale_add.tk", scale_src, strlen(scale_src), NULL, &p, &diags), TK_OK);
    tk_kernel *k = tk_program_kernel(p, "scale_add");
    ck_assert_ptr_nonnull(k);
    tk_profile_enable(tkt_ctx, true);
    tk_tensor *x, *y, *yt, *xt;
    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 2, (int64_t[]){ 37, 100 }, 5, &x));
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 2, (int64_t[]){ 37, 100 }, &y));
    TKT_OK(tk_call(tkt_ctx, k, (tk_call_arg[]){ TK_CALL_TENSOR(x), TK_CALL_TENSOR(y), TK_CALL_F32(0.5) }, 3));
    const float *px = tk_tensor_data(x), *py = tk_tensor_data(y);
    for (int i = 0; i < 3700; i++) ck_assert_float_eq_tol(py[i], 1.5f * px[i], 1e-6f * (1 + fabsf(px[i])));
    /* transposed views: [100, 37] of [37, 100] tensors, copied in and the output copied back */
    TKT_OK(tk_transpose(tkt_ctx, x, 0, 1, &xt));
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 2, (int64_t[]){ 37, 100 }, &yt));
    tk_tensor *ytv;
    TKT_OK(tk_transpose(tkt_ctx, yt, 0, 1, &ytv));
    TKT_OK(tk_call(tkt_ctx, k, (tk_call_arg[]){ TK_CALL_TENSOR(xt), TK_CALL_TENSOR(ytv), TK_CALL_F32(2.0) }, 3));
    const float *pyt = tk_tensor_data(yt);
    for (int i = 0; i < 3700; i++) ck_assert_float_eq_tol(pyt[i], 3.0f * px[i], 1e-6f * (1 + fabsf(px[i])));
    tk_profile_record recs[16];
    size_t n = tk_profile_records(tkt_ctx, recs, 16);
    bool seen = false;
    for (size_t i = 0; i < n && i < 16; i++) seen |= strcmp(recs[i].name, "scale_add") == 0 && recs[i].count == 2;
    ck_assert_msg(seen, "the profile has no record of scale_add launched twice");
    /* errors */
    tk_tensor *h, *v;
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_BF16, 2, (int64_t[]){ 37, 100 }, &h));
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 1, (int64_t[]){ 100 }, &v));
    TKT_FAILS(tk_call(tkt_ctx, k, (tk_call_arg[]){ TK_CALL_TENSOR(h), TK_CALL_TENSOR(y), TK_CALL_F32(1) }, 3), TK_ERR_DTYPE, "bf16");
    TKT_FAILS(tk_call(tkt_ctx, k, (tk_call_arg[]){ TK_CALL_TENSOR(v), TK_CALL_TENSOR(y), TK_CALL_F32(1) }, 3), TK_ERR_SHAPE, "1 dims");
    TKT_FAILS(tk_call(tkt_ctx, k, (tk_call_arg[]){ TK_CALL_TENSOR(x), TK_CALL_TENSOR(y) }, 2), TK_ERR_INVALID_ARGUMENT, "takes 3");
    TKT_FAILS(tk_call(tkt_ctx, k, (tk_call_arg[]){ TK_CALL_TENSOR(x), TK_CALL_TENSOR(y), TK_CALL_I32(1) }, 3), TK_ERR_INVALID_ARGUMENT,
              "f32");
    TKT_FAILS(tk_call(tkt_ctx, k, (tk_call_arg[]){ TK_CALL_TENSOR(x), TK_CALL_F32(1), TK_CALL_F32(1) }, 3), TK_ERR_INVALID_ARGUMENT,
              "needs a tensor");
    TKT_FAILS(tk_call(tkt_ctx, k, (tk_call_arg[]){ TK_CALL_TENSOR(x), TK_CALL_TENSOR(ytv), TK_CALL_F32(1) }, 3), TK_ERR_SHAPE,
              "do not fit");
    TKT_RELEASE(x, y, yt, xt, ytv, h, v);
    tk_program_free(p);
}
END_TEST

/* Small products take narrow tiles (<16,32,32>, <16,64,64>, <64,64,64>) and
 * small marked weights stay unpacked: every such path against a double loop,
 * batched and not, on sizes that are not multiples of the tiles. */
START_TEST(small_products_against_double_loops)
{
    const int64_t shapes[][4] = { { 32, 10, 16, 10 }, { 1, 5, 30, 31 }, { 3, 16, 64, 50 }, { 1, 17, 30, 30 }, { 2, 80, 64, 64 } };
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        int64_t bt = shapes[i][0], m = shapes[i][1], k = shapes[i][2], n = shapes[i][3];
        tk_tensor *a, *b, *w, *c, *l;
        TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 3, (int64_t[]){ bt, m, k }, 100 + i, &a));
        TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 3, (int64_t[]){ bt, k, n }, 200 + i, &b));
        TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 2, (int64_t[]){ n, k }, 300 + i, &w));
        TKT_OK(tk_matmul(tkt_ctx, a, b, &c));
        TKT_OK(tk_mark_weight(tkt_ctx, w));   /* a model's small projection */
        TKT_OK(tk_linear(tkt_ctx, a, w, NULL, &l));
        const float *ap = tk_tensor_data(a), *bp = tk_tensor_data(b), *wp = tk_tensor_data(w);
        const float *cp = tk_tensor_data(c), *lp = tk_tensor_data(l);
        double worst_c = 0, worst_l = 0;
        for (int64_t t = 0; t < bt; t++)
            for (int64_t r = 0; r < m; r++)
                for (int64_t j = 0; j < n; j++) {
                    double sc = 0, sl = 0;
                    for (int64_t q = 0; q < k; q++) {
                        sc += (double)ap[(t * m + r) * k + q] * bp[(t * k + q) * n + j];
                        sl += (double)ap[(t * m + r) * k + q] * wp[j * k + q];
                    }
                    worst_c = fmax(worst_c, fabs(cp[(t * m + r) * n + j] - sc));
                    worst_l = fmax(worst_l, fabs(lp[(t * m + r) * n + j] - sl));
                }
        /* f32 products of K standard normals: errors grow like sqrt(K) ulps of the sums */
        ck_assert_msg(worst_c < 1e-4 * sqrt((double)k) && worst_l < 1e-4 * sqrt((double)k), "%lldx%lldx%lldx%lld: matmul off by %g, linear by %g",
                      (long long)bt, (long long)m, (long long)k, (long long)n, worst_c, worst_l);
        TKT_RELEASE(a, b, w, c, l);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("tensor_nn");
    TCase *tc = tkt_case("nn");
    tcase_add_test(tc, matmul_shapes);
    tcase_add_test(tc, matmul_views);
    tcase_add_test(tc, matmul_bf16_and_int);
    tcase_add_test(tc, matmul_errors);
    tcase_add_test(tc, matmul_thread_identity);
    tcase_add_test(tc, small_products_against_double_loops);
    tcase_add_test(tc, linear_matches_torch);
    tcase_add_test(tc, linear_packed_weight);
    tcase_add_test(tc, matmul_packed_weight);
    tcase_add_test(tc, norms_match_torch);
    tcase_add_test(tc, sdpa_matches_torch);
    tcase_add_test(tc, ffn_matches_torch);
    tcase_add_test(tc, call_user_kernel);
    suite_add_tcase(s, tc);
    return s;
}

TKT_MAIN(suite)
