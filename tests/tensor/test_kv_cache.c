/* test_kv_cache.c — tk_sdpa (decode and prefill) on a preallocated KV cache (the "static cache"
 * idiom, docs/TENSOR_API.md "KV cache"): k and v are prefix views
 * tk_slice(cache, 2, 0, L) of [B, HKV, SMAX, D] caches whose rows past L hold
 * NaN. The kernels must read the cache in place (the profile names the _len
 * kernel), give the same bits as the same call on contiguous copies (same
 * kernels, same NS, same order), match a double loop, never let the NaN rows
 * reach the output, and give the same bits on 1 and 2 threads. Views that are
 * not prefixes (a window that starts past row 0, a sequence-major cache
 * permuted to [B, HKV, L, D]) are copied and still right. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* A cache [B, HKV, SMAX, D] full of NaN with rows [0, L) = src [B, HKV, L, D]
 * written as a model's decode loop does (tk_copy_ into a slice); the prefix
 * view of its first L rows into *view. */
static void make_cache(const tk_tensor *src, int64_t smax, tk_tensor **cache, tk_tensor **view)
{
    const int64_t *sh = tk_tensor_shape(src);
    int64_t shape[4] = { sh[0], sh[1], smax, sh[3] };
    tk_tensor *rows;
    TKT_OK(tk_full(tkt_ctx, tk_tensor_dtype(src), 4, shape, NAN, cache));
    TKT_OK(tk_slice(tkt_ctx, *cache, 2, 0, sh[2], 1, &rows));
    TKT_OK(tk_copy_(tkt_ctx, rows, src));
    tk_tensor_release(rows);
    TKT_OK(tk_slice(tkt_ctx, *cache, 2, 0, sh[2], 1, view));
}

/* The reference in double: O[b,h,i,:] = softmax_j(scale·q·k_j + mask[i, j]) v_j
 * over the keys j <= i + L - S when causal (bottom-right), from contiguous q,
 * k, v; mask NULL or an additive f32 [S, L]. */
static tk_tensor *reference(const tk_tensor *q, const tk_tensor *k, const tk_tensor *v, bool causal, const tk_tensor *mask)
{
    tk_tensor *q64, *k64, *v64, *o64;
    TKT_OK(tk_to_dtype(tkt_ctx, q, TK_DTYPE_F64, &q64));
    TKT_OK(tk_to_dtype(tkt_ctx, k, TK_DTYPE_F64, &k64));
    TKT_OK(tk_to_dtype(tkt_ctx, v, TK_DTYPE_F64, &v64));
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F64, 4, tk_tensor_shape(q), &o64));
    const int64_t *qs = tk_tensor_shape(q), *ks = tk_tensor_shape(k);
    int64_t B = qs[0], H = qs[1], S = qs[2], D = qs[3], HKV = ks[1], L = ks[2];
    const double *Q = tk_tensor_data(q64), *K = tk_tensor_data(k64), *V = tk_tensor_data(v64);
    double *O = tk_tensor_data(o64), scale = 1.0 / sqrt((double)D);
    double *w = malloc(sizeof(double) * (size_t)L);
    ck_assert_ptr_nonnull(w);
    for (int64_t b = 0; b < B; b++)
        for (int64_t h = 0; h < H; h++) {
            int64_t kh = h / (H / HKV);
            for (int64_t i = 0; i < S; i++) {
                const double *qr = Q + ((b * H + h) * S + i) * D;
                double m = -INFINITY, sum = 0;
                for (int64_t j = 0; j < L; j++) {
                    double s = 0;
                    for (int64_t d = 0; d < D; d++) s += qr[d] * K[((b * HKV + kh) * L + j) * D + d];
                    w[j] = causal && j > i + L - S ? -INFINITY : s * scale + (mask ? ((const float *)tk_tensor_data(mask))[i * L + j] : 0);
                    m = fmax(m, w[j]);
                }
                for (int64_t j = 0; j < L; j++) sum += w[j] = exp(w[j] - m);
                double *orow = O + ((b * H + h) * S + i) * D;
                for (int64_t j = 0; j < L; j++)
                    for (int64_t d = 0; d < D; d++) orow[d] += w[j] / sum * V[((b * HKV + kh) * L + j) * D + d];
            }
        }
    free(w);
    TKT_RELEASE(q64, k64, v64);
    return o64;
}

/* Whether the profile holds a kernel launch named `name` (since the last reset). */
static bool launched(const char *name)
{
    tk_profile_record rec[64];
    size_t n = tk_profile_records(tkt_ctx, rec, 64);
    for (size_t i = 0; i < n && i < 64; i++)
        if (strcmp(rec[i].kind, "kernel") == 0 && strcmp(rec[i].name, name) == 0) return true;
    return false;
}

typedef struct {
    const char *label;
    tk_dtype dtype;
    int64_t b, h, hkv, s, l, smax, d;
    bool causal;
    const char *kernel;   /* the kernel the prefix view must launch */
} Case;

/* The case on prefix views: the _len kernel ran; the same bits as on the
 * contiguous sources; close to the double loop (no NaN from the cache). */
static void check_case(const Case *c, uint64_t seed)
{
    tk_tensor *q, *k, *v, *kcache, *vcache, *kview, *vview, *on_view = NULL, *on_copy = NULL, *want;
    TKT_OK(tk_rand(tkt_ctx, c->dtype, 4, (int64_t[]){ c->b, c->h, c->s, c->d }, seed, -1, 1, &q));
    TKT_OK(tk_rand(tkt_ctx, c->dtype, 4, (int64_t[]){ c->b, c->hkv, c->l, c->d }, seed + 1, -1, 1, &k));
    TKT_OK(tk_rand(tkt_ctx, c->dtype, 4, (int64_t[]){ c->b, c->hkv, c->l, c->d }, seed + 2, -1, 1, &v));
    make_cache(k, c->smax, &kcache, &kview);
    make_cache(v, c->smax, &vcache, &vview);
    ck_assert(!tk_tensor_is_contiguous(kview));
    tk_sdpa_opts o = { .causal = c->causal };
    tk_profile_enable(tkt_ctx, true);
    tk_profile_reset(tkt_ctx);
    TKT_OK(tk_sdpa(tkt_ctx, q, kview, vview, &o, &on_view));
    ck_assert_msg(launched(c->kernel), "%s: the prefix view did not run %s in place", c->label, c->kernel);
    tk_profile_enable(tkt_ctx, false);
    tk_profile_reset(tkt_ctx);   /* nothing left to print when the context is freed */
    TKT_OK(tk_sdpa(tkt_ctx, q, k, v, &o, &on_copy));
    tkt_expect_equal(on_view, on_copy, c->label);
    want = reference(q, k, v, c->causal, NULL);
    double rtol, atol;
    tkt_tolerance(c->dtype, &rtol, &atol);
    if (c->dtype == TK_DTYPE_BF16) rtol = 1.0 / 64, atol = 1e-2;   /* P rounded to bf16 before P·V, O rounded */
    tkt_expect_close(on_view, want, rtol, atol, false, c->label);
    /* 1 and 2 threads: the same bits (NS comes from the sizes alone) */
    tk_tensor *one = NULL, *two = NULL;
    TKT_OK(tk_context_set_threads(tkt_ctx, 1));
    TKT_OK(tk_sdpa(tkt_ctx, q, kview, vview, &o, &one));
    TKT_OK(tk_context_set_threads(tkt_ctx, 2));
    TKT_OK(tk_sdpa(tkt_ctx, q, kview, vview, &o, &two));
    tkt_expect_equal(one, two, c->label);
    TKT_RELEASE(q, k, v, kcache, vcache, kview, vview, on_view, on_copy, want, one, two);
}

/* Decode (one query row): f32 and bf16, both head-dim kernels, GQA, NS = 1
 * and NS > 1 (L = 513 and 600 split in two), L = 1 and L at a tile edge + 1. */
START_TEST(decode_on_prefix_view)
{
    const Case cases[] = {
        { "f32 d64 gqa L=513 (NS 2)", TK_DTYPE_F32, 2, 4, 2, 1, 513, 700, 64, false, "attention_decode_f32_d64_len" },
        { "f32 d64 L=1", TK_DTYPE_F32, 1, 2, 2, 1, 1, 64, 64, false, "attention_decode_f32_d64_len" },
        { "f32 d100 L=257", TK_DTYPE_F32, 1, 6, 3, 1, 257, 300, 100, false, "attention_decode_f32_d128_len" },
        { "bf16 d40 gqa L=600 (NS 2)", TK_DTYPE_BF16, 1, 6, 3, 1, 600, 1000, 40, false, "attention_decode_bf16_d64_len" },
        { "bf16 d128 L=17", TK_DTYPE_BF16, 2, 2, 1, 1, 17, 520, 128, false, "attention_decode_bf16_d128_len" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) check_case(&cases[i], 100 + 10 * i);
}
END_TEST

/* Prefill with a cache (S new rows after L - S cached ones): causal bottom-right
 * on the live length L, f32 and bf16, both head-dim kernels, GQA, L at a
 * 128-key tile edge + 1. */
START_TEST(prefill_on_prefix_view)
{
    const Case cases[] = {
        { "f32 d64 gqa causal S=17 L=117", TK_DTYPE_F32, 2, 4, 2, 17, 117, 300, 64, true, "attention_f32_d64_len" },
        { "f32 d128 causal S=65 L=129", TK_DTYPE_F32, 1, 2, 2, 65, 129, 200, 128, true, "attention_f32_d128_len" },
        { "f32 d64 not causal S=5 L=40", TK_DTYPE_F32, 1, 3, 3, 5, 40, 64, 33, false, "attention_f32_d64_len" },
        { "bf16 d64 gqa causal S=33 L=300", TK_DTYPE_BF16, 1, 6, 2, 33, 300, 512, 64, true, "attention_bf16_d64_len" },
        { "bf16 d100 causal S=9 L=9", TK_DTYPE_BF16, 2, 2, 1, 9, 9, 40, 100, true, "attention_bf16_d128_len" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) check_case(&cases[i], 500 + 10 * i);
}
END_TEST

/* An additive mask [S, L] with a prefix view (the prefill _len kernel, whose
 * mask is L wide): decode (S = 1 with a mask takes the prefill kernels) and
 * S = 20; the bits of the contiguous call and the double loop. */
START_TEST(masked_on_prefix_view)
{
    const int64_t rows[2] = { 1, 20 };
    for (int r = 0; r < 2; r++) {
        int64_t b = 1, h = 4, hkv = 2, s = rows[r], l = 150, smax = 256, d = 64;
        tk_tensor *q, *k, *v, *mask, *kcache, *vcache, *kview, *vview, *on_view, *on_copy, *want;
        TKT_OK(tk_rand(tkt_ctx, TK_DTYPE_F32, 4, (int64_t[]){ b, h, s, d }, 31, -1, 1, &q));
        TKT_OK(tk_rand(tkt_ctx, TK_DTYPE_F32, 4, (int64_t[]){ b, hkv, l, d }, 32, -1, 1, &k));
        TKT_OK(tk_rand(tkt_ctx, TK_DTYPE_F32, 4, (int64_t[]){ b, hkv, l, d }, 33, -1, 1, &v));
        TKT_OK(tk_rand(tkt_ctx, TK_DTYPE_F32, 2, (int64_t[]){ s, l }, 34, -2, 2, &mask));
        make_cache(k, smax, &kcache, &kview);
        make_cache(v, smax, &vcache, &vview);
        tk_sdpa_opts o = { .causal = true, .mask = mask };
        tk_profile_enable(tkt_ctx, true);
        tk_profile_reset(tkt_ctx);
        TKT_OK(tk_sdpa(tkt_ctx, q, kview, vview, &o, &on_view));
        ck_assert_msg(launched("attention_f32_d64_len"), "S=%lld: a masked call on a prefix view did not run attention_f32_d64_len", (long long)s);
        tk_profile_enable(tkt_ctx, false);
        tk_profile_reset(tkt_ctx);   /* nothing left to print when the context is freed */
        TKT_OK(tk_sdpa(tkt_ctx, q, k, v, &o, &on_copy));
        tkt_expect_equal(on_view, on_copy, "masked");
        want = reference(q, k, v, true, mask);
        tkt_expect_close(on_view, want, 1e-5, 1e-6, false, "masked");
        TKT_RELEASE(q, k, v, mask, kcache, vcache, kview, vview, on_view, on_copy, want);
    }
}
END_TEST

/* Views that are not prefixes of a [B, HKV, SMAX, D] cache are copied (the
 * plain kernels run) and still right: a window starting at row 3 (its last
 * head would run past the buffer), and a sequence-major [B, SMAX, HKV, D]
 * cache permuted to [B, HKV, L, D]. */
START_TEST(other_views_are_copied)
{
    int64_t b = 2, h = 4, hkv = 2, l = 40, smax = 64, d = 64;
    tk_tensor *q, *cache, *window, *got, *want, *kc;
    TKT_OK(tk_rand(tkt_ctx, TK_DTYPE_F32, 4, (int64_t[]){ b, h, 1, d }, 7, -1, 1, &q));
    TKT_OK(tk_rand(tkt_ctx, TK_DTYPE_F32, 4, (int64_t[]){ b, hkv, smax, d }, 8, -1, 1, &cache));
    TKT_OK(tk_slice(tkt_ctx, cache, 2, 3, 3 + l, 1, &window));
    tk_profile_enable(tkt_ctx, true);
    tk_profile_reset(tkt_ctx);
    TKT_OK(tk_sdpa(tkt_ctx, q, window, window, NULL, &got));
    ck_assert_msg(launched("attention_decode_f32_d64") && !launched("attention_decode_f32_d64_len"), "a window is not a prefix view");
    TKT_OK(tk_contiguous(tkt_ctx, window, &kc));
    want = reference(q, kc, kc, false, NULL);
    tkt_expect_close(got, want, 1e-5, 1e-6, false, "window");
    TKT_RELEASE(window, got, want, kc);

    tk_tensor *seq, *seq_rows, *perm;
    TKT_OK(tk_rand(tkt_ctx, TK_DTYPE_F32, 4, (int64_t[]){ b, smax, hkv, d }, 9, -1, 1, &seq));
    TKT_OK(tk_slice(tkt_ctx, seq, 1, 0, l, 1, &seq_rows));
    TKT_OK(tk_permute(tkt_ctx, seq_rows, (int[]){ 0, 2, 1, 3 }, &perm));
    tk_profile_reset(tkt_ctx);
    TKT_OK(tk_sdpa(tkt_ctx, q, perm, perm, NULL, &got));
    ck_assert_msg(launched("attention_decode_f32_d64") && !launched("attention_decode_f32_d64_len"), "a permuted cache is not a prefix view");
    tk_profile_enable(tkt_ctx, false);
    tk_profile_reset(tkt_ctx);   /* nothing left to print when the context is freed */
    TKT_OK(tk_contiguous(tkt_ctx, perm, &kc));
    want = reference(q, kc, kc, false, NULL);
    tkt_expect_close(got, want, 1e-5, 1e-6, false, "sequence-major");
    TKT_RELEASE(q, cache, seq, seq_rows, perm, got, want, kc);
}
END_TEST

static Suite *kv_cache_suite(void)
{
    Suite *s = suite_create("kv_cache");
    TCase *tc = tkt_case("kv_cache");
    tcase_add_test(tc, decode_on_prefix_view);
    tcase_add_test(tc, prefill_on_prefix_view);
    tcase_add_test(tc, masked_on_prefix_view);
    tcase_add_test(tc, other_views_are_copied);
    suite_add_tcase(s, tc);
    return s;
}

TKT_MAIN(kv_cache_suite)
