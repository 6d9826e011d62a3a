/* test_lowp.c — the low-precision storage types (runtime/core/dtype_lowp.c)
 * against references written here from each format's definition:
 *
 *  - decoding: every code of every float8/float4 format from sign, exponent,
 *    mantissa and bias (plus the formats' published largest and smallest
 *    values), directly and through tk_to_dtype;
 *  - encoding: a brute-force reference (the nearest finite code, ties to the
 *    even code; the overflow rule from the top binade's half ulp) on every
 *    code, every midpoint and its neighbours, zeros, NaN, ±inf and huge
 *    values, with and without saturate;
 *  - E8M0 from ONNX's to_float8e8m0 rules (up / down / nearest, saturate);
 *  - the 2- and 4-bit integers: float → truncated, 0 out of range; int → wrap;
 *  - TensorProto packing of all nibble / crumb patterns, both directions,
 *    raw_data and int32_data, odd counts;
 *  - arithmetic refused with TK_ERR_DTYPE, and conversions bit-identical on
 *    1 and 2 threads. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "internal.h"
#include "tk/io.h"

/* ------------------------------------------------------------ the formats, from their definitions */

enum { IEEE, FN, FNUZ, NO_SPECIALS };   /* which codes are inf / NaN */

typedef struct {
    tk_dtype dt;
    int e, m, bias, kind;
    double max, min_sub;   /* published: OCP FP8 / ONNX docs */
} Fmt;

static const Fmt FMTS[] = {
    { TK_DTYPE_F8E4M3FN, 4, 3, 7, FN, 448.0, 0x1p-9 },
    { TK_DTYPE_F8E4M3FNUZ, 4, 3, 8, FNUZ, 240.0, 0x1p-10 },
    { TK_DTYPE_F8E5M2, 5, 2, 15, IEEE, 57344.0, 0x1p-16 },
    { TK_DTYPE_F8E5M2FNUZ, 5, 2, 16, FNUZ, 57344.0, 0x1p-17 },
    { TK_DTYPE_F4E2M1, 2, 1, 1, NO_SPECIALS, 6.0, 0.5 },
};
#define NUM_FMTS ((int)(sizeof FMTS / sizeof FMTS[0]))

static int ncodes(const Fmt *f) { return 1 << (1 + f->e + f->m); }

static double ref_decode(const Fmt *f, unsigned code)
{
    unsigned sign = (code >> (f->e + f->m)) & 1, ex = (code >> f->m) & ((1u << f->e) - 1), man = code & ((1u << f->m) - 1);
    bool all_e = ex == (1u << f->e) - 1, all_m = man == (1u << f->m) - 1;
    if (f->kind == FNUZ && code == 0x80) return NAN;
    if (f->kind == FN && all_e && all_m) return NAN;
    if (f->kind == IEEE && all_e) return man ? NAN : sign ? -INFINITY : INFINITY;
    double v = ex == 0 ? man * pow(2.0, 1 - f->bias - f->m) : (1.0 + man / pow(2.0, f->m)) * pow(2.0, (int)ex - f->bias);
    return sign ? -v : v;
}

/* ml_dtypes' NaN codes (the ONNX reference's casts). */
static unsigned ref_nan(const Fmt *f, bool neg)
{
    switch (f->kind) {
    case FN: return neg ? 0xFF : 0x7F;
    case FNUZ: return 0x80;
    case IEEE: return neg ? 0xFE : 0x7E;
    default: return neg ? 0x0 : 0x8;   /* float4: a zero of the other sign */
    }
}

static unsigned ref_max_code(const Fmt *f)
{
    unsigned best = 0;
    for (int c = 0; c < ncodes(f) / 2; c++)
        if (isfinite(ref_decode(f, (unsigned)c)) && ref_decode(f, (unsigned)c) > ref_decode(f, best)) best = (unsigned)c;
    return best;
}

/* Nearest finite code of v's sign, ties to the even code; the overflow rule
 * from the top binade: past max + ulp/2 (or at it when max's code is odd). */
static unsigned ref_encode(const Fmt *f, double v, bool saturate)
{
    bool neg = signbit(v);
    unsigned sign = neg ? 1u << (f->e + f->m) : 0, maxc = ref_max_code(f);
    if (isnan(v)) return ref_nan(f, neg);
    double a = fabs(v), max = ref_decode(f, maxc), below = ref_decode(f, maxc - 1), edge = max + (max - below) / 2;
    bool over = a > edge || (a == edge && (maxc & 1));
    if (a > max && (saturate || f->kind == NO_SPECIALS)) return sign | maxc;
    if (over) {
        if (f->kind == IEEE) return sign | (((1u << f->e) - 1) << f->m);   /* inf */
        return ref_nan(f, neg);
    }
    unsigned best = 0;
    double bd = INFINITY;
    for (unsigned c = 0; c <= maxc; c++) {
        double d = fabs(ref_decode(f, c) - a);
        if (d < bd || (d == bd && !(c & 1))) bd = d, best = c;
    }
    if (best == 0) return f->kind == FNUZ ? 0 : sign;   /* FNUZ has no -0 */
    return sign | best;
}

static void expect_same_value(double got, double want, const char *what, unsigned code)
{
    if (isnan(want)) ck_assert_msg(isnan(got), "%s code 0x%02x: got %g, want NaN", what, code, got);
    else ck_assert_msg(got == want && signbit(got) == signbit(want), "%s code 0x%02x: got %g, want %g", what, code, got, want);
}

START_TEST(published_extremes)
{
    for (int i = 0; i < NUM_FMTS; i++) {
        const Fmt *f = &FMTS[i];
        ck_assert_msg(ref_decode(f, ref_max_code(f)) == f->max, "%s max", tk_dtype_name(f->dt));
        ck_assert_msg(ref_decode(f, 1) == f->min_sub, "%s smallest subnormal", tk_dtype_name(f->dt));
        ck_assert_msg(tkr_lowp_decode(f->dt, (uint8_t)ref_max_code(f)) == f->max, "%s max decoded", tk_dtype_name(f->dt));
    }
}
END_TEST

START_TEST(decode_every_code)
{
    for (int i = 0; i < NUM_FMTS; i++) {
        const Fmt *f = &FMTS[i];
        int n = ncodes(f);
        uint8_t codes[256];
        for (int c = 0; c < n; c++) {
            codes[c] = (uint8_t)c;
            expect_same_value(tkr_lowp_decode(f->dt, (uint8_t)c), ref_decode(f, (unsigned)c), tk_dtype_name(f->dt), (unsigned)c);
        }
        /* the same through tk_to_dtype into f32 and f64 */
        tk_tensor *t, *t32, *t64;
        TKT_OK(tk_from_data(tkt_ctx, codes, f->dt, 1, (int64_t[]){ n }, &t));
        TKT_OK(tk_to_dtype(tkt_ctx, t, TK_DTYPE_F32, &t32));
        TKT_OK(tk_to_dtype(tkt_ctx, t, TK_DTYPE_F64, &t64));
        float v32[256];
        double v64[256];
        TKT_OK(tk_to_data(tkt_ctx, t32, v32, (size_t)n * 4));
        TKT_OK(tk_to_data(tkt_ctx, t64, v64, (size_t)n * 8));
        for (int c = 0; c < n; c++) {
            expect_same_value(v32[c], ref_decode(f, (unsigned)c), "to f32", (unsigned)c);
            expect_same_value(v64[c], ref_decode(f, (unsigned)c), "to f64", (unsigned)c);
        }
        TKT_RELEASE(t, t32, t64);
    }
}
END_TEST

/* Every code's value, every midpoint between neighbours and the doubles next
 * to it, above the max, zeros, inf, NaN: both signs, saturate on and off. */
START_TEST(encode_against_brute_force)
{
    for (int i = 0; i < NUM_FMTS; i++) {
        const Fmt *f = &FMTS[i];
        unsigned maxc = ref_max_code(f);
        double vals[2048];
        int nv = 0;
        for (unsigned c = 0; c <= maxc; c++) {
            double a = ref_decode(f, c), b = c < maxc ? ref_decode(f, c + 1) : f->max + (f->max - ref_decode(f, maxc - 1));
            double mid = (a + b) / 2;
            vals[nv++] = a, vals[nv++] = mid, vals[nv++] = nextafter(mid, 0), vals[nv++] = nextafter(mid, INFINITY);
        }
        const double extra[] = { 0.0, INFINITY, NAN, 1e30, 2 * f->max, f->max * 1.01, f->min_sub / 4, 1e-300 };
        for (unsigned k = 0; k < sizeof extra / sizeof extra[0]; k++) vals[nv++] = extra[k];
        for (int k = 0; k < nv; k++)
            for (int sgn = 0; sgn < 2; sgn++)
                for (int sat = 0; sat < 2; sat++) {
                    double v = sgn ? -vals[k] : vals[k];
                    unsigned got = tkr_lowp_encode(f->dt, v, sat, TKR_ROUND_UP), want = ref_encode(f, v, sat);
                    ck_assert_msg(got == want, "%s encode(%.17g, saturate=%d) = 0x%02x, want 0x%02x", tk_dtype_name(f->dt), v, sat, got,
                                  want);
                }
    }
}
END_TEST

/* Facts stated in the ONNX Cast docs and the node suite's cases. */
START_TEST(encode_named_cases)
{
    ck_assert_uint_eq(tkr_lowp_encode(TK_DTYPE_F8E4M3FN, 464, false, 0), 0x7E);    /* tie between 448 and 480 (NaN): to even, 448 */
    ck_assert_uint_eq(tkr_lowp_encode(TK_DTYPE_F8E4M3FN, 465, false, 0), 0x7F);    /* past it: NaN */
    ck_assert_uint_eq(tkr_lowp_encode(TK_DTYPE_F8E4M3FN, 1e6, true, 0), 0x7E);     /* saturate: 448 */
    ck_assert_uint_eq(tkr_lowp_encode(TK_DTYPE_F8E4M3FN, -INFINITY, true, 0), 0xFE);
    ck_assert_uint_eq(tkr_lowp_encode(TK_DTYPE_F8E5M2, INFINITY, false, 0), 0x7C);
    ck_assert_uint_eq(tkr_lowp_encode(TK_DTYPE_F8E5M2, INFINITY, true, 0), 0x7B);  /* 57344 */
    ck_assert_uint_eq(tkr_lowp_encode(TK_DTYPE_F8E5M2FNUZ, INFINITY, false, 0), 0x80);
    ck_assert_uint_eq(tkr_lowp_encode(TK_DTYPE_F8E5M2FNUZ, -1e-7, false, 0), 0x00); /* no -0 */
    ck_assert_uint_eq(tkr_lowp_encode(TK_DTYPE_F8E4M3FNUZ, -0.0, false, 0), 0x00);
    ck_assert_uint_eq(tkr_lowp_encode(TK_DTYPE_F8E4M3FN, -0.0, false, 0), 0x80);
    ck_assert_uint_eq(tkr_lowp_encode(TK_DTYPE_F4E2M1, 0.25, false, 0), 0x0);       /* tie 0 / 0.5: to even */
    ck_assert_uint_eq(tkr_lowp_encode(TK_DTYPE_F4E2M1, 0.75, false, 0), 0x2);       /* tie 0.5 / 1: to even, 1 */
    ck_assert_uint_eq(tkr_lowp_encode(TK_DTYPE_F4E2M1, 1e6, false, 0), 0x7);        /* no inf: 6 */
    ck_assert_uint_eq(tkr_lowp_encode(TK_DTYPE_F4E2M1, NAN, false, 0), 0x8);        /* as the suite's expected output */
}
END_TEST

/* ------------------------------------------------------------ E8M0 */

/* ONNX's to_float8e8m0 restated on the value: k = floor(log2 |x|) as a float32. */
static unsigned ref_e8m0(double v, bool saturate, TkrRoundMode rm)
{
    float x = fabsf((float)v);
    if (isnan(x) || isinf(x)) return 0xFF;
    if (x < 0x1p-126f) {   /* zero and the float32 subnormals: exponent field 0 */
        if (rm == TKR_ROUND_DOWN) return 0;
        if (rm == TKR_ROUND_UP) return x > 0 ? 1 : 0;
        return x > 0x1p-127f ? 1 : 0;   /* nearest: ties down here (the reference's lsb is exponent > 0) */
    }
    int e;
    double fr = frexp(x, &e) * 2 - 1;   /* x = (1 + fr) 2^(e-1) */
    unsigned k = (unsigned)(e - 1 + 127);
    bool up = rm == TKR_ROUND_UP ? fr > 0 : rm == TKR_ROUND_NEAREST ? fr >= 0.5 : false;
    if (up && saturate && k == 254) up = false;
    return k + up;
}

START_TEST(e8m0_every_code_and_rounding)
{
    for (int c = 0; c < 256; c++)
        expect_same_value(tkr_lowp_decode(TK_DTYPE_F8E8M0, (uint8_t)c), c == 255 ? NAN : pow(2.0, c - 127), "e8m0", (unsigned)c);
    const double vals[] = { 0.0, -0.0, 1.0, 1.5, 1.25, 1.75, 0.75, 3.0, 0.124, 1.1, 2.0, -8.0, 1e-39, 5.877471754111438e-39,
                            6e-39, 3e38, 0x1p127, 3.4e38, 1e-45, INFINITY, -INFINITY, NAN, 0x1.8p-127, 1.5 * 0x1p-126 };
    const TkrRoundMode modes[] = { TKR_ROUND_UP, TKR_ROUND_DOWN, TKR_ROUND_NEAREST };
    for (unsigned i = 0; i < sizeof vals / sizeof vals[0]; i++)
        for (int m = 0; m < 3; m++)
            for (int sat = 0; sat < 2; sat++) {
                unsigned got = tkr_lowp_encode(TK_DTYPE_F8E8M0, vals[i], sat, modes[m]), want = ref_e8m0(vals[i], sat, modes[m]);
                ck_assert_msg(got == want, "e8m0 encode(%g, sat=%d, mode %d) = %u, want %u", vals[i], sat, m, got, want);
            }
    ck_assert_uint_eq(tkr_lowp_encode(TK_DTYPE_F8E8M0, 3e38, false, TKR_ROUND_UP), 0xFF);   /* rounds past the top: NaN */
    ck_assert_uint_eq(tkr_lowp_encode(TK_DTYPE_F8E8M0, 3e38, true, TKR_ROUND_UP), 0xFE);
}
END_TEST

/* ------------------------------------------------------------ 2- and 4-bit integers */

static const struct {
    tk_dtype dt;
    int lo, hi;
} INTS[] = { { TK_DTYPE_I4, -8, 7 }, { TK_DTYPE_U4, 0, 15 }, { TK_DTYPE_I2, -2, 1 }, { TK_DTYPE_U2, 0, 3 } };

START_TEST(small_ints_from_floats_and_ints)
{
    enum { N = 167 };
    for (unsigned k = 0; k < sizeof INTS / sizeof INTS[0]; k++) {
        float f[N];
        int32_t iv[N];
        for (int i = 0; i < N; i++) f[i] = -20.75f + 0.25f * (float)i, iv[i] = i - 83;
        f[0] = NAN;
        tk_tensor *tf, *ti, *qf, *qi, *back;
        TKT_OK(tk_from_data(tkt_ctx, f, TK_DTYPE_F32, 2, (int64_t[]){ 1, N }, &tf));
        TKT_OK(tk_from_data(tkt_ctx, iv, TK_DTYPE_I32, 2, (int64_t[]){ N, 1 }, &ti));
        TKT_OK(tk_to_dtype(tkt_ctx, tf, INTS[k].dt, &qf));
        TKT_OK(tk_to_dtype(tkt_ctx, ti, INTS[k].dt, &qi));
        TKT_OK(tk_to_dtype(tkt_ctx, qi, TK_DTYPE_I32, &back));
        int8_t bf[N], bi[N];
        int32_t bb[N];
        TKT_OK(tk_to_data(tkt_ctx, qf, bf, N));
        TKT_OK(tk_to_data(tkt_ctx, qi, bi, N));
        TKT_OK(tk_to_data(tkt_ctx, back, bb, sizeof bb));
        int span = INTS[k].hi - INTS[k].lo + 1;
        for (int i = 0; i < N; i++) {
            double t = trunc(f[i]);
            int want_f = isnan(f[i]) || t < INTS[k].lo || t > INTS[k].hi ? 0 : (int)t;   /* ml_dtypes: out of range → 0 */
            int want_i = ((iv[i] - INTS[k].lo) % span + span) % span + INTS[k].lo;     /* wraps */
            ck_assert_msg(tkr_load_i(&bf[i], INTS[k].dt) == want_f, "%s from %g: %d, want %d", tk_dtype_name(INTS[k].dt), f[i],
                          (int)tkr_load_i(&bf[i], INTS[k].dt), want_f);
            ck_assert_msg(bb[i] == want_i, "%s from %d: %d, want %d", tk_dtype_name(INTS[k].dt), iv[i], bb[i], want_i);
        }
        TKT_RELEASE(tf, ti, qf, qi, back);
    }
}
END_TEST

/* ------------------------------------------------------------ TensorProto packing */

static char tmp_dir[256];

static const char *tmp_file(const char *name)
{
    static char p[600];
    if (!tmp_dir[0]) {
        snprintf(tmp_dir, sizeof tmp_dir, "/tmp/tk_lowp_XXXXXX");
        ck_assert_ptr_nonnull(mkdtemp(tmp_dir));
    }
    snprintf(p, sizeof p, "%s/%s", tmp_dir, name);
    return p;
}

static size_t put_varint(uint8_t *p, uint64_t v)
{
    size_t n = 0;
    do {
        p[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v);
    return n;
}

/* A TensorProto with one dim n, data_type dt, and the bytes as raw_data or int32_data. */
static size_t make_pb(uint8_t *buf, int64_t n, int onnx_type, const uint8_t *bytes, size_t nbytes, bool as_int32)
{
    size_t k = 0;
    buf[k++] = 0x08, k += put_varint(buf + k, (uint64_t)n);
    buf[k++] = 0x10, k += put_varint(buf + k, (uint64_t)onnx_type);
    if (as_int32)
        for (size_t i = 0; i < nbytes; i++) buf[k++] = 0x28, k += put_varint(buf + k, bytes[i]);
    else {
        buf[k++] = 0x4a, k += put_varint(buf + k, nbytes);
        memcpy(buf + k, bytes, nbytes), k += nbytes;
    }
    return k;
}

static tk_tensor *load_pb(const uint8_t *buf, size_t len)
{
    const char *path = tmp_file("in.pb");
    FILE *fp = fopen(path, "wb");
    ck_assert_ptr_nonnull(fp);
    ck_assert_uint_eq(fwrite(buf, 1, len, fp), len);
    fclose(fp);
    tk_tensor *t;
    TKT_OK(tk_load_onnx_tensor(tkt_ctx, path, &t));
    return t;
}

/* The raw_data bytes tk_save_onnx_tensor wrote (the file ends with them). */
static void saved_raw(const tk_tensor *t, uint8_t *out, size_t n)
{
    const char *path = tmp_file("out.pb");
    TKT_OK(tk_save_onnx_tensor(tkt_ctx, t, path, NULL));
    FILE *fp = fopen(path, "rb");
    ck_assert_ptr_nonnull(fp);
    fseek(fp, -(long)n, SEEK_END);
    ck_assert_uint_eq(fread(out, 1, n, fp), n);
    fclose(fp);
    unlink(path);
}

static const struct {
    tk_dtype dt;
    int onnx, per_byte;
} PACKED[] = { { TK_DTYPE_I4, 22, 2 }, { TK_DTYPE_U4, 21, 2 }, { TK_DTYPE_F4E2M1, 23, 2 }, { TK_DTYPE_I2, 26, 4 }, { TK_DTYPE_U2, 25, 4 } };

/* An element's value from its bits, per the type (the reference for unpacking). */
static double field_value(tk_dtype dt, unsigned bits)
{
    switch (dt) {
    case TK_DTYPE_I4: return bits >= 8 ? (double)bits - 16 : bits;
    case TK_DTYPE_I2: return bits >= 2 ? (double)bits - 4 : bits;
    case TK_DTYPE_F4E2M1: return ref_decode(&FMTS[4], bits);
    default: return bits;
    }
}

START_TEST(packing_every_pattern)
{
    uint8_t all[256], buf[4096], back[256];
    for (int i = 0; i < 256; i++) all[i] = (uint8_t)i;
    for (unsigned k = 0; k < sizeof PACKED / sizeof PACKED[0]; k++)
        for (int as_int32 = 0; as_int32 < 2; as_int32++) {
            int per = PACKED[k].per_byte, bits = 8 / per;
            int64_t n = 256 * per;
            tk_tensor *t = load_pb(buf, make_pb(buf, n, PACKED[k].onnx, all, 256, as_int32));
            ck_assert_int_eq(tk_tensor_dtype(t), PACKED[k].dt);
            ck_assert_int_eq(tk_tensor_numel(t), n);
            tk_tensor *f;
            TKT_OK(tk_to_dtype(tkt_ctx, t, TK_DTYPE_F64, &f));
            double *v = malloc((size_t)n * sizeof *v);
            TKT_OK(tk_to_data(tkt_ctx, f, v, (size_t)n * sizeof *v));
            for (int64_t i = 0; i < n; i++) {   /* element i: byte i / per, the (i % per)-th field from the low bits */
                unsigned fld = (all[i / per] >> (bits * (i % per))) & ((1u << bits) - 1);
                expect_same_value(v[i], field_value(PACKED[k].dt, fld), tk_dtype_name(PACKED[k].dt), (unsigned)i);
            }
            saved_raw(t, back, 256);
            ck_assert_msg(memcmp(back, all, 256) == 0, "%s: the bytes written differ from the bytes read", tk_dtype_name(PACKED[k].dt));
            free(v);
            TKT_RELEASE(t, f);
        }
}
END_TEST

/* An odd count: the last byte's unused fields are written as 0, and read back. */
START_TEST(packing_odd_counts)
{
    const int8_t i4[5] = { -8, 7, -1, 3, -5 };   /* 0x78 0x3f 0x0b */
    tk_tensor *t, *again;
    TKT_OK(tk_from_data(tkt_ctx, i4, TK_DTYPE_I4, 1, (int64_t[]){ 5 }, &t));
    uint8_t raw[3];
    saved_raw(t, raw, 3);
    ck_assert_uint_eq(raw[0], 0x78);
    ck_assert_uint_eq(raw[1], 0x3f);
    ck_assert_uint_eq(raw[2], 0x0b);
    uint8_t buf[64];
    again = load_pb(buf, make_pb(buf, 5, 22, raw, 3, false));
    int8_t v[5];
    TKT_OK(tk_to_data(tkt_ctx, again, v, 5));
    ck_assert_int_eq(memcmp(v, i4, 5), 0);
    TKT_RELEASE(t, again);

    const uint8_t u2[7] = { 3, 0, 1, 2, 2, 1, 3 };   /* 0b10010011 = 0x93, then 0b00110110 = 0x36 */
    TKT_OK(tk_from_data(tkt_ctx, u2, TK_DTYPE_U2, 1, (int64_t[]){ 7 }, &t));
    saved_raw(t, raw, 2);
    ck_assert_uint_eq(raw[0], 0x93);
    ck_assert_uint_eq(raw[1], 0x36);
    TKT_RELEASE(t);
    /* a wrong byte count is an error naming both */
    tk_tensor *bad = (tk_tensor *)1;
    const char *path = tmp_file("bad.pb");
    FILE *fp = fopen(path, "wb");
    size_t len = make_pb(buf, 5, 22, raw, 2, false);
    fwrite(buf, 1, len, fp), fclose(fp);
    TKT_FAILS(tk_load_onnx_tensor(tkt_ctx, path, &bad), TK_ERR_IO, "need 3 bytes, raw_data has 2");
    unlink(path);
    rmdir(tmp_dir);
}
END_TEST

/* ONNX Cast's path (tkr_to_lowp): saturate reaches integer sources too,
 * integers into the small ints wrap, a transposed source reads in order. */
START_TEST(cast_with_options)
{
    const int32_t iv[6] = { 1000, -1000, 9, -9, 17, 3 };
    tk_tensor *x, *xt, *sat, *nosat, *i4, *e8;
    TKT_OK(tk_from_data(tkt_ctx, iv, TK_DTYPE_I32, 2, (int64_t[]){ 2, 3 }, &x));
    TKT_OK(tk_transpose(tkt_ctx, x, 0, 1, &xt));   /* [[1000, 9], [-1000, -9], [17, 3]]... by columns */
    TKT_OK(tkr_to_lowp(tkt_ctx, xt, TK_DTYPE_F8E4M3FN, true, TKR_ROUND_UP, &sat));
    TKT_OK(tkr_to_lowp(tkt_ctx, xt, TK_DTYPE_F8E4M3FN, false, TKR_ROUND_UP, &nosat));
    TKT_OK(tkr_to_lowp(tkt_ctx, xt, TK_DTYPE_I4, true, TKR_ROUND_UP, &i4));
    TKT_OK(tkr_to_lowp(tkt_ctx, xt, TK_DTYPE_F8E8M0, true, TKR_ROUND_DOWN, &e8));
    uint8_t a[6], b[6], c[6], d[6];
    TKT_OK(tk_to_data(tkt_ctx, sat, a, 6));
    TKT_OK(tk_to_data(tkt_ctx, nosat, b, 6));
    TKT_OK(tk_to_data(tkt_ctx, i4, c, 6));
    TKT_OK(tk_to_data(tkt_ctx, e8, d, 6));
    const int order[6] = { 0, 3, 1, 4, 2, 5 };   /* xt's elements in row-major order */
    for (int k = 0; k < 6; k++) {
        int v = iv[order[k]];
        ck_assert_uint_eq(a[k], ref_encode(&FMTS[0], v, true));
        ck_assert_uint_eq(b[k], ref_encode(&FMTS[0], v, false));
        ck_assert_int_eq((int8_t)c[k], ((v + 8) % 16 + 16) % 16 - 8);
        ck_assert_uint_eq(d[k], ref_e8m0(v, true, TKR_ROUND_DOWN));
    }
    ck_assert_uint_eq(a[0], 0x7E);   /* 1000 → 448 */
    ck_assert_uint_eq(b[0], 0x7F);   /* 1000 → NaN */
    TKT_RELEASE(x, xt, sat, nosat, i4, e8);
}
END_TEST

/* ------------------------------------------------------------ arithmetic refused, threads */

START_TEST(arithmetic_is_refused)
{
    tk_tensor *a, *b, *out = NULL, *v = NULL, *i = NULL;
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F8E4M3FN, 2, (int64_t[]){ 2, 3 }, &a));
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_I4, 2, (int64_t[]){ 3, 2 }, &b));
    TKT_FAILS(tk_add(tkt_ctx, a, a, &out), TK_ERR_DTYPE, "f8e4m3fn has no arithmetic");
    TKT_FAILS(tk_binary_scalar(tkt_ctx, TK_MUL, b, 2.0, &out), TK_ERR_DTYPE, "i4 has no arithmetic");
    TKT_FAILS(tk_unary(tkt_ctx, TK_NEG, a, &out), TK_ERR_DTYPE, "has no arithmetic");
    TKT_FAILS(tk_matmul(tkt_ctx, b, b, &out), TK_ERR_DTYPE, "has no arithmetic");
    TKT_FAILS(tk_sum(tkt_ctx, a, NULL, &out), TK_ERR_DTYPE, "has no arithmetic");
    TKT_FAILS(tk_sort(tkt_ctx, a, 1, false, &v, &i), TK_ERR_DTYPE, "has no arithmetic");
    TKT_FAILS(tk_cumsum(tkt_ctx, a, 1, &out), TK_ERR_DTYPE, "has no arithmetic");
    TKT_FAILS(tk_where(tkt_ctx, a, a, a, &out), TK_ERR_DTYPE, "has no arithmetic");
    tk_tensor *ix;
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_I64, 2, (int64_t[]){ 1, 2 }, &ix));
    TKT_FAILS(tk_scatter(tkt_ctx, b, 1, ix, b, TK_SCATTER_ADD, &out), TK_ERR_DTYPE, "i4 has no arithmetic");
    TKT_OK(tk_scatter(tkt_ctx, b, 1, ix, b, TK_SCATTER_NONE, &out));   /* placing values is no arithmetic */
    TKT_RELEASE(ix, out);
    out = NULL;
    /* creation in a small float keeps the fractions it can hold */
    TKT_OK(tk_arange(tkt_ctx, TK_DTYPE_F4E2M1, 0, 3, 0.5, &out));
    float fr[6];
    tk_tensor *f32;
    TKT_OK(tk_to_dtype(tkt_ctx, out, TK_DTYPE_F32, &f32));
    TKT_OK(tk_to_data(tkt_ctx, f32, fr, sizeof fr));
    for (int k = 0; k < 6; k++)   /* 2.5 is no float4: the tie goes to the even code, 2 */
        ck_assert_float_eq(fr[k], ref_decode(&FMTS[4], ref_encode(&FMTS[4], 0.5 * k, false)));
    ck_assert_float_eq(fr[3], 1.5f);
    TKT_RELEASE(f32, out);
    out = NULL;
    ck_assert_ptr_null(out);
    /* the files that cannot describe them refuse instead of writing wrong bytes */
    TKT_FAILS(tk_save_npy(tkt_ctx, a, tmp_file("x.npy")), TK_ERR_UNSUPPORTED, "no f8e4m3fn dtype");
    const char *st = tmp_file("x.safetensors");
    const char *names[2] = { "a", "b" };
    const tk_tensor *both[2] = { a, b };
    TKT_FAILS(tk_save_safetensors(tkt_ctx, st, names, both, 2), TK_ERR_UNSUPPORTED, "i4, which this writer does not store");
    /* float8 e4m3fn / e5m2 / e8m0 are safetensors dtypes: a round trip keeps the codes */
    const uint8_t codes[6] = { 0x01, 0x7E, 0x80, 0xFE, 0x38, 0x7F };
    tk_tensor *c8, *back;
    TKT_OK(tk_from_data(tkt_ctx, codes, TK_DTYPE_F8E5M2, 2, (int64_t[]){ 2, 3 }, &c8));
    TKT_OK(tk_save_safetensors(tkt_ctx, st, names, (const tk_tensor *const[]){ c8 }, 1));
    tk_safetensors *f;
    TKT_OK(tk_load_safetensors(tkt_ctx, st, &f));
    TKT_OK(tk_safetensors_get(tkt_ctx, f, "a", &back));
    tk_safetensors_free(f);
    ck_assert_int_eq(tk_tensor_dtype(back), TK_DTYPE_F8E5M2);
    ck_assert_int_eq(memcmp(tk_tensor_data(back), codes, 6), 0);
    TKT_RELEASE(c8, back);
    unlink(st);
    rmdir(tmp_dir);
    TKT_RELEASE(a, b);
}
END_TEST

/* The ops that only move bytes keep the codes: transpose + contiguous, slice,
 * cat, gather (what ONNX's Transpose, Slice, Concat, Gather run on). */
START_TEST(moving_bytes_keeps_codes)
{
    const tk_dtype dts[] = { TK_DTYPE_F8E5M2, TK_DTYPE_I4, TK_DTYPE_F4E2M1, TK_DTYPE_U2 };
    for (unsigned k = 0; k < sizeof dts / sizeof dts[0]; k++) {
        uint8_t codes[15], got[30];
        for (int i = 0; i < 15; i++) codes[i] = dts[k] == TK_DTYPE_I4 ? (uint8_t)(int8_t)(i - 8) : (uint8_t)(dts[k] == TK_DTYPE_U2 ? i % 4 : i);
        tk_tensor *x, *t, *c, *sl, *cat, *idx, *g;
        TKT_OK(tk_from_data(tkt_ctx, codes, dts[k], 2, (int64_t[]){ 3, 5 }, &x));
        TKT_OK(tk_transpose(tkt_ctx, x, 0, 1, &t));
        TKT_OK(tk_contiguous(tkt_ctx, t, &c));
        TKT_OK(tk_to_data(tkt_ctx, c, got, 15));
        for (int i = 0; i < 5; i++)
            for (int j = 0; j < 3; j++) ck_assert_uint_eq(got[i * 3 + j], codes[j * 5 + i]);
        TKT_OK(tk_slice(tkt_ctx, x, 1, 1, 5, 2, &sl));   /* columns 1 and 3 */
        const tk_tensor *parts[2] = { sl, sl };
        TKT_OK(tk_cat(tkt_ctx, parts, 2, 1, &cat));
        TKT_OK(tk_to_data(tkt_ctx, cat, got, 12));
        for (int r = 0; r < 3; r++)
            for (int j = 0; j < 4; j++) ck_assert_uint_eq(got[r * 4 + j], codes[r * 5 + 1 + 2 * (j % 2)]);
        int64_t iv[3] = { 4, 0, 2 };
        TKT_OK(tk_from_data(tkt_ctx, iv, TK_DTYPE_I64, 2, (int64_t[]){ 3, 1 }, &idx));
        TKT_OK(tk_gather(tkt_ctx, x, 1, idx, &g));
        TKT_OK(tk_to_data(tkt_ctx, g, got, 3));
        for (int r = 0; r < 3; r++) ck_assert_uint_eq(got[r], codes[r * 5 + iv[r]]);
        TKT_RELEASE(x, t, c, sl, cat, idx, g);
    }
}
END_TEST

START_TEST(conversions_same_bits_on_1_and_2_threads)
{
    enum { N = 200003 };
    float *x = malloc(N * sizeof *x);
    uint32_t s = 12345;
    for (int i = 0; i < N; i++) {
        s = s * 1664525u + 1013904223u;
        x[i] = (float)((double)(int32_t)s / 2147483648.0 * 600.0);
    }
    tk_tensor *src;
    TKT_OK(tk_from_data(tkt_ctx, x, TK_DTYPE_F32, 1, (int64_t[]){ N }, &src));
    const tk_dtype dts[] = { TK_DTYPE_F8E4M3FN, TK_DTYPE_F8E5M2FNUZ, TK_DTYPE_F4E2M1, TK_DTYPE_I4, TK_DTYPE_F8E8M0 };
    uint8_t *one = malloc(N), *two = malloc(N);
    for (unsigned k = 0; k < sizeof dts / sizeof dts[0]; k++) {
        tk_tensor *a, *b;
        TKT_OK(tk_context_set_threads(tkt_ctx, 1));
        TKT_OK(tk_to_dtype(tkt_ctx, src, dts[k], &a));
        TKT_OK(tk_context_set_threads(tkt_ctx, 2));
        TKT_OK(tk_to_dtype(tkt_ctx, src, dts[k], &b));
        TKT_OK(tk_to_data(tkt_ctx, a, one, N));
        TKT_OK(tk_to_data(tkt_ctx, b, two, N));
        ck_assert_msg(memcmp(one, two, N) == 0, "%s differs between 1 and 2 threads", tk_dtype_name(dts[k]));
        for (int i = 0; i < N; i += 997)   /* and they are the scalar encoder's */
            ck_assert_uint_eq(one[i], tkr_lowp_encode(dts[k], x[i], false, TKR_ROUND_UP));
        TKT_RELEASE(a, b);
    }
    free(one), free(two), free(x);
    tk_tensor_release(src);
}
END_TEST

static Suite *lowp_suite(void)
{
    Suite *s = suite_create("tensor_lowp");
    TCase *tc = tkt_case("lowp");
    tcase_add_test(tc, published_extremes);
    tcase_add_test(tc, decode_every_code);
    tcase_add_test(tc, encode_against_brute_force);
    tcase_add_test(tc, encode_named_cases);
    tcase_add_test(tc, e8m0_every_code_and_rounding);
    tcase_add_test(tc, small_ints_from_floats_and_ints);
    tcase_add_test(tc, cast_with_options);
    tcase_add_test(tc, packing_every_pattern);
    tcase_add_test(tc, packing_odd_counts);
    tcase_add_test(tc, arithmetic_is_refused);
    tcase_add_test(tc, moving_bytes_keeps_codes);
    tcase_add_test(tc, conversions_same_bits_on_1_and_2_threads);
    suite_add_tcase(s, tc);
    return s;
}

TKT_MAIN(lowp_suite)
