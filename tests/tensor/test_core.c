/* test_core.c — contexts, tensors, views' lifetimes, caller memory, the
 * caching allocator, creation ops and dtype conversion against PyTorch. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "tk/dtype.h"

START_TEST(convert_matches_torch)
{
    tk_tensor *x = tkt_fx("convert", "x");
    const struct {
        const char *name;
        tk_dtype dtype;
    } cases[] = { { "bf16", TK_DTYPE_BF16 }, { "f16", TK_DTYPE_F16 }, { "f64", TK_DTYPE_F64 } };
    for (unsigned i = 0; i < 3; i++) {
        tk_tensor *want = tkt_fx("convert", cases[i].name), *got;
        TKT_OK(tk_to_dtype(tkt_ctx, x, cases[i].dtype, &got));
        /* exact values; NaN payloads differ between PyTorch's paths, so compare NaN as NaN */
        tkt_expect_close(got, want, 0, 0, true, cases[i].name);
        TKT_RELEASE(got, want);
    }
    tk_tensor_release(x);
    x = tkt_fx("convert_int", "x");
    const struct {
        const char *name;
        tk_dtype dtype;
    } ints[] = { { "i32", TK_DTYPE_I32 }, { "i64", TK_DTYPE_I64 }, { "boolean", TK_DTYPE_BOOL } };
    for (unsigned i = 0; i < 3; i++) {
        tk_tensor *want = tkt_fx("convert_int", ints[i].name), *got;
        TKT_OK(tk_to_dtype(tkt_ctx, x, ints[i].dtype, &got));
        tkt_expect_equal(got, want, ints[i].name);
        TKT_RELEASE(got, want);
    }
    tk_tensor_release(x);
    x = tkt_fx("convert_wrap", "x");
    const struct {
        const char *name;
        tk_dtype dtype;
    } wrap[] = { { "i8", TK_DTYPE_I8 }, { "u8", TK_DTYPE_U8 }, { "f32", TK_DTYPE_F32 } };
    for (unsigned i = 0; i < 3; i++) {
        tk_tensor *want = tkt_fx("convert_wrap", wrap[i].name), *got;
        TKT_OK(tk_to_dtype(tkt_ctx, x, wrap[i].dtype, &got));
        tkt_expect_equal(got, want, wrap[i].name);
        TKT_RELEASE(got, want);
    }
    tk_tensor_release(x);
}
END_TEST

START_TEST(creation_matches_torch)
{
    tk_tensor *t, *want;
    TKT_OK(tk_arange(tkt_ctx, TK_DTYPE_F32, 0, 10, 1, &t));
    tkt_expect_equal(t, want = tkt_fx("arange", "a"), "arange a");
    TKT_RELEASE(t, want);
    TKT_OK(tk_arange(tkt_ctx, TK_DTYPE_F32, -3.5, 7.25, 0.75, &t));
    tkt_expect_equal(t, want = tkt_fx("arange", "b"), "arange b");
    TKT_RELEASE(t, want);
    TKT_OK(tk_arange(tkt_ctx, TK_DTYPE_I64, 10, -5, -3, &t));
    tkt_expect_equal(t, want = tkt_fx("arange", "c"), "arange c");
    TKT_RELEASE(t, want);
    TKT_OK(tk_arange(tkt_ctx, TK_DTYPE_F64, 0, 1, 0.1, &t));
    tkt_expect_close(t, want = tkt_fx("arange", "d"), 1e-15, 1e-15, true, "arange d");
    TKT_RELEASE(t, want);
    const double ls[][3] = { { 0, 1, 11 }, { -5, 3, 7 }, { 2, 2, 1 }, { -1, 1, 1000 } };
    const tk_dtype lt[] = { TK_DTYPE_F32, TK_DTYPE_F64, TK_DTYPE_F32, TK_DTYPE_F32 };
    const char *ln[] = { "a", "b", "c", "d" };
    for (int i = 0; i < 4; i++) {
        TKT_OK(tk_linspace(tkt_ctx, lt[i], ls[i][0], ls[i][1], (int64_t)ls[i][2], &t));
        tkt_expect_close(t, want = tkt_fx("linspace", ln[i]), 1e-6, 1e-7, true, ln[i]);
        TKT_RELEASE(t, want);
    }
    TKT_OK(tk_eye(tkt_ctx, TK_DTYPE_F32, 5, -1, &t));
    tkt_expect_equal(t, want = tkt_fx("eye", "a"), "eye a");
    TKT_RELEASE(t, want);
    TKT_OK(tk_eye(tkt_ctx, TK_DTYPE_I32, 3, 7, &t));
    tkt_expect_equal(t, want = tkt_fx("eye", "b"), "eye b");
    TKT_RELEASE(t, want);
    TKT_OK(tk_eye(tkt_ctx, TK_DTYPE_F64, 6, 2, &t));
    tkt_expect_equal(t, want = tkt_fx("eye", "c"), "eye c");
    TKT_RELEASE(t, want);
}
END_TEST

START_TEST(full_zeros_ones)
{
    tk_tensor *t;
    TKT_OK(tk_full(tkt_ctx, TK_DTYPE_BF16, 3, (int64_t[]){ 2, 3, 5 }, 1.5, &t));
    ck_assert_int_eq(tk_tensor_numel(t), 30);
    for (int i = 0; i < 30; i++) ck_assert_uint_eq(((uint16_t *)tk_tensor_data(t))[i], 0x3fc0);
    tk_tensor_release(t);
    TKT_OK(tk_ones(tkt_ctx, TK_DTYPE_I8, 0, NULL, &t));
    ck_assert_int_eq(tk_tensor_ndim(t), 0);
    ck_assert_int_eq(tk_tensor_numel(t), 1);
    ck_assert_int_eq(*(int8_t *)tk_tensor_data(t), 1);
    tk_tensor_release(t);
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 2, (int64_t[]){ 0, 7 }, &t));
    ck_assert_int_eq(tk_tensor_numel(t), 0);
    ck_assert(tk_tensor_is_contiguous(t));
    tk_tensor_release(t);
}
END_TEST

/* rand/randn give the same numbers on 1 and 2 threads and for every seed
 * differ; their moments are those of the distribution. */
START_TEST(random_is_seeded_and_thread_independent)
{
    const int64_t n = 200003;
    tk_tensor *a, *b, *c, *u;
    TKT_OK(tk_context_set_threads(tkt_ctx, 1));
    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 1, &n, 7, &a));
    TKT_OK(tk_context_set_threads(tkt_ctx, 2));
    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 1, &n, 7, &b));
    tkt_expect_equal(a, b, "randn 1 vs 2 threads");
    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 1, &n, 8, &c));
    const float *pa = tk_tensor_data(a), *pc = tk_tensor_data(c);
    int same = 0;
    double s = 0, s2 = 0;
    for (int64_t i = 0; i < n; i++) {
        same += pa[i] == pc[i];
        s += pa[i];
        s2 += (double)pa[i] * pa[i];
    }
    ck_assert_int_lt(same, 10);
    ck_assert_double_lt(fabs(s / n), 0.01);
    ck_assert_double_lt(fabs(s2 / n - 1), 0.02);
    TKT_OK(tk_rand(tkt_ctx, TK_DTYPE_BF16, 1, &n, 3, -2, 5, &u));
    const uint16_t *pu = tk_tensor_data(u);
    double lo = 1e9, hi = -1e9, mean = 0;
    for (int64_t i = 0; i < n; i++) {
        float v;
        uint32_t w = (uint32_t)pu[i] << 16;
        memcpy(&v, &w, 4);
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
        mean += v;
    }
    ck_assert_double_ge(lo, -2);
    ck_assert_double_lt(hi, 5);
    ck_assert_double_lt(fabs(mean / n - 1.5), 0.02);
    tk_tensor *bad = NULL;
    TKT_FAILS(tk_rand(tkt_ctx, TK_DTYPE_I32, 1, &n, 3, 0, 1, &bad), TK_ERR_DTYPE, "not a float type");
    ck_assert_ptr_null(bad);
    TKT_RELEASE(a, b, c, u);
}
END_TEST

static int deleted;
static void count_delete(void *data, void *arg)
{
    (void)data;
    deleted += *(int *)arg;
}

/* Caller memory is borrowed: the deleter runs once, when the last view goes. */
START_TEST(blob_lifetime)
{
    float buf[12];
    for (int i = 0; i < 12; i++) buf[i] = (float)i;
    int one = 1;
    deleted = 0;
    tk_tensor *t, *v;
    TKT_OK(tk_from_blob(tkt_ctx, buf, TK_DTYPE_F32, 2, (int64_t[]){ 3, 4 }, NULL, TK_BLOB_WRITABLE, count_delete, &one, &t));
    ck_assert_ptr_eq(tk_tensor_data(t), buf);
    /* a transposed view over the same memory, made by hand through strides */
    TKT_OK(tk_from_blob(tkt_ctx, buf, TK_DTYPE_F32, 2, (int64_t[]){ 4, 3 }, (int64_t[]){ 1, 4 }, TK_BLOB_READONLY, NULL, NULL, &v));
    ck_assert(!tk_tensor_is_contiguous(v));
    double x;
    TKT_OK(tk_item(tkt_ctx, v, (int64_t[]){ 3, 2 }, &x));
    ck_assert_double_eq(x, 11);
    TKT_FAILS(tk_item(tkt_ctx, v, (int64_t[]){ 4, 0 }, &x), TK_ERR_INDEX, "out of range");
    TKT_FAILS(tk_fill_(tkt_ctx, v, 1), TK_ERR_INVALID_ARGUMENT, "read-only");
    tk_tensor *c;
    TKT_OK(tk_clone(tkt_ctx, v, &c));
    ck_assert(tk_tensor_is_contiguous(c));
    ck_assert_float_eq(((float *)tk_tensor_data(c))[1], 4);
    tk_tensor *r = tk_tensor_retain(t);
    tk_tensor_release(t);
    ck_assert_int_eq(deleted, 0);
    tk_tensor_release(r);
    ck_assert_int_eq(deleted, 1);
    TKT_RELEASE(v, c);
}
END_TEST

/* f32 -> bf16 -> f32 of every exponent and sign with low halves at the
 * rounding boundaries (ties to even and odd, just below and above, NaNs with
 * payloads only in the low half): the contiguous path (branch-free, vectorised)
 * and the strided one (a transposed view) give tk_bf16_from_f32's bits, and
 * widening gives the bf16 value exactly. */
START_TEST(bf16_rounding_is_the_same_on_every_path)
{
    static const uint32_t lows[] = { 0x0000, 0x0001, 0x7fff, 0x8000, 0x8001, 0xffff };
    enum { NL = sizeof lows / sizeof lows[0], N = 65536 * NL };
    float *f = malloc(N * sizeof *f);
    uint16_t *got = malloc(N * sizeof *got), *got_t = malloc(N * sizeof *got_t);
    float *back = malloc(N * sizeof *back);
    ck_assert(f && got && got_t && back);
    for (uint32_t hi = 0; hi < 65536; hi++)
        for (int l = 0; l < NL; l++) {
            uint32_t u = hi << 16 | lows[l];
            memcpy(&f[hi * NL + l], &u, 4);
        }
    tk_tensor *x, *xt, *c, *ct, *w;
    TKT_OK(tk_from_data(tkt_ctx, f, TK_DTYPE_F32, 2, (int64_t[]){ 65536, NL }, &x));
    TKT_OK(tk_to_dtype(tkt_ctx, x, TK_DTYPE_BF16, &c));                  /* contiguous runs */
    TKT_OK(tk_transpose(tkt_ctx, x, 0, 1, &xt));
    TKT_OK(tk_to_dtype(tkt_ctx, xt, TK_DTYPE_BF16, &ct));                /* strided: [NL, 65536] read down columns */
    TKT_OK(tk_to_dtype(tkt_ctx, c, TK_DTYPE_F32, &w));
    TKT_OK(tk_to_data(tkt_ctx, c, got, N * sizeof *got));
    TKT_OK(tk_to_data(tkt_ctx, ct, got_t, N * sizeof *got_t));
    TKT_OK(tk_to_data(tkt_ctx, w, back, N * sizeof *back));
    for (int64_t i = 0; i < N; i++) {
        uint16_t want = tk_bf16_from_f32(f[i]);
        ck_assert_msg(got[i] == want, "contiguous: %08x -> %04x, want %04x", (unsigned)(i / NL << 16 | lows[i % NL]), got[i], want);
        int64_t hi = i / NL, l = i % NL;   /* ct is [NL, 65536] row-major */
        ck_assert_msg(got_t[l * 65536 + hi] == want, "strided: element %lld", (long long)i);
        uint32_t b;
        memcpy(&b, &back[i], 4);
        ck_assert_uint_eq(b, (uint32_t)want << 16);
    }
    TKT_RELEASE(x, xt, c, ct, w);
    free(f), free(got), free(got_t), free(back);
}
END_TEST

/* A loop of the same ops asks the system for memory in its first step only. */
START_TEST(allocator_reuses_blocks)
{
    tk_memory_stats m0, m1;
    for (int step = 0; step < 50; step++) {
        if (step == 1) tk_memory_stats_get(tkt_ctx, &m0);
        tk_tensor *a, *b, *c;
        TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 2, (int64_t[]){ 1000 + step % 3, 517 }, &a));
        TKT_OK(tk_full(tkt_ctx, TK_DTYPE_F32, 1, (int64_t[]){ 3000000 }, 2.0, &b));   /* a huge-page block */
        TKT_OK(tk_to_dtype(tkt_ctx, a, TK_DTYPE_BF16, &c));
        TKT_RELEASE(a, b, c);
    }
    tk_memory_stats_get(tkt_ctx, &m1);
    ck_assert_uint_eq(m1.current_bytes, 0);
    ck_assert_uint_le(m1.system_allocs, m0.system_allocs + 2);   /* step % 3 sizes may share or not share a class */
    ck_assert_uint_ge(m1.peak_bytes, 12000000);
    tk_memory_empty_cache(tkt_ctx);
    tk_memory_stats_get(tkt_ctx, &m1);
    ck_assert_uint_eq(m1.cached_bytes, 0);
}
END_TEST

START_TEST(bad_arguments_are_named)
{
    tk_tensor *t = NULL;
    TKT_FAILS(tk_empty(tkt_ctx, TK_DTYPE_F32, 2, (int64_t[]){ 3, -1 }, &t), TK_ERR_SHAPE, "negative");
    ck_assert_ptr_null(t);
    TKT_FAILS(tk_empty(tkt_ctx, TK_DTYPE_F32, 9, (int64_t[]){ 1, 1, 1, 1, 1, 1, 1, 1, 1 }, &t), TK_ERR_SHAPE, "dims");
    TKT_FAILS(tk_empty(tkt_ctx, (tk_dtype)99, 1, (int64_t[]){ 3 }, &t), TK_ERR_DTYPE, "dtype");
    TKT_FAILS(tk_empty(tkt_ctx, TK_DTYPE_F32, 2, (int64_t[]){ INT64_MAX / 2, 4 }, &t), TK_ERR_SHAPE, "more elements");
    /* empty, but the strides of the other dims would overflow (found by fuzz_tensor_files in an ONNX .pb) */
    TKT_FAILS(tk_empty(tkt_ctx, TK_DTYPE_F32, 3, (int64_t[]){ 0, (int64_t)1 << 40, (int64_t)1 << 40 }, &t), TK_ERR_SHAPE, "more elements");
    TKT_FAILS(tk_arange(tkt_ctx, TK_DTYPE_F32, 0, 1, 0, &t), TK_ERR_INVALID_ARGUMENT, "step");
    TKT_FAILS(tk_clone(tkt_ctx, NULL, &t), TK_ERR_INVALID_ARGUMENT, "tk_clone: t is NULL");
    ck_assert_int_eq(tk_context_create(&(tk_context_opts){ .device = (tk_device_type)5 }, &(tk_context *){ 0 }), TK_ERR_TARGET);
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 1, (int64_t[]){ 4 }, &t));
    float small[3];
    TKT_FAILS(tk_to_data(tkt_ctx, t, small, sizeof small), TK_ERR_INVALID_ARGUMENT, "16 bytes");
    tk_tensor_release(t);
    ck_assert_str_eq(tk_dtype_name(TK_DTYPE_BF16), "bf16");
    ck_assert_int_eq(tk_promote_types(TK_DTYPE_U8, TK_DTYPE_I8), TK_DTYPE_I16);
    ck_assert_int_eq(tk_promote_types(TK_DTYPE_F16, TK_DTYPE_BF16), TK_DTYPE_F32);
    ck_assert_int_eq(tk_promote_types(TK_DTYPE_I64, TK_DTYPE_F16), TK_DTYPE_F16);
    ck_assert_int_eq(tk_promote_types(TK_DTYPE_BOOL, TK_DTYPE_U8), TK_DTYPE_U8);
}
END_TEST

START_TEST(npy_round_trip_every_dtype)
{
    const char *dir = getenv("TK_FIXTURES");
    for (tk_dtype d = 0; d < TK_NUM_DTYPES; d++) {
        tk_tensor *a, *b, *back;
        TKT_OK(tk_arange(tkt_ctx, TK_DTYPE_F64, -7, 17, 1, &a));
        TKT_OK(tk_to_dtype(tkt_ctx, a, d, &b));
        char path[1024];
        snprintf(path, sizeof path, "%s/roundtrip_%s.npy", dir ? dir : ".", tk_dtype_name(d));
        if (d >= TK_DTYPE_F8E4M3FN) {   /* the low-precision types: NumPy has no dtype for them, refused (test_lowp.c) */
            TKT_FAILS(tk_save_npy(tkt_ctx, b, path), TK_ERR_UNSUPPORTED, "convert the tensor first");
            TKT_RELEASE(a, b);
            continue;
        }
        TKT_OK(tk_save_npy(tkt_ctx, b, path));
        TKT_OK(tk_load_npy(tkt_ctx, path, &back));
        if (d == TK_DTYPE_U16) {   /* written as <u2, which reads as bf16 bits (tk/io.h): the same bytes */
            ck_assert_int_eq(tk_tensor_dtype(back), TK_DTYPE_BF16);
            ck_assert_int_eq(memcmp(tk_tensor_data(back), tk_tensor_data(b), 2 * (size_t)tk_tensor_numel(b)), 0);
        } else {
            tkt_expect_equal(back, b, tk_dtype_name(d));
        }
        TKT_RELEASE(a, b, back);
    }
    tk_tensor *t;
    TKT_FAILS(tk_load_npy(tkt_ctx, "/nonexistent/x.npy", &t), TK_ERR_IO, "cannot read");
}
END_TEST

/* Tensors placed in an arena share its bytes where the plan says so, are
 * bounds-checked, and keep the arena alive after tk_tensor_arena_free. */
START_TEST(arena_placement)
{
    tk_tensor_arena *a;
    TKT_OK(tk_tensor_arena_create(tkt_ctx, 4096, &a));
    ck_assert_uint_eq(tk_tensor_arena_size(a), 4096);
    tk_tensor *x, *y, *z, *bad = NULL;
    TKT_OK(tk_tensor_arena_place(tkt_ctx, a, 0, TK_DTYPE_F32, 2, (int64_t[]){ 16, 16 }, &x));   /* bytes 0 .. 1023 */
    TKT_OK(tk_tensor_arena_place(tkt_ctx, a, 1024, TK_DTYPE_I64, 1, (int64_t[]){ 384 }, &y));   /* bytes 1024 .. 4095 */
    TKT_OK(tk_tensor_arena_place(tkt_ctx, a, 512, TK_DTYPE_BF16, 1, (int64_t[]){ 4 }, &z));     /* shares x's bytes 512 .. 519 */
    ck_assert_ptr_eq((char *)tk_tensor_data(y), (char *)tk_tensor_data(x) + 1024);
    ck_assert(tk_tensor_shares_storage(x, y));
    TKT_OK(tk_fill_(tkt_ctx, x, 1.0));
    TKT_OK(tk_fill_(tkt_ctx, z, 2.0));   /* overwrites x's elements 128 and 129 */
    double v;
    TKT_OK(tk_item(tkt_ctx, x, (int64_t[]){ 8, 0 }, &v));
    uint32_t bits = 0x40004000u;   /* two bf16 2.0s (0x4000) read as one f32 */
    float want;
    memcpy(&want, &bits, 4);
    ck_assert_double_eq(v, want);
    TKT_FAILS(tk_tensor_arena_place(tkt_ctx, a, 4000, TK_DTYPE_F32, 1, (int64_t[]){ 25 }, &bad), TK_ERR_SHAPE, "past the arena");
    TKT_FAILS(tk_tensor_arena_place(tkt_ctx, a, 2, TK_DTYPE_F32, 1, (int64_t[]){ 1 }, &bad), TK_ERR_INVALID_ARGUMENT, "multiple");
    ck_assert_ptr_null(bad);
    tk_tensor_arena_free(a);   /* the placed tensors keep the storage */
    TKT_OK(tk_fill_(tkt_ctx, y, 7));
    TKT_RELEASE(x, y, z);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("tensor_core");
    TCase *tc = tkt_case("core");
    tcase_add_test(tc, convert_matches_torch);
    tcase_add_test(tc, bf16_rounding_is_the_same_on_every_path);
    tcase_add_test(tc, creation_matches_torch);
    tcase_add_test(tc, full_zeros_ones);
    tcase_add_test(tc, random_is_seeded_and_thread_independent);
    tcase_add_test(tc, blob_lifetime);
    tcase_add_test(tc, allocator_reuses_blocks);
    tcase_add_test(tc, bad_arguments_are_named);
    tcase_add_test(tc, npy_round_trip_every_dtype);
    tcase_add_test(tc, arena_placement);
    suite_add_tcase(s, tc);
    return s;
}

TKT_MAIN(suite)
