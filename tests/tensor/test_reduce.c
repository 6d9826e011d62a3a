/* test_reduce.c — reductions (tk_reduce, tk_sum, tk_mean), argmax/argmin,
 * cumsum/cumprod, softmax/log_softmax, sort and topk against PyTorch, the
 * same bits on 1 and 2 threads, and bad arguments.
 *
 * The PyTorch cases come from fixtures/fx_reduce.py as folders red_NNNN, each
 * naming the call, its arguments, the input (possibly to be seen as a
 * transposed view) and the expected result with its tolerance (chosen there
 * per dtype and scaled by the magnitudes summed; see that file). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

enum { ARGMAX = 20, ARGMIN = 21, CUMSUM = 30, CUMPROD = 31, SOFTMAX = 40, LOG_SOFTMAX = 41, SORT = 50, TOPK = 60 };

/* Element i of a small fixture array (0-d arrays: i = 0) as a double. */
static double fx_num(const char *c, const char *name, int64_t i)
{
    tk_tensor *t = tkt_fx(c, name);
    double v;
    TKT_OK(tk_item(tkt_ctx, t, tk_tensor_ndim(t) ? &i : NULL, &v));
    tk_tensor_release(t);
    return v;
}

static int64_t fx_len(const char *c, const char *name)
{
    tk_tensor *t = tkt_fx(c, name);
    int64_t n = tk_tensor_numel(t);
    tk_tensor_release(t);
    return n;
}

/* t as a 0-d tensor when the case says its rank is 0 (.npy fixtures hold 0-d arrays as [1]). */
static tk_tensor *with_rank(const char *c, tk_tensor *t, int which)
{
    if (fx_num(c, "ranks", which) != 0 || tk_tensor_ndim(t) == 0) return t;
    tk_tensor *s;
    TKT_OK(tk_from_blob(tkt_ctx, tk_tensor_data(t), tk_tensor_dtype(t), 0, NULL, NULL, 0, NULL, NULL, &s));
    return s;   /* t, the owner of the data, is kept by the caller */
}

/* The case's input: x itself, or (when perm is given) the view whose dim
 * perm[i] is x's dim i — a transposed, non-contiguous tensor over x's data. */
static tk_tensor *case_input(const char *c, tk_tensor **base)
{
    *base = tkt_fx(c, "x");
    int64_t np = fx_len(c, "perm");
    if (np == 0) {
        tk_tensor *x = with_rank(c, *base, 0);
        return x == *base ? tk_tensor_retain(x) : x;
    }
    int64_t shape[TK_MAX_DIMS], strides[TK_MAX_DIMS];
    for (int64_t i = 0; i < np; i++) {
        int q = (int)fx_num(c, "perm", i);
        shape[q] = tk_tensor_shape(*base)[i];
        strides[q] = tk_tensor_strides(*base)[i];
    }
    tk_tensor *x;
    TKT_OK(tk_from_blob(tkt_ctx, tk_tensor_data(*base), tk_tensor_dtype(*base), (int)np, shape, strides, TK_BLOB_READONLY, NULL, NULL,
                        &x));
    ck_assert(!tk_tensor_is_contiguous(x) || np < 2);
    return x;
}

static void compare(const char *c, const tk_tensor *got, const tk_tensor *want, const char *label)
{
    char what[96];
    snprintf(what, sizeof what, "%s %s", c, label);
    if (tk_dtype_is_float(tk_tensor_dtype(want)))
        tkt_expect_close(got, want, fx_num(c, "tol", 0), fx_num(c, "tol", 1), true, what);
    else
        tkt_expect_equal(got, want, what);
}

/* Every index of topk's output points at an input element equal to the value beside it. */
static void check_indices_point_at_values(const char *c, const tk_tensor *x, int dim, const tk_tensor *v, const tk_tensor *idx)
{
    int nd = tk_tensor_ndim(v);
    if (dim < 0) dim += nd;
    const int64_t *shape = tk_tensor_shape(v);
    const int64_t *ix = tk_tensor_data(idx);
    for (int64_t e = 0; e < tk_tensor_numel(v); e++) {
        int64_t at[TK_MAX_DIMS], r = e;
        for (int d = nd - 1; d >= 0; d--) at[d] = r % shape[d], r /= shape[d];
        double want, got;
        TKT_OK(tk_item(tkt_ctx, v, at, &want));
        at[dim] = ix[e];
        TKT_OK(tk_item(tkt_ctx, x, at, &got));
        ck_assert_msg(got == want || (isnan(got) && isnan(want)), "%s: index %lld of element %lld holds %g, the value is %g", c,
                      (long long)ix[e], (long long)e, got, want);
    }
}

static void run_case(const char *c)
{
    tk_tensor *base, *x = case_input(c, &base), *want_data = tkt_fx(c, "want"), *got = NULL, *idx = NULL;
    tk_tensor *want = with_rank(c, want_data, 1);
    if (want == want_data) tk_tensor_retain(want);
    int op = (int)fx_num(c, "op", 0);
    int dims[TK_MAX_DIMS], nd = (int)fx_len(c, "dims");
    for (int i = 0; i < nd; i++) dims[i] = (int)fx_num(c, "dims", i);
    bool keepdim = fx_num(c, "flags", 0) != 0, second = fx_num(c, "flags", 1) != 0, unsorted = fx_num(c, "flags", 3) != 0;
    int64_t k = (int64_t)fx_num(c, "flags", 2);
    if (op <= TK_LOGSUMEXP) {
        tk_reduce_opts o = { fx_num(c, "hasdims", 0) ? dims : NULL, nd, keepdim, second, fx_num(c, "p", 0) };
        TKT_OK(tk_reduce(tkt_ctx, (tk_reduce_op)op, x, &o, &got));
        compare(c, got, want, "tk_reduce");
    } else if (op == ARGMAX || op == ARGMIN) {
        TKT_OK((op == ARGMAX ? tk_argmax : tk_argmin)(tkt_ctx, x, dims[0], keepdim, &got));
        compare(c, got, want, "argmax/argmin");
    } else if (op == CUMSUM || op == CUMPROD) {
        TKT_OK((op == CUMSUM ? tk_cumsum : tk_cumprod)(tkt_ctx, x, dims[0], &got));
        compare(c, got, want, "cumsum/cumprod");
    } else if (op == SOFTMAX || op == LOG_SOFTMAX) {
        TKT_OK((op == SOFTMAX ? tk_softmax : tk_log_softmax)(tkt_ctx, x, dims[0], &got));
        compare(c, got, want, "softmax/log_softmax");
    } else if (op == SORT) {
        tk_tensor *want_idx = tkt_fx(c, "want_idx");
        TKT_OK(tk_sort(tkt_ctx, x, dims[0], second, &got, &idx));
        tkt_expect_close(got, want, 0, 0, true, c);   /* exact; NaN matches NaN */
        tkt_expect_equal(idx, want_idx, c);            /* stable: ties in input order, as torch.sort(stable=True) */
        tk_tensor_release(want_idx);
    } else if (op == TOPK) {
        tk_topk_opts o = { second, unsorted };
        TKT_OK(tk_topk(tkt_ctx, x, k, dims[0], &o, &got, &idx));
        check_indices_point_at_values(c, x, dims[0], got, idx);
        if (unsorted) {   /* the same k values in index order: sorted they are torch's */
            const int64_t *ix = tk_tensor_data(idx);
            int64_t len = tk_tensor_shape(idx)[tk_tensor_ndim(idx) - 1];
            for (int64_t e = 1; e < tk_tensor_numel(idx); e++)
                if (e % len) ck_assert_int_lt(ix[e - 1], ix[e]);
            tk_tensor *sorted;
            TKT_OK(tk_sort(tkt_ctx, got, dims[0], true, &sorted, NULL));
            tk_tensor_release(got);
            got = sorted;
        }
        /* values exactly; torch's choice among tied indices is unspecified, so indices are checked above */
        tkt_expect_close(got, want, 0, 0, true, c);
    } else {
        ck_abort_msg("%s: unknown op %d", c, op);
    }
    TKT_RELEASE(got, idx, want, want_data, x, base);
}

START_TEST(matches_torch)
{
    int n = 0;
    char c[32];
    for (;; n++) {
        snprintf(c, sizeof c, "red_%04d", n);
        if (!tkt_fx_exists(c, "x")) break;
        run_case(c);
    }
    ck_assert_int_gt(n, 500);
}
END_TEST

/* dims non-NULL with ndims 0 and opts NULL both mean every axis; tk_sum and tk_mean are tk_reduce. */
START_TEST(all_axes_forms)
{
    tk_tensor *x, *a, *b, *c, *d;
    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 3, (int64_t[]){ 4, 5, 6 }, 3, &x));
    int dim = 1;
    TKT_OK(tk_reduce(tkt_ctx, TK_SUM, x, NULL, &a));
    TKT_OK(tk_sum(tkt_ctx, x, &(tk_reduce_opts){ &dim, 0, false, false, 0 }, &b));
    tkt_expect_equal(a, b, "sum NULL opts vs ndims 0");
    ck_assert_int_eq(tk_tensor_ndim(a), 0);
    TKT_OK(tk_mean(tkt_ctx, x, &(tk_reduce_opts){ &dim, 1, true, false, 0 }, &c));
    TKT_OK(tk_reduce(tkt_ctx, TK_MEAN, x, &(tk_reduce_opts){ (int[]){ -2 }, 1, true, false, 0 }, &d));
    tkt_expect_equal(c, d, "mean dim 1 vs -2");
    ck_assert_int_eq(tk_tensor_ndim(c), 3);
    ck_assert_int_eq(tk_tensor_shape(c)[1], 1);
    TKT_RELEASE(x, a, b, c, d);
}
END_TEST

/* The same bits on 1 and 2 threads, for outputs reduced whole and for long
 * reductions cut into pieces. */
START_TEST(thread_count_does_not_change_bits)
{
    tk_tensor *x, *r[2][11] = { { NULL } };
    const int64_t n = 1 << 20;
    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 1, &n, 11, &x));
    tk_tensor *x2;
    TKT_OK(tk_from_blob(tkt_ctx, tk_tensor_data(x), TK_DTYPE_F32, 2, (int64_t[]){ 1024, 1024 }, NULL, 0, NULL, NULL, &x2));
    tk_tensor *xb, *x3;   /* x as bf16 [1024, 1024]; x as [16, 256, 256] */
    TKT_OK(tk_to_dtype(tkt_ctx, x2, TK_DTYPE_BF16, &xb));
    TKT_OK(tk_from_blob(tkt_ctx, tk_tensor_data(x), TK_DTYPE_F32, 3, (int64_t[]){ 16, 256, 256 }, NULL, 0, NULL, NULL, &x3));
    int last = -1, first = 0, middle = 1;
    for (int t = 0; t < 2; t++) {
        TKT_OK(tk_context_set_threads(tkt_ctx, t + 1));
        TKT_OK(tk_sum(tkt_ctx, x, NULL, &r[t][0]));
        TKT_OK(tk_mean(tkt_ctx, x2, &(tk_reduce_opts){ &last, 1, false, false, 0 }, &r[t][1]));
        TKT_OK(tk_reduce(tkt_ctx, TK_VAR, x, NULL, &r[t][2]));
        TKT_OK(tk_softmax(tkt_ctx, x2, -1, &r[t][3]));
        TKT_OK(tk_cumsum(tkt_ctx, x, 0, &r[t][4]));
        TKT_OK(tk_reduce(tkt_ctx, TK_LOGSUMEXP, x, NULL, &r[t][5]));
        TKT_OK(tk_sum(tkt_ctx, x2, &(tk_reduce_opts){ &first, 1, false, false, 0 }, &r[t][6]));
        TKT_OK(tk_argmax(tkt_ctx, x, 0, false, &r[t][7]));
        TKT_OK(tk_sum(tkt_ctx, xb, &(tk_reduce_opts){ &first, 1, false, false, 0 }, &r[t][8]));
        TKT_OK(tk_sum(tkt_ctx, x3, &(tk_reduce_opts){ &middle, 1, false, false, 0 }, &r[t][9]));
        TKT_OK(tk_reduce(tkt_ctx, TK_VAR, x2, &(tk_reduce_opts){ &first, 1, false, false, 0 }, &r[t][10]));
    }
    const char *names[] = { "sum", "mean", "var", "softmax", "cumsum", "logsumexp", "sum dim 0", "argmax", "bf16 sum dim 0", "sum dim 1 of 3",
                            "var dim 0" };
    for (int i = 0; i < 11; i++) tkt_expect_equal(r[0][i], r[1][i], names[i]);
    for (int i = 0; i < 11; i++) TKT_RELEASE(r[0][i], r[1][i]);
    TKT_RELEASE(x3, xb, x2, x);
}
END_TEST

/* A reproducible value of mixed magnitude for index i: (u - 0.3)·10^e with
 * u uniform in [0, 1) and e in -3..3, from splitmix64 (the numbers quoted
 * below for PyTorch and NumPy were measured on the same values, generated
 * by the same formula in NumPy). */
static float mixed_value(uint64_t i)
{
    uint64_t z = (i + 1) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    double u = (double)(z >> 40) / 16777216.0;
    return (float)((u - 0.3) * pow(10.0, (double)((int)(z & 0xff) % 7 - 3)));
}

/* The sum of n floats in double with Neumaier's compensation: the
 * reference (its error, ~1e-16 of sum |x|, is far below what is checked). */
static double reference_sum(const float *x, int64_t n, double *abs_sum)
{
    double s = 0, c = 0, a = 0;
    for (int64_t i = 0; i < n; i++) {
        double v = x[i], t = s + v;
        c += fabs(s) >= fabs(v) ? (s - t) + v : (v - t) + s;
        s = t;
        a += fabs(v);
    }
    *abs_sum = a;
    return s + c;
}

/* The f32 sum accumulates in f32 lanes inside 4096-element blocks (see
 * reduce_vec.c): its worst case is ~38·2⁻²⁴·Σ|x| = 2.3e-6·Σ|x|, but its
 * typical error is ~1e-10·Σ|x|, far below one ulp of the result. Checked on
 * 16 M values of mixed magnitude (Σ|x| = 7.6e8), on 1 and 2 threads:
 *   biased (sum 5.25e8, ulp 32): error <= half an ulp + 1e-9·Σ|x| (0.76).
 *     We return the float nearest the sum (off by 10.08, the rounding);
 *     PyTorch 1.13 is off by 10 (1 thread) and 54 (2 threads), a naive
 *     float loop by 4e6;
 *   centered (each value and its negation, shuffled: the sum is exactly 0):
 *     |result| <= 1e-9·Σ|x|. We give 0.28 (3.7e-10·Σ|x|); PyTorch 1.13
 *     11 (1.4e-8·Σ|x|) on one thread, NumPy 7.4e-8·Σ|x|, a naive float
 *     loop 1.2e-5·Σ|x|. */
START_TEST(f32_sum_is_accurate_on_16m_mixed_values)
{
    const int64_t n = 1 << 24, h = n / 2;
    tk_tensor *biased, *centered;
    TKT_OK(tk_empty(tkt_ctx, TK_DTYPE_F32, 1, &n, &biased));
    TKT_OK(tk_empty(tkt_ctx, TK_DTYPE_F32, 1, &n, &centered));
    float *b = tk_tensor_data(biased), *c = tk_tensor_data(centered);
    for (int64_t i = 0; i < n; i++) b[i] = mixed_value((uint64_t)i);
    for (int64_t i = 0; i < h; i++) {
        c[i] = b[i];
        c[h + i] = -b[(int64_t)(((uint64_t)i * 2654435761u) & (uint64_t)(h - 1))];   /* a permutation of 0..h-1 */
    }
    double bias_abs, cent_abs, bias_ref = reference_sum(b, n, &bias_abs), cent_ref = reference_sum(c, n, &cent_abs);
    ck_assert(cent_ref == 0);
    for (int t = 1; t <= 2; t++) {
        TKT_OK(tk_context_set_threads(tkt_ctx, t));
        tk_tensor *sb, *sc;
        TKT_OK(tk_sum(tkt_ctx, biased, NULL, &sb));
        TKT_OK(tk_sum(tkt_ctx, centered, NULL, &sc));
        double got_b = *(const float *)tk_tensor_data(sb), got_c = *(const float *)tk_tensor_data(sc);
        double half_ulp = (nextafterf((float)bias_ref, INFINITY) - (float)bias_ref) / 2;
        ck_assert_msg(fabs(got_b - bias_ref) <= half_ulp + 1e-9 * bias_abs, "%d threads: biased sum %.9g, reference %.9g (error %g)", t,
                      got_b, bias_ref, got_b - bias_ref);
        ck_assert_msg(fabs(got_c) <= 1e-9 * cent_abs, "%d threads: centered sum %.9g, exactly 0 (error %g of sum |x|)", t, got_c,
                      got_c / cent_abs);
        TKT_RELEASE(sb, sc);
    }
    TKT_RELEASE(biased, centered);
}
END_TEST

START_TEST(bad_arguments)
{
    tk_tensor *x, *xi, *empty, *out = (tk_tensor *)0x1, *idx = (tk_tensor *)0x1;
    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 2, (int64_t[]){ 3, 4 }, 1, &x));
    TKT_OK(tk_ones(tkt_ctx, TK_DTYPE_I32, 2, (int64_t[]){ 3, 4 }, &xi));
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 2, (int64_t[]){ 0, 4 }, &empty));
    TKT_FAILS(tk_sum(tkt_ctx, NULL, NULL, &out), TK_ERR_INVALID_ARGUMENT, "a is NULL");
    ck_assert_ptr_null(out);
    TKT_FAILS(tk_sum(tkt_ctx, x, NULL, NULL), TK_ERR_INVALID_ARGUMENT, "out is NULL");
    TKT_FAILS(tk_sum(tkt_ctx, x, &(tk_reduce_opts){ (int[]){ 2 }, 1, false, false, 0 }, &out), TK_ERR_INDEX, "axis 2");
    TKT_FAILS(tk_sum(tkt_ctx, x, &(tk_reduce_opts){ (int[]){ -3 }, 1, false, false, 0 }, &out), TK_ERR_INDEX, "out of range");
    TKT_FAILS(tk_sum(tkt_ctx, x, &(tk_reduce_opts){ (int[]){ 1, -1 }, 2, false, false, 0 }, &out), TK_ERR_INVALID_ARGUMENT,
              "more than once");
    TKT_FAILS(tk_sum(tkt_ctx, x, &(tk_reduce_opts){ (int[]){ 0 }, -1, false, false, 0 }, &out), TK_ERR_INVALID_ARGUMENT, "ndims");
    TKT_FAILS(tk_reduce(tkt_ctx, (tk_reduce_op)99, x, NULL, &out), TK_ERR_INVALID_ARGUMENT, "tk_reduce_op");
    TKT_FAILS(tk_mean(tkt_ctx, xi, NULL, &out), TK_ERR_DTYPE, "needs a float tensor");
    TKT_FAILS(tk_reduce(tkt_ctx, TK_VAR, xi, NULL, &out), TK_ERR_DTYPE, "i32");
    TKT_FAILS(tk_reduce(tkt_ctx, TK_LOGSUMEXP, xi, NULL, &out), TK_ERR_DTYPE, "logsumexp");
    TKT_FAILS(tk_reduce(tkt_ctx, TK_MAX, empty, &(tk_reduce_opts){ (int[]){ 0 }, 1, false, false, 0 }, &out), TK_ERR_SHAPE,
              "dim 0");
    TKT_FAILS(tk_reduce(tkt_ctx, TK_MIN, empty, NULL, &out), TK_ERR_SHAPE, "min of nothing");
    TKT_FAILS(tk_argmax(tkt_ctx, empty, 0, false, &out), TK_ERR_SHAPE, "tk_argmax: dim 0");
    TKT_FAILS(tk_argmin(tkt_ctx, x, 2, false, &out), TK_ERR_INDEX, "tk_argmin");
    TKT_FAILS(tk_argmax(tkt_ctx, NULL, 0, false, &out), TK_ERR_INVALID_ARGUMENT, "a is NULL");
    TKT_FAILS(tk_cumsum(tkt_ctx, x, -3, &out), TK_ERR_INDEX, "tk_cumsum");
    TKT_FAILS(tk_cumprod(tkt_ctx, NULL, 0, &out), TK_ERR_INVALID_ARGUMENT, "a is NULL");
    TKT_FAILS(tk_softmax(tkt_ctx, xi, -1, &out), TK_ERR_DTYPE, "needs a float tensor");
    TKT_FAILS(tk_log_softmax(tkt_ctx, x, 5, &out), TK_ERR_INDEX, "tk_log_softmax");
    TKT_FAILS(tk_topk(tkt_ctx, x, 5, 1, NULL, &out, &idx), TK_ERR_INDEX, "k 5 is out of range");
    ck_assert_ptr_null(out);
    ck_assert_ptr_null(idx);
    TKT_FAILS(tk_topk(tkt_ctx, x, -1, 1, NULL, &out, NULL), TK_ERR_INDEX, "k -1");
    TKT_FAILS(tk_topk(tkt_ctx, x, 1, 1, NULL, NULL, NULL), TK_ERR_INVALID_ARGUMENT, "both NULL");
    TKT_FAILS(tk_sort(tkt_ctx, x, 2, false, &out, &idx), TK_ERR_INDEX, "tk_sort");
    TKT_FAILS(tk_sort(tkt_ctx, NULL, 0, false, &out, &idx), TK_ERR_INVALID_ARGUMENT, "a is NULL");
    /* either output of sort/topk may be left out */
    TKT_OK(tk_sort(tkt_ctx, x, 1, false, NULL, &idx));
    ck_assert_int_eq(tk_tensor_dtype(idx), TK_DTYPE_I64);
    TKT_OK(tk_topk(tkt_ctx, x, 2, 0, NULL, &out, NULL));
    ck_assert_int_eq(tk_tensor_shape(out)[0], 2);
    TKT_RELEASE(out, idx, x, xi, empty);
}
END_TEST

START_TEST(profile_records_each_call_once)
{
    tk_tensor *x, *s, *m;
    TKT_OK(tk_ones(tkt_ctx, TK_DTYPE_F32, 1, (int64_t[]){ 10 }, &x));
    tk_profile_enable(tkt_ctx, true);
    TKT_OK(tk_sum(tkt_ctx, x, NULL, &s));
    TKT_OK(tk_reduce(tkt_ctx, TK_VAR, x, NULL, &m));   /* two engine passes, one record */
    tk_profile_enable(tkt_ctx, false);
    tk_profile_record recs[8];
    size_t n = tk_profile_records(tkt_ctx, recs, 8);
    int sums = 0, reduces = 0;
    for (size_t i = 0; i < n && i < 8; i++) {
        if (!strcmp(recs[i].name, "tk_sum")) sums += (int)recs[i].count;
        if (!strcmp(recs[i].name, "tk_reduce")) reduces += (int)recs[i].count;
    }
    ck_assert_int_eq(sums, 1);
    ck_assert_int_eq(reduces, 1);
    TKT_RELEASE(x, s, m);
}
END_TEST

static Suite *reduce_suite(void)
{
    Suite *s = suite_create("tensor_reduce");
    TCase *tc = tkt_case("reduce");
    tcase_add_test(tc, matches_torch);
    tcase_add_test(tc, all_axes_forms);
    tcase_add_test(tc, thread_count_does_not_change_bits);
    tcase_add_test(tc, f32_sum_is_accurate_on_16m_mixed_values);
    tcase_add_test(tc, bad_arguments);
    tcase_add_test(tc, profile_records_each_call_once);
    suite_add_tcase(s, tc);
    return s;
}

TKT_MAIN(reduce_suite)
