/* test_reduce_vec.c — the vectorised paths of prod, logsumexp, argmax/argmin
 * and all/any (reduce_vec.c, and the column loops of reduce_columns.c) against a
 * plain double loop written here, on f32 and bf16 (and f64, bool, i32), over
 * the contiguous last dim and over dim 0 of a row-major matrix (the strided
 * column case),
 * at odd sizes around the vector widths, blocks and column chunks, with NaN,
 * ±inf, ±0, ties, all-false/all-true rows and empty dims; then the same
 * bits on 1 and 2 threads. (test_reduce.c compares the same ops with
 * PyTorch on its fixtures; PyTorch 1.13's behaviour on the special values
 * is what the reference loop below encodes: NaN is both argmax and argmin,
 * the first extreme wins, logsumexp of all -inf is -inf, -0 is false.) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

typedef enum { OP_PROD, OP_LSE, OP_ARGMAX, OP_ARGMIN, OP_ALL, OP_ANY } Op;
static const char *const op_names[] = { "prod", "logsumexp", "argmax", "argmin", "all", "any" };

/* The kinds of values a case is filled with. */
typedef enum {
    V_NEAR1,     /* 1 ± 0.05: products of thousands stay finite */
    V_NORMAL,    /* spread over ±8, logsumexp's home */
    V_TIES,      /* a few integer levels: many ties */
    V_SPECIAL,   /* V_TIES with NaN, ±inf and ±0 sprinkled in */
    V_LOGIC,     /* 0, -0, 1, NaN, and whole rows of zeros or of ones */
} Fill;

static uint64_t mix(uint64_t z)
{
    z = (z + 1) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Element i (in line `line`: its row for odd seeds, its column for even
 * ones, so both dims meet whole all-false and all-true lines) of a case
 * filled with kind f. */
static float value(Fill f, uint64_t seed, int64_t i, int64_t line)
{
    uint64_t z = mix(seed * 1000003u + (uint64_t)i);
    double u = (double)(z >> 11) / 9007199254740992.0;
    int level = (int)(z % 5) - 2;
    switch (f) {
    case V_NEAR1: return (float)(0.95 + 0.1 * u);
    case V_NORMAL: return (float)(16 * u - 8);
    case V_TIES: return (float)level;
    case V_SPECIAL:
        switch ((z >> 8) % 23) {
        case 0: return NAN;
        case 1: return INFINITY;
        case 2: return -INFINITY;
        case 3: return -0.0f;
        case 4: return 0.0f;
        default: return (float)level;
        }
    default:
        if (line % 5 == 1) return 0.0f;   /* an all-false line */
        if (line % 5 == 2) return 1.0f;   /* an all-true one */
        switch ((z >> 8) % 9) {
        case 0: return 0.0f;
        case 1: return -0.0f;
        case 2: return NAN;
        default: return 1.0f;
        }
    }
}

/* ------------------------------------------------------------ the reference */

/* op over n doubles x[0], x[step], ...: a value (prod, logsumexp, all/any as
 * 0/1) or a position (argmax/argmin). */
static double reference(Op op, const double *x, int64_t n, int64_t step)
{
    switch (op) {
    case OP_PROD: {
        double p = 1;
        for (int64_t i = 0; i < n; i++) p *= x[i * step];
        return p;
    }
    case OP_LSE: {
        double m = -INFINITY;
        for (int64_t i = 0; i < n; i++) {
            if (isnan(x[i * step])) return NAN;
            if (x[i * step] > m) m = x[i * step];
        }
        if (isinf(m)) m = 0;   /* +inf stays +inf, all -inf gives log 0 */
        double s = 0;
        for (int64_t i = 0; i < n; i++) s += exp(x[i * step] - m);
        return log(s) + m;
    }
    case OP_ARGMAX:
    case OP_ARGMIN: {
        int64_t best = 0;
        for (int64_t i = 1; i < n; i++) {
            double v = x[i * step], b = x[best * step];
            if (isnan(b)) break;   /* the first NaN is the answer */
            if (isnan(v) || (op == OP_ARGMAX ? v > b : v < b)) best = i;
        }
        return (double)best;
    }
    case OP_ALL:
        for (int64_t i = 0; i < n; i++)
            if (x[i * step] == 0) return 0;
        return 1;
    default:
        for (int64_t i = 0; i < n; i++)
            if (x[i * step] != 0) return 1;   /* NaN != 0 */
        return 0;
    }
}

/* ------------------------------------------------------------ running one case */

static tk_status run_op(Op op, const tk_tensor *x, int dim, tk_tensor **out)
{
    tk_reduce_opts o = { &dim, 1, false, false, 0 };
    switch (op) {
    case OP_PROD: return tk_reduce(tkt_ctx, TK_PROD, x, &o, out);
    case OP_LSE: return tk_reduce(tkt_ctx, TK_LOGSUMEXP, x, &o, out);
    case OP_ARGMAX: return tk_argmax(tkt_ctx, x, dim, false, out);
    case OP_ARGMIN: return tk_argmin(tkt_ctx, x, dim, false, out);
    case OP_ALL: return tk_reduce(tkt_ctx, TK_ALL, x, &o, out);
    default: return tk_reduce(tkt_ctx, TK_ANY, x, &o, out);
    }
}

/* x ([rows, cols], f32 values from fill) in dtype dt. */
static tk_tensor *make_input(Fill f, uint64_t seed, int64_t rows, int64_t cols, tk_dtype dt)
{
    tk_tensor *x32, *x;
    int64_t shape[2] = { rows, cols };
    TKT_OK(tk_empty(tkt_ctx, TK_DTYPE_F32, 2, shape, &x32));
    float *p = tk_tensor_data(x32);
    for (int64_t r = 0; r < rows; r++)
        for (int64_t c = 0; c < cols; c++) p[r * cols + c] = value(f, seed, r * cols + c, seed & 1 ? r : c);
    if (dt == TK_DTYPE_F32) return x32;
    TKT_OK(tk_to_dtype(tkt_ctx, x32, dt, &x));
    tk_tensor_release(x32);
    return x;
}

/* Checks op over dim of x against the reference on x's own (rounded) values. */
static void check_case(Op op, const tk_tensor *x, int dim, const char *label)
{
    int64_t rows = tk_tensor_shape(x)[0], cols = tk_tensor_shape(x)[1];
    tk_tensor *x64, *out, *out64;
    TKT_OK(tk_to_dtype(tkt_ctx, x, TK_DTYPE_F64, &x64));
    const double *v = tk_tensor_data(x64);
    TKT_OK(run_op(op, x, dim, &out));
    int64_t nout = dim == 0 ? cols : rows, len = dim == 0 ? rows : cols, step = dim == 0 ? cols : 1;
    ck_assert_int_eq(tk_tensor_numel(out), nout);
    bool arg = op == OP_ARGMAX || op == OP_ARGMIN, logic = op == OP_ALL || op == OP_ANY;
    ck_assert_int_eq(tk_tensor_dtype(out), arg ? TK_DTYPE_I64 : logic ? TK_DTYPE_BOOL : tk_tensor_dtype(x));
    TKT_OK(tk_to_dtype(tkt_ctx, out, TK_DTYPE_F64, &out64));
    const double *got = tk_tensor_data(out64);
    /* f32: the double-lane product and the f32 differences, vector exp (1-2 ulp) and blocked f32 sums of
     * logsumexp, then one rounding to f32; bf16: one rounding to bf16 dominates */
    bool bf16 = tk_tensor_dtype(x) == TK_DTYPE_BF16, f64 = tk_tensor_dtype(x) == TK_DTYPE_F64;
    double rtol = bf16 ? 8e-3 : f64 ? 1e-12 : op == OP_LSE ? 2e-6 : 1e-6, atol = op == OP_LSE ? (bf16 ? 2e-2 : f64 ? 1e-12 : 2e-6) : 0;
    for (int64_t o = 0; o < nout; o++) {
        const double *line = dim == 0 ? v + o : v + o * cols;
        double want = reference(op, line, len, step), g = got[o];
        bool ok;
        if (arg || logic) ok = g == want;
        else if (isnan(want) || isinf(want)) ok = isnan(want) ? isnan(g) : g == want;
        else ok = fabs(g - want) <= atol + rtol * fabs(want);
        ck_assert_msg(ok, "%s: %s over dim %d of [%lld, %lld] %s, output %lld: got %.9g, want %.9g", label, op_names[op], dim,
                      (long long)rows, (long long)cols, tk_dtype_name(tk_tensor_dtype(x)), (long long)o, g, want);
    }
    TKT_RELEASE(out64, out, x64);
}

static Fill fill_for(Op op, int variant)
{
    switch (op) {
    case OP_PROD: return variant ? V_SPECIAL : V_NEAR1;
    case OP_LSE: return variant ? V_SPECIAL : V_NORMAL;
    case OP_ARGMAX:
    case OP_ARGMIN: return variant ? V_SPECIAL : V_TIES;
    default: return V_LOGIC;
    }
}

/* Sizes around the lane counts (16, 32), the arg lanes, the 4096-element
 * blocks and the 2048-column chunks of the column loops. */
static const int64_t shapes[][2] = { { 1, 1 }, { 3, 7 }, { 5, 17 }, { 2, 33 }, { 31, 15 }, { 7, 129 }, { 3, 4099 }, { 1, 8197 },
                                     { 9, 2051 }, { 1031, 3 }, { 300, 19 }, { 517, 65 } };

START_TEST(matches_double_loop)
{
    const tk_dtype dts[] = { TK_DTYPE_F32, TK_DTYPE_BF16, TK_DTYPE_F64 };   /* f64: the double loops beside the vector ones */
    for (int op = OP_PROD; op <= OP_ANY; op++)
        for (int d = 0; d < 3; d++)
            for (int variant = 0; variant < 2; variant++)
                for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
                    tk_tensor *x = make_input(fill_for((Op)op, variant), (uint64_t)(s * 7 + variant), shapes[s][0], shapes[s][1], dts[d]);
                    char label[64];
                    snprintf(label, sizeof label, "case %zu variant %d", s, variant);
                    check_case((Op)op, x, 1, label);
                    check_case((Op)op, x, 0, label);
                    tk_tensor_release(x);
                }
}
END_TEST

/* all/any on bool (one-byte elements) and on f64 (eight) through the same searches. */
START_TEST(logic_on_bool_and_f64)
{
    const tk_dtype dts[] = { TK_DTYPE_BOOL, TK_DTYPE_F64, TK_DTYPE_I32 };
    for (int d = 0; d < 3; d++)
        for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
            tk_tensor *x = make_input(V_LOGIC, s, shapes[s][0], shapes[s][1], dts[d]);
            for (int op = OP_ALL; op <= OP_ANY; op++) {
                check_case((Op)op, x, 1, tk_dtype_name(dts[d]));
                check_case((Op)op, x, 0, tk_dtype_name(dts[d]));
            }
            tk_tensor_release(x);
        }
}
END_TEST

/* logsumexp's special rows, long enough for the vector loops (n = 1037)
 * and as columns: all -inf (-inf: log of an exact 0), one +inf among -inf
 * (+inf), +inf and NaN (NaN), a finite max among -inf (that max), and
 * values 200 below the max (their exps vanish: the max itself). */
START_TEST(logsumexp_special_rows)
{
    enum { N = 1037, ROWS = 5 };
    tk_tensor *x, *view, *xt, *out, *out64;
    TKT_OK(tk_empty(tkt_ctx, TK_DTYPE_F32, 2, (int64_t[]){ ROWS, N }, &x));
    float *p = tk_tensor_data(x);
    for (int64_t i = 0; i < N; i++) {
        p[0 * N + i] = -INFINITY;
        p[1 * N + i] = i == 700 ? INFINITY : -INFINITY;
        p[2 * N + i] = i == 3 ? INFINITY : i == 900 ? NAN : 1.0f;
        p[3 * N + i] = i == 500 ? 2.5f : -INFINITY;
        p[4 * N + i] = i == 17 ? 3.0f : -197.0f;
    }
    const double want[ROWS] = { -INFINITY, INFINITY, NAN, 2.5, 3.0 };
    TKT_OK(tk_transpose(tkt_ctx, x, 0, 1, &view));   /* as [N, ROWS] row-major: reduced over dim 0, the column loops */
    TKT_OK(tk_contiguous(tkt_ctx, view, &xt));
    tk_tensor_release(view);
    for (int form = 0; form < 2; form++) {
        int dim = form == 0 ? 1 : 0;
        TKT_OK(tk_reduce(tkt_ctx, TK_LOGSUMEXP, form == 0 ? x : xt, &(tk_reduce_opts){ &dim, 1, false, false, 0 }, &out));
        TKT_OK(tk_to_dtype(tkt_ctx, out, TK_DTYPE_F64, &out64));
        const double *g = tk_tensor_data(out64);
        for (int r = 0; r < ROWS; r++)
            ck_assert_msg(isnan(want[r]) ? isnan(g[r]) : g[r] == want[r], "logsumexp of special row %d (dim %d): got %g, want %g", r, dim,
                          g[r], want[r]);
        TKT_RELEASE(out64, out);
    }
    TKT_RELEASE(xt, x);
}
END_TEST

/* Reductions over a dim of size 0: prod 1, logsumexp -inf, all true, any
 * false (PyTorch's identities); argmax/argmin of nothing is an error. */
START_TEST(empty_dims)
{
    const int64_t shapes0[][2] = { { 0, 5 }, { 5, 0 } };
    for (int s = 0; s < 2; s++) {
        tk_tensor *x, *out, *out64;
        TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 2, shapes0[s], &x));
        int dim = s == 0 ? 0 : 1;
        const double want[] = { 1, -INFINITY, 0, 0, 1, 0 };
        for (int op = OP_PROD; op <= OP_ANY; op++) {
            if (op == OP_ARGMAX || op == OP_ARGMIN) {
                TKT_FAILS(run_op((Op)op, x, dim, &out), TK_ERR_SHAPE, "size 0");
                continue;
            }
            TKT_OK(run_op((Op)op, x, dim, &out));
            ck_assert_int_eq(tk_tensor_numel(out), 5);
            TKT_OK(tk_to_dtype(tkt_ctx, out, TK_DTYPE_F64, &out64));
            for (int i = 0; i < 5; i++)
                ck_assert_msg(((const double *)tk_tensor_data(out64))[i] == want[op], "%s over an empty dim %d: got %g, want %g",
                              op_names[op], dim, ((const double *)tk_tensor_data(out64))[i], want[op]);
            TKT_RELEASE(out64, out);
        }
        tk_tensor_release(x);
    }
}
END_TEST

/* The same bits on 1 and 2 threads: long rows cut into pieces (one output
 * of 200003), many outputs, and the column loops cut into row pieces
 * ([1100, 67] over dim 0, pieces of 256 rows). */
START_TEST(thread_count_does_not_change_bits)
{
    const int64_t cases[][3] = { { 1, 200003, 1 }, { 2, 70001, 1 }, { 37, 1001, 1 }, { 1100, 67, 0 }, { 70001, 2, 0 } };
    const tk_dtype dts[] = { TK_DTYPE_F32, TK_DTYPE_BF16 };
    for (int d = 0; d < 2; d++)
        for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
            for (int op = OP_PROD; op <= OP_ANY; op++)
                for (int variant = 0; variant < 2; variant++) {
                    tk_tensor *x = make_input(fill_for((Op)op, variant), c + 100, cases[c][0], cases[c][1], dts[d]), *r[2];
                    for (int t = 0; t < 2; t++) {
                        TKT_OK(tk_context_set_threads(tkt_ctx, t + 1));
                        TKT_OK(run_op((Op)op, x, (int)cases[c][2], &r[t]));
                    }
                    char label[96];
                    snprintf(label, sizeof label, "%s %s case %zu variant %d", op_names[op], tk_dtype_name(dts[d]), c, variant);
                    tkt_expect_equal(r[0], r[1], label);
                    if (variant == 0 && op != OP_PROD) check_case((Op)op, x, (int)cases[c][2], label);
                    TKT_RELEASE(r[0], r[1], x);
                }
}
END_TEST

static Suite *reduce_vec_suite(void)
{
    Suite *s = suite_create("tensor_reduce_vec");
    TCase *tc = tkt_case("reduce_vec");
    tcase_add_test(tc, matches_double_loop);
    tcase_add_test(tc, logic_on_bool_and_f64);
    tcase_add_test(tc, logsumexp_special_rows);
    tcase_add_test(tc, empty_dims);
    tcase_add_test(tc, thread_count_does_not_change_bits);
    suite_add_tcase(s, tc);
    return s;
}

TKT_MAIN(reduce_vec_suite)
