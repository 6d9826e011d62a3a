/* test_unsigned.c — the unsigned 16/32/64-bit dtypes against plain C loops:
 * casts both ways (NumPy's float → unsigned: truncate, wrap; the values NumPy
 * 1.24 gives are written out below), wrapping arithmetic, u64 compares, max,
 * division and shifts near 2^64, 2^63 and 2^32, promotion, reductions (the
 * same bits on 1 and 2 threads), sort, gather/scatter/where, and the files
 * and DLPack. PyTorch 1.13 (the fixtures' reference) has none of these types,
 * so every reference here is a C loop over uint64_t. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "tk/dlpack.h"

#define TWO63 ((uint64_t)1 << 63)
#define TWO32 ((uint64_t)1 << 32)

/* Values at the edges of every width, and some that are not. */
static const uint64_t EDGES[] = {
    0, 1, 2, 3, 7, 255, 256, 65535, 65536, 65537, TWO32 - 1, TWO32, TWO32 + 1, 0x123456789abcdefULL,
    TWO63 - 1, TWO63, TWO63 + 1, TWO63 + 12345, UINT64_MAX - 2, UINT64_MAX - 1, UINT64_MAX,
};
#define NUM_EDGES ((int)(sizeof EDGES / sizeof EDGES[0]))

static const tk_dtype UTYPES[] = { TK_DTYPE_U16, TK_DTYPE_U32, TK_DTYPE_U64 };

static int width_of(tk_dtype d) { return (int)tk_dtype_size(d) * 8; }
static uint64_t mask_of(tk_dtype d) { return width_of(d) == 64 ? UINT64_MAX : (((uint64_t)1 << width_of(d)) - 1); }

/* n values of dtype d (each truncated to its width) as a tensor of shape [rows, cols]. */
static tk_tensor *from_u64(tk_dtype d, const uint64_t *v, int64_t rows, int64_t cols)
{
    int64_t n = rows * cols;
    size_t es = tk_dtype_size(d);
    unsigned char *buf = malloc((size_t)n * es + 1);
    for (int64_t i = 0; i < n; i++) {
        uint64_t x = v[i] & mask_of(d);
        if (es == 2) ((uint16_t *)buf)[i] = (uint16_t)x;
        else if (es == 4) ((uint32_t *)buf)[i] = (uint32_t)x;
        else ((uint64_t *)buf)[i] = x;
    }
    tk_tensor *t;
    TKT_OK(tk_from_data(tkt_ctx, buf, d, 2, (int64_t[]){ rows, cols }, &t));
    free(buf);
    return t;
}

/* The elements of an unsigned (or bool) tensor as uint64s; the caller frees. */
static uint64_t *to_u64(const tk_tensor *t)
{
    int64_t n = tk_tensor_numel(t);
    size_t es = tk_dtype_size(tk_tensor_dtype(t));
    unsigned char *buf = malloc((size_t)(n ? n : 1) * es);
    TKT_OK(tk_to_data(tkt_ctx, t, buf, (size_t)n * es));
    uint64_t *v = malloc((size_t)(n ? n : 1) * sizeof *v);
    for (int64_t i = 0; i < n; i++)
        v[i] = es == 1 ? buf[i] : es == 2 ? ((uint16_t *)buf)[i] : es == 4 ? ((uint32_t *)buf)[i] : ((uint64_t *)buf)[i];
    free(buf);
    return v;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static uint64_t next_random(void)   /* xorshift64*: fixed sequence, any bit pattern */
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545f4914f6cdd1dULL;
}

/* ------------------------------------------------------------ casts */

/* NumPy 1.24 on x86-64, np.array([...], np.float32).astype(...): the values it defines. */
START_TEST(float_to_unsigned_matches_numpy)
{
    const float f[] = { -1.0f, -3.7f, 0.5f, 70000.5f, 3e9f, 65535.9f };
    const uint64_t want16[] = { 65535, 65533, 0, 4464, 0 /* see below */, 65535 };
    const uint64_t want32[] = { 4294967295u, 4294967293u, 0, 70000, 3000000000u, 65535 };
    const uint64_t want64[] = { UINT64_MAX, UINT64_MAX - 2, 0, 70000, 3000000000u, 65535 };
    tk_tensor *x;
    TKT_OK(tk_from_data(tkt_ctx, f, TK_DTYPE_F32, 1, (int64_t[]){ 6 }, &x));
    for (int k = 0; k < 3; k++) {
        tk_tensor *y;
        TKT_OK(tk_to_dtype(tkt_ctx, x, UTYPES[k], &y));
        uint64_t *v = to_u64(y);
        const uint64_t *want = k == 0 ? want16 : k == 1 ? want32 : want64;
        for (int i = 0; i < 6; i++) {
            if (k == 0 && i == 4) continue;   /* 3e9 → u16: NumPy gives 0 (undefined in C); ours wraps, checked next */
            ck_assert_msg(v[i] == want[i], "%s of %g: got %llu, want %llu", tk_dtype_name(UTYPES[k]), (double)f[i],
                          (unsigned long long)v[i], (unsigned long long)want[i]);
        }
        free(v);
        tk_tensor_release(y);
    }
    tk_tensor_release(x);
    /* our definition where NumPy's is undefined: truncate, wrap modulo 2^64 then to the width; NaN and values
     * outside [-2^63, 2^64) give 0 (f64 sources, so the values are exact) */
    const double d[] = { 3e9, 1e10, -1e10, NAN, INFINITY, -INFINITY, 1.8e19, 1.9e19, -9.3e18, -9223372036854775808.0, 18446744073709549568.0 };
    const int nd = (int)(sizeof d / sizeof d[0]);
    TKT_OK(tk_from_data(tkt_ctx, d, TK_DTYPE_F64, 1, (int64_t[]){ nd }, &x));
    for (int k = 0; k < 3; k++) {
        tk_tensor *y;
        TKT_OK(tk_to_dtype(tkt_ctx, x, UTYPES[k], &y));
        uint64_t *v = to_u64(y);
        for (int i = 0; i < nd; i++) {
            uint64_t w = 0;
            if (d[i] == d[i] && d[i] >= -9223372036854775808.0 && d[i] < 18446744073709551616.0)
                w = d[i] < 0 ? (uint64_t)(int64_t)trunc(d[i]) : (uint64_t)trunc(d[i]);
            w &= mask_of(UTYPES[k]);
            ck_assert_msg(v[i] == w, "%s of %g: got %llu, want %llu", tk_dtype_name(UTYPES[k]), d[i], (unsigned long long)v[i],
                          (unsigned long long)w);
        }
        free(v);
        tk_tensor_release(y);
    }
    tk_tensor_release(x);
}
END_TEST

/* unsigned → every other dtype: integers wrap (C's conversion), floats are
 * the value rounded once (u64 → f32 straight, not through double). */
START_TEST(unsigned_to_everything)
{
    tk_tensor *u = from_u64(TK_DTYPE_U64, EDGES, 1, NUM_EDGES);
    tk_tensor *t;
    TKT_OK(tk_to_dtype(tkt_ctx, u, TK_DTYPE_F32, &t));
    float f[NUM_EDGES];
    TKT_OK(tk_to_data(tkt_ctx, t, f, sizeof f));
    for (int i = 0; i < NUM_EDGES; i++) ck_assert_msg(f[i] == (float)EDGES[i], "u64 %llu → f32 %.9g", (unsigned long long)EDGES[i], f[i]);
    tk_tensor_release(t);
    TKT_OK(tk_to_dtype(tkt_ctx, u, TK_DTYPE_F64, &t));
    double g[NUM_EDGES];
    TKT_OK(tk_to_data(tkt_ctx, t, g, sizeof g));
    for (int i = 0; i < NUM_EDGES; i++) ck_assert_msg(g[i] == (double)EDGES[i], "u64 %llu → f64 %.17g", (unsigned long long)EDGES[i], g[i]);
    tk_tensor_release(t);
    TKT_OK(tk_to_dtype(tkt_ctx, u, TK_DTYPE_I64, &t));
    int64_t s[NUM_EDGES];
    TKT_OK(tk_to_data(tkt_ctx, t, s, sizeof s));
    for (int i = 0; i < NUM_EDGES; i++) ck_assert(s[i] == (int64_t)EDGES[i]);
    tk_tensor_release(t);
    const tk_dtype narrow[] = { TK_DTYPE_U32, TK_DTYPE_U16, TK_DTYPE_U8, TK_DTYPE_I32, TK_DTYPE_I16, TK_DTYPE_I8, TK_DTYPE_BOOL };
    for (unsigned k = 0; k < sizeof narrow / sizeof narrow[0]; k++) {
        TKT_OK(tk_to_dtype(tkt_ctx, u, narrow[k], &t));
        unsigned char raw[NUM_EDGES * 4];
        size_t es = tk_dtype_size(narrow[k]);
        TKT_OK(tk_to_data(tkt_ctx, t, raw, es * NUM_EDGES));
        for (int i = 0; i < NUM_EDGES; i++) {
            uint64_t got = es == 1 ? raw[i] : es == 2 ? ((uint16_t *)raw)[i] : ((uint32_t *)raw)[i];
            uint64_t want = narrow[k] == TK_DTYPE_BOOL ? EDGES[i] != 0 : EDGES[i] & (es == 4 ? 0xffffffffu : es == 2 ? 0xffffu : 0xffu);
            ck_assert_msg(got == want, "u64 %llu → %s: got %llu", (unsigned long long)EDGES[i], tk_dtype_name(narrow[k]),
                          (unsigned long long)got);
        }
        tk_tensor_release(t);
    }
    /* and back: i64 -1 and i32 -1 wrap to the top of each unsigned type */
    int32_t neg[3] = { -1, -2, 5 };
    tk_tensor *i;
    TKT_OK(tk_from_data(tkt_ctx, neg, TK_DTYPE_I32, 1, (int64_t[]){ 3 }, &i));
    for (int k = 0; k < 3; k++) {
        TKT_OK(tk_to_dtype(tkt_ctx, i, UTYPES[k], &t));
        uint64_t *v = to_u64(t);
        ck_assert(v[0] == mask_of(UTYPES[k]) && v[1] == mask_of(UTYPES[k]) - 1 && v[2] == 5);
        free(v);
        tk_tensor_release(t);
    }
    TKT_RELEASE(u, i);
    /* printing: a u64 above 2^63 is its unsigned value */
    u = from_u64(TK_DTYPE_U64, (uint64_t[]){ UINT64_MAX }, 1, 1);
    char *desc = tk_tensor_describe(u, 4);
    ck_assert_msg(strstr(desc, "18446744073709551615"), "%s", desc);
    ck_assert_str_eq(tk_dtype_name(TK_DTYPE_U64), "u64");
    free(desc);
    tk_tensor_release(u);
}
END_TEST

/* ------------------------------------------------------------ binary ops */

static bool divides(tk_binary_op op) { return op == TK_FLOOR_DIVIDE || op == TK_REMAINDER || op == TK_FMOD; }

static uint64_t ref_binary(tk_binary_op op, uint64_t x, uint64_t y, tk_dtype d)
{
    uint64_t m = mask_of(d);
    int w = width_of(d);
    switch (op) {
    case TK_ADD: return (x + y) & m;
    case TK_SUB: return (x - y) & m;
    case TK_MUL: return (x * y) & m;
    case TK_FLOOR_DIVIDE: return x / y;
    case TK_REMAINDER:
    case TK_FMOD: return x % y;
    case TK_MAXIMUM: return x > y ? x : y;
    case TK_MINIMUM: return x < y ? x : y;
    case TK_EQ: return x == y;
    case TK_NE: return x != y;
    case TK_LT: return x < y;
    case TK_LE: return x <= y;
    case TK_GT: return x > y;
    case TK_GE: return x >= y;
    case TK_BITWISE_AND: return x & y;
    case TK_BITWISE_OR: return x | y;
    case TK_BITWISE_XOR: return x ^ y;
    case TK_SHIFT_LEFT: return y >= (uint64_t)w ? 0 : (x << y) & m;
    case TK_SHIFT_RIGHT: return y >= (uint64_t)w ? 0 : x >> y;
    case TK_POW: {
        uint64_t r = 1;
        for (uint64_t e = 0; e < y; e++) r *= x;
        return r & m;
    }
    default: return 0;
    }
}

/* Every op on every pair of edge values ([N,1] against [1,M] broadcast, and
 * a strided view of a), in each unsigned dtype. */
START_TEST(binary_ops_match_c)
{
    const tk_binary_op ops[] = { TK_ADD, TK_SUB, TK_MUL, TK_FLOOR_DIVIDE, TK_REMAINDER, TK_FMOD, TK_MAXIMUM, TK_MINIMUM,
                                 TK_EQ, TK_NE, TK_LT, TK_LE, TK_GT, TK_GE, TK_BITWISE_AND, TK_BITWISE_OR, TK_BITWISE_XOR,
                                 TK_SHIFT_LEFT, TK_SHIFT_RIGHT, TK_POW };
    const uint64_t shifts[] = { 0, 1, 7, 15, 16, 17, 31, 32, 33, 63, 64, 65, 200 };
    const uint64_t powers[] = { 0, 1, 2, 3, 5, 64 };
    for (int k = 0; k < 3; k++) {
        tk_dtype d = UTYPES[k];
        for (unsigned o = 0; o < sizeof ops / sizeof ops[0]; o++) {
            tk_binary_op op = ops[o];
            /* b: the edges (no zero for the division family), shift counts, or small exponents */
            uint64_t bv[NUM_EDGES];
            int nb = 0;
            if (op == TK_SHIFT_LEFT || op == TK_SHIFT_RIGHT)
                for (unsigned i = 0; i < sizeof shifts / sizeof shifts[0]; i++) bv[nb++] = shifts[i] & mask_of(d);
            else if (op == TK_POW)
                for (unsigned i = 0; i < sizeof powers / sizeof powers[0]; i++) bv[nb++] = powers[i];
            else
                for (int i = 0; i < NUM_EDGES; i++)
                    if (!divides(op) || (EDGES[i] & mask_of(d))) bv[nb++] = EDGES[i];
            tk_tensor *a = from_u64(d, EDGES, NUM_EDGES, 1), *b = from_u64(d, bv, 1, nb), *out;
            TKT_OK(tk_binary(tkt_ctx, op, a, b, &out));
            bool cmp = op >= TK_EQ && op <= TK_GE;
            ck_assert_msg(tk_tensor_dtype(out) == (cmp ? TK_DTYPE_BOOL : d), "%s %s: dtype %s", tk_dtype_name(d),
                          tk_binary_op_name(op), tk_dtype_name(tk_tensor_dtype(out)));
            uint64_t *v = to_u64(out);
            for (int i = 0; i < NUM_EDGES; i++)
                for (int j = 0; j < nb; j++) {
                    uint64_t x = EDGES[i] & mask_of(d), want = ref_binary(op, x, bv[j] & mask_of(d), d);
                    ck_assert_msg(v[i * nb + j] == want, "%s %s(%llu, %llu): got %llu, want %llu", tk_dtype_name(d),
                                  tk_binary_op_name(op), (unsigned long long)x, (unsigned long long)(bv[j] & mask_of(d)),
                                  (unsigned long long)v[i * nb + j], (unsigned long long)want);
                }
            free(v);
            TKT_RELEASE(a, b, out);
        }
    }
}
END_TEST

START_TEST(division_by_zero_is_refused)
{
    tk_tensor *a = from_u64(TK_DTYPE_U64, EDGES, 1, 4), *b = from_u64(TK_DTYPE_U64, (uint64_t[]){ 1, 0, 2, 3 }, 1, 4), *out = NULL;
    TKT_FAILS(tk_binary(tkt_ctx, TK_FLOOR_DIVIDE, a, b, &out), TK_ERR_INVALID_ARGUMENT, "division by zero");
    ck_assert_ptr_null(out);
    /* true division computes in f32: u64 max / 1 is 2^64 as f32 */
    tk_tensor *one = from_u64(TK_DTYPE_U64, (uint64_t[]){ 1 }, 1, 1), *m = from_u64(TK_DTYPE_U64, (uint64_t[]){ UINT64_MAX }, 1, 1);
    TKT_OK(tk_div(tkt_ctx, m, one, &out));
    float f;
    TKT_OK(tk_to_data(tkt_ctx, out, &f, sizeof f));
    ck_assert(tk_tensor_dtype(out) == TK_DTYPE_F32 && f == 18446744073709551616.0f);
    TKT_RELEASE(a, b, one, m, out);
}
END_TEST

/* NumPy's promotion (documented in docs/TENSOR_API.md) and a mixed op's value. */
START_TEST(promotion)
{
    ck_assert_int_eq(tk_promote_types(TK_DTYPE_U16, TK_DTYPE_I16), TK_DTYPE_I32);
    ck_assert_int_eq(tk_promote_types(TK_DTYPE_U16, TK_DTYPE_I8), TK_DTYPE_I32);
    ck_assert_int_eq(tk_promote_types(TK_DTYPE_U16, TK_DTYPE_I32), TK_DTYPE_I32);
    ck_assert_int_eq(tk_promote_types(TK_DTYPE_I32, TK_DTYPE_U32), TK_DTYPE_I64);
    ck_assert_int_eq(tk_promote_types(TK_DTYPE_U32, TK_DTYPE_I64), TK_DTYPE_I64);
    ck_assert_int_eq(tk_promote_types(TK_DTYPE_U64, TK_DTYPE_I64), TK_DTYPE_F64);
    ck_assert_int_eq(tk_promote_types(TK_DTYPE_I8, TK_DTYPE_U64), TK_DTYPE_F64);
    ck_assert_int_eq(tk_promote_types(TK_DTYPE_U8, TK_DTYPE_U16), TK_DTYPE_U16);
    ck_assert_int_eq(tk_promote_types(TK_DTYPE_U32, TK_DTYPE_U64), TK_DTYPE_U64);
    ck_assert_int_eq(tk_promote_types(TK_DTYPE_BOOL, TK_DTYPE_U32), TK_DTYPE_U32);
    ck_assert_int_eq(tk_promote_types(TK_DTYPE_U64, TK_DTYPE_F16), TK_DTYPE_F16);
    ck_assert_int_eq(tk_promote_types(TK_DTYPE_U8, TK_DTYPE_I8), TK_DTYPE_I16);   /* unchanged */
    tk_tensor *a = from_u64(TK_DTYPE_U32, (uint64_t[]){ 4000000000u }, 1, 1), *b, *out;
    int32_t m1 = -1;
    TKT_OK(tk_from_data(tkt_ctx, &m1, TK_DTYPE_I32, 2, (int64_t[]){ 1, 1 }, &b));
    TKT_OK(tk_add(tkt_ctx, a, b, &out));
    int64_t v;
    TKT_OK(tk_to_data(tkt_ctx, out, &v, sizeof v));
    ck_assert(tk_tensor_dtype(out) == TK_DTYPE_I64 && v == 3999999999);
    TKT_RELEASE(a, b, out);
    /* a scalar keeps the tensor's unsigned type and wraps: u32 0 - 1 */
    a = from_u64(TK_DTYPE_U32, (uint64_t[]){ 0 }, 1, 1);
    TKT_OK(tk_binary_scalar(tkt_ctx, TK_SUB, a, 1, &out));
    uint64_t *r = to_u64(out);
    ck_assert(tk_tensor_dtype(out) == TK_DTYPE_U32 && r[0] == 4294967295u);
    free(r);
    TKT_RELEASE(a, out);
}
END_TEST

/* ------------------------------------------------------------ unary, where */

START_TEST(unary_and_where)
{
    for (int k = 0; k < 3; k++) {
        tk_dtype d = UTYPES[k];
        uint64_t m = mask_of(d);
        tk_tensor *a = from_u64(d, EDGES, 3, NUM_EDGES / 3), *out;
        const tk_unary_op ops[] = { TK_NEG, TK_ABS, TK_SIGN, TK_BITWISE_NOT, TK_SQUARE, TK_RELU, TK_FLOOR, TK_LOGICAL_NOT };
        for (unsigned o = 0; o < sizeof ops / sizeof ops[0]; o++) {
            TKT_OK(tk_unary(tkt_ctx, ops[o], a, &out));
            uint64_t *v = to_u64(out);
            for (int i = 0; i < NUM_EDGES; i++) {
                uint64_t x = EDGES[i] & m, want;
                switch (ops[o]) {
                case TK_NEG: want = (0 - x) & m; break;
                case TK_SIGN: want = x != 0; break;
                case TK_BITWISE_NOT: want = ~x & m; break;
                case TK_SQUARE: want = (x * x) & m; break;
                case TK_LOGICAL_NOT: want = x == 0; break;
                default: want = x; break;   /* abs, relu, floor of an unsigned value */
                }
                ck_assert_msg(v[i] == want, "%s %s(%llu): got %llu, want %llu", tk_dtype_name(d), tk_unary_op_name(ops[o]),
                              (unsigned long long)x, (unsigned long long)v[i], (unsigned long long)want);
            }
            free(v);
            tk_tensor_release(out);
        }
        /* clamp to [3, 2^40] (an absent max stays absent above 2^63) */
        TKT_OK(tk_clamp(tkt_ctx, a, &(tk_clamp_opts){ .has_min = true, .min = 3, .has_max = true, .max = 1099511627776.0 }, &out));
        uint64_t *v = to_u64(out);
        for (int i = 0; i < NUM_EDGES; i++) {
            uint64_t x = EDGES[i] & m, want = x < 3 ? 3 : x > 1099511627776ull ? 1099511627776ull : x;
            ck_assert_msg(v[i] == want, "%s clamp(%llu): got %llu, want %llu", tk_dtype_name(d), (unsigned long long)x,
                          (unsigned long long)v[i], (unsigned long long)want);
        }
        free(v);
        tk_tensor_release(out);
        TKT_OK(tk_clamp(tkt_ctx, a, &(tk_clamp_opts){ .has_min = true, .min = 5 }, &out));
        v = to_u64(out);
        for (int i = 0; i < NUM_EDGES; i++) ck_assert(v[i] == ((EDGES[i] & m) < 5 ? 5 : (EDGES[i] & m)));
        free(v);
        tk_tensor_release(out);
        /* where: the selected bits unchanged */
        uint8_t c[NUM_EDGES];
        for (int i = 0; i < NUM_EDGES; i++) c[i] = (uint8_t)(i % 3 == 0);
        tk_tensor *cond, *b = from_u64(d, (uint64_t[]){ UINT64_MAX - 5 }, 1, 1);
        TKT_OK(tk_from_data(tkt_ctx, c, TK_DTYPE_BOOL, 2, (int64_t[]){ 3, NUM_EDGES / 3 }, &cond));
        TKT_OK(tk_where(tkt_ctx, cond, a, b, &out));
        v = to_u64(out);
        for (int i = 0; i < NUM_EDGES; i++) ck_assert(v[i] == (c[i] ? EDGES[i] & m : (UINT64_MAX - 5) & m));
        free(v);
        TKT_RELEASE(a, b, cond, out);
    }
}
END_TEST

/* ------------------------------------------------------------ reductions and sort */

/* sum/prod (u64, wrapping), max/min/argmax/argmin over a long odd-shaped
 * reduction, and the same bits on 1 and 2 threads. */
START_TEST(reductions_match_c)
{
    const int64_t R = 3, C = 70001;   /* few outputs, long rows: the pieced path */
    uint64_t *x = malloc((size_t)(R * C) * sizeof *x);
    for (int k = 0; k < 3; k++) {
        tk_dtype d = UTYPES[k];
        uint64_t m = mask_of(d);
        for (int64_t i = 0; i < R * C; i++) x[i] = (i % 97 == 0 ? EDGES[i % NUM_EDGES] : next_random()) & m;
        x[C + 12345] = m;   /* row 1's max is the type's max, its min 0 */
        x[C + 54321] = 0;
        tk_tensor *a = from_u64(d, x, R, C);
        tk_tensor *first[6] = { 0 };
        for (int threads = 1; threads <= 2; threads++) {
            TKT_OK(tk_context_set_threads(tkt_ctx, threads));
            tk_tensor *r[6];
            int dim = 1;
            tk_reduce_opts o = { .dims = &dim, .ndims = 1 };
            TKT_OK(tk_reduce(tkt_ctx, TK_SUM, a, &o, &r[0]));
            TKT_OK(tk_reduce(tkt_ctx, TK_PROD, a, &o, &r[1]));
            TKT_OK(tk_reduce(tkt_ctx, TK_MAX, a, &o, &r[2]));
            TKT_OK(tk_reduce(tkt_ctx, TK_MIN, a, &o, &r[3]));
            TKT_OK(tk_argmax(tkt_ctx, a, 1, false, &r[4]));
            TKT_OK(tk_argmin(tkt_ctx, a, 1, false, &r[5]));
            ck_assert_int_eq(tk_tensor_dtype(r[0]), TK_DTYPE_U64);
            ck_assert_int_eq(tk_tensor_dtype(r[2]), d);
            uint64_t *v[4];
            for (int q = 0; q < 4; q++) v[q] = to_u64(r[q]);
            int64_t am[3], an[3];
            TKT_OK(tk_to_data(tkt_ctx, r[4], am, sizeof am));
            TKT_OK(tk_to_data(tkt_ctx, r[5], an, sizeof an));
            for (int64_t row = 0; row < R; row++) {
                uint64_t s = 0, p = 1, mx = 0, mn = UINT64_MAX;
                int64_t imx = 0, imn = 0;
                for (int64_t j = 0; j < C; j++) {
                    uint64_t e = x[row * C + j];
                    s += e, p *= e;
                    if (e > mx || j == 0) mx = e, imx = j;
                    if (e < mn || j == 0) mn = e, imn = j;
                }
                ck_assert_msg(v[0][row] == s, "%s sum row %lld: got %llu, want %llu", tk_dtype_name(d), (long long)row,
                              (unsigned long long)v[0][row], (unsigned long long)s);
                ck_assert(v[1][row] == p);
                ck_assert_msg(v[2][row] == mx && v[3][row] == mn, "%s max/min row %lld: got %llu/%llu, want %llu/%llu",
                              tk_dtype_name(d), (long long)row, (unsigned long long)v[2][row], (unsigned long long)v[3][row],
                              (unsigned long long)mx, (unsigned long long)mn);
                ck_assert_msg(am[row] == imx && an[row] == imn, "%s argmax/argmin row %lld: %lld/%lld, want %lld/%lld",
                              tk_dtype_name(d), (long long)row, (long long)am[row], (long long)an[row], (long long)imx, (long long)imn);
            }
            for (int q = 0; q < 4; q++) free(v[q]);
            for (int q = 0; q < 6; q++) {
                if (threads == 1) first[q] = r[q];
                else {
                    tkt_expect_equal(r[q], first[q], "2 threads against 1");
                    TKT_RELEASE(r[q], first[q]);
                }
            }
        }
        /* cumsum: u64 running sums, wrapping */
        tk_tensor *cs;
        TKT_OK(tk_cumsum(tkt_ctx, a, 1, &cs));
        ck_assert_int_eq(tk_tensor_dtype(cs), TK_DTYPE_U64);
        uint64_t *v = to_u64(cs), acc = 0;
        for (int64_t j = 0; j < C; j++) {
            acc += x[C + j];
            ck_assert(v[C + j] == acc);
        }
        free(v);
        TKT_RELEASE(a, cs);
    }
    free(x);
}
END_TEST

static int cmp_desc(const void *p, const void *q)
{
    uint64_t a = *(const uint64_t *)p, b = *(const uint64_t *)q;
    return (a < b) - (a > b);
}

START_TEST(sort_and_topk)
{
    uint64_t x[NUM_EDGES];
    for (int i = 0; i < NUM_EDGES; i++) x[i] = EDGES[(i * 5) % NUM_EDGES];   /* shuffled (5 is coprime with 21) */
    tk_tensor *a = from_u64(TK_DTYPE_U64, x, 1, NUM_EDGES), *vals, *idx;
    TKT_OK(tk_sort(tkt_ctx, a, 1, true, &vals, &idx));
    uint64_t *v = to_u64(vals), want[NUM_EDGES];
    memcpy(want, x, sizeof want);
    qsort(want, NUM_EDGES, sizeof *want, cmp_desc);
    for (int i = 0; i < NUM_EDGES; i++) ck_assert_msg(v[i] == want[i], "sorted %d: %llu, want %llu", i, (unsigned long long)v[i], (unsigned long long)want[i]);
    free(v);
    TKT_RELEASE(vals, idx);
    TKT_OK(tk_topk(tkt_ctx, a, 3, 1, &(tk_topk_opts){ .smallest = true }, &vals, &idx));
    v = to_u64(vals);
    ck_assert(v[0] == 0 && v[1] == 1 && v[2] == 2);
    free(v);
    TKT_RELEASE(a, vals, idx);
}
END_TEST

/* ------------------------------------------------------------ indexing */

START_TEST(gather_scatter)
{
    for (int k = 0; k < 3; k++) {
        tk_dtype d = UTYPES[k];
        uint64_t m = mask_of(d);
        tk_tensor *a = from_u64(d, EDGES, 3, 7), *idx, *out;
        int64_t ix[3 * 2] = { 6, 0, 3, 3, 1, 5 };
        TKT_OK(tk_from_data(tkt_ctx, ix, TK_DTYPE_I64, 2, (int64_t[]){ 3, 2 }, &idx));
        TKT_OK(tk_gather(tkt_ctx, a, 1, idx, &out));
        uint64_t *v = to_u64(out);
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 2; c++) ck_assert(v[r * 2 + c] == (EDGES[r * 7 + ix[r * 2 + c]] & m));
        free(v);
        tk_tensor_release(out);
        /* scatter-add wraps: row r adds src into columns ix[r, :] */
        tk_tensor *src = from_u64(d, (uint64_t[]){ UINT64_MAX, 2, 3, 4, 5, 6 }, 3, 2);
        TKT_OK(tk_scatter(tkt_ctx, a, 1, idx, src, TK_SCATTER_ADD, &out));
        v = to_u64(out);
        uint64_t want[21];
        for (int i = 0; i < 21; i++) want[i] = EDGES[i] & m;
        const uint64_t sv[6] = { UINT64_MAX, 2, 3, 4, 5, 6 };
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 2; c++) want[r * 7 + ix[r * 2 + c]] = (want[r * 7 + ix[r * 2 + c]] + (sv[r * 2 + c] & m)) & m;
        for (int i = 0; i < 21; i++) ck_assert_msg(v[i] == want[i], "%s scatter_add %d: %llu, want %llu", tk_dtype_name(d), i,
                                                   (unsigned long long)v[i], (unsigned long long)want[i]);
        free(v);
        TKT_RELEASE(a, idx, out, src);
    }
}
END_TEST

/* ------------------------------------------------------------ files and DLPack */

START_TEST(npy_and_dlpack)
{
    char dir[256];
    const char *base = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/tk_unsigned_XXXXXX", base && *base ? base : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    for (int k = 0; k < 3; k++) {
        tk_dtype d = UTYPES[k];
        tk_tensor *a = from_u64(d, EDGES, 3, 7), *back;
        char path[400];
        snprintf(path, sizeof path, "%s/%s.npy", dir, tk_dtype_name(d));
        TKT_OK(tk_save_npy(tkt_ctx, a, path));
        /* the header says NumPy's little-endian unsigned type */
        FILE *fp = fopen(path, "rb");
        char head[129] = { 0 };
        ck_assert(fread(head, 1, 128, fp) == 128);
        fclose(fp);
        const char *descr = d == TK_DTYPE_U16 ? "'<u2'" : d == TK_DTYPE_U32 ? "'<u4'" : "'<u8'";
        ck_assert_msg(strstr(head + 10, descr), "%s: header %s", tk_dtype_name(d), head + 10);
        TKT_OK(tk_load_npy(tkt_ctx, path, &back));
        if (d == TK_DTYPE_U16) ck_assert_int_eq(tk_tensor_dtype(back), TK_DTYPE_BF16);   /* <u2 reads as bf16 bits (tk/io.h) */
        else tkt_expect_equal(back, a, tk_dtype_name(d));
        ck_assert_int_eq(memcmp(tk_tensor_data(back), tk_tensor_data(a), 21 * tk_dtype_size(d)), 0);
        unlink(path);
        tk_tensor_release(back);
        /* ONNX TensorProto round trip */
        snprintf(path, sizeof path, "%s/%s.pb", dir, tk_dtype_name(d));
        TKT_OK(tk_save_onnx_tensor(tkt_ctx, a, path, "x"));
        TKT_OK(tk_load_onnx_tensor(tkt_ctx, path, &back));
        tkt_expect_equal(back, a, "onnx tensor");
        unlink(path);
        tk_tensor_release(back);
        /* DLPack: kDLUInt of the width, and back without a copy */
        DLManagedTensorVersioned *mt;
        TKT_OK(tk_to_dlpack(tkt_ctx, a, &mt));
        ck_assert(mt->dl_tensor.dtype.code == kDLUInt && mt->dl_tensor.dtype.bits == width_of(d) && mt->dl_tensor.dtype.lanes == 1);
        TKT_OK(tk_from_dlpack(tkt_ctx, mt, &back));
        ck_assert_int_eq(tk_tensor_dtype(back), d);
        ck_assert_ptr_eq(tk_tensor_data(back), tk_tensor_data(a));
        TKT_RELEASE(a, back);
    }
    rmdir(dir);
}
END_TEST

static Suite *unsigned_suite(void)
{
    Suite *s = suite_create("tensor_unsigned");
    TCase *tc = tkt_case("unsigned");
    tcase_add_test(tc, float_to_unsigned_matches_numpy);
    tcase_add_test(tc, unsigned_to_everything);
    tcase_add_test(tc, binary_ops_match_c);
    tcase_add_test(tc, division_by_zero_is_refused);
    tcase_add_test(tc, promotion);
    tcase_add_test(tc, unary_and_where);
    tcase_add_test(tc, reductions_match_c);
    tcase_add_test(tc, sort_and_topk);
    tcase_add_test(tc, gather_scatter);
    tcase_add_test(tc, npy_and_dlpack);
    suite_add_tcase(s, tc);
    return s;
}

TKT_MAIN(unsigned_suite)
