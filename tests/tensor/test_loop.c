/* test_loop.c — a long loop of mixed ops, as a model's steps are: after the
 * first step the caching allocator asks the system for no more memory, the
 * live tensors and bytes come back to where they were, and (under ASan in
 * CI) nothing leaks. Also the rule: a loop of the same ops calls
 * malloc at most in its first step. */
#include <string.h>

#include "harness.h"

/* One "step": a small MLP-ish chain touching every op family. */
static void step(tk_tensor *x, tk_tensor *w, tk_tensor *g)
{
    tk_tensor *h, *a, *n, *s, *t, *p, *c, *r, *m, *sum, *sorted, *idx, *e;
    TKT_OK(tk_linear(tkt_ctx, x, w, NULL, &h));
    TKT_OK(tk_unary(tkt_ctx, TK_GELU, h, &a));
    TKT_OK(tk_layer_norm(tkt_ctx, a, 1, g, NULL, 1e-5, &n));
    TKT_OK(tk_softmax(tkt_ctx, n, -1, &s));
    TKT_OK(tk_transpose(tkt_ctx, s, 0, 1, &t));
    TKT_OK(tk_contiguous(tkt_ctx, t, &p));
    TKT_OK(tk_cat(tkt_ctx, (const tk_tensor *[]){ p, p }, 2, 1, &c));   /* [48, 74] */
    TKT_OK(tk_binary_scalar(tkt_ctx, TK_MUL, c, 0.5, &r));
    TKT_OK(tk_matmul(tkt_ctx, s, r, &m));
    TKT_OK(tk_sum(tkt_ctx, m, &(tk_reduce_opts){ .dims = (int[]){ 1 }, .ndims = 1 }, &sum));
    TKT_OK(tk_sort(tkt_ctx, sum, 0, true, &sorted, &idx));
    TKT_OK(tk_binary(tkt_ctx, TK_GT, sorted, sum, &e));
    TKT_RELEASE(h, a, n, s, t, p, c, r, m, sum, sorted, idx, e);
}

START_TEST(long_loop_reuses_memory)
{
    tk_tensor *x, *w, *g;
    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 2, (int64_t[]){ 37, 64 }, 1, &x));
    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 2, (int64_t[]){ 48, 64 }, 2, &w));
    TKT_OK(tk_ones(tkt_ctx, TK_DTYPE_F32, 1, (int64_t[]){ 48 }, &g));
    tk_memory_stats before, first, last;
    tk_memory_stats_get(tkt_ctx, &before);
    step(x, w, g);
    tk_memory_stats_get(tkt_ctx, &first);
    for (int i = 0; i < 300; i++) step(x, w, g);
    tk_memory_stats_get(tkt_ctx, &last);
    ck_assert_int_eq(last.live_tensors, before.live_tensors);
    ck_assert_uint_eq(last.current_bytes, before.current_bytes);
    ck_assert_msg(last.system_allocs == first.system_allocs, "steps 2..301 asked the system for memory %llu times",
                  (unsigned long long)(last.system_allocs - first.system_allocs));
    ck_assert_uint_eq(last.peak_bytes, first.peak_bytes);
    TKT_RELEASE(x, w, g);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("tensor_loop");
    TCase *tc = tkt_case("loop");
    tcase_add_test(tc, long_loop_reuses_memory);
    suite_add_tcase(s, tc);
    return s;
}

TKT_MAIN(suite)
