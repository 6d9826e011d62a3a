/* test_onnx_ored.c — the ONNX reductions, scans, TopK, quantization, losses,
 * Det and signal ops on shapes far larger and odder than the node suite's
 * (where the runtime's loops split into pieces), each run on 1 and on 2
 * threads (the results must be the same bits) and checked against a plain
 * double loop written here. Also: bad inputs fail naming the node, and what
 * the runtime cannot do is refused at load.
 *
 * Models are one-node ONNX graphs written with a small protobuf writer, so
 * the test needs no Python. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "tk/onnx.h"
#include "tk/shape.h"

/* ------------------------------------------------------------ a protobuf writer */

typedef struct {
    uint8_t b[4096];
    size_t n;
} Buf;

static void put_varint(Buf *o, uint64_t v)
{
    do {
        ck_assert(o->n < sizeof o->b);
        o->b[o->n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v);
}
static void put_bytes(Buf *o, int field, const void *p, size_t len)
{
    put_varint(o, (uint64_t)field << 3 | 2);
    put_varint(o, len);
    ck_assert(o->n + len <= sizeof o->b);
    memcpy(o->b + o->n, p, len);
    o->n += len;
}
static void put_str(Buf *o, int field, const char *s) { put_bytes(o, field, s, strlen(s)); }
static void put_int(Buf *o, int field, int64_t v)
{
    put_varint(o, (uint64_t)field << 3);
    put_varint(o, (uint64_t)v);
}
static void put_msg(Buf *o, int field, const Buf *m) { put_bytes(o, field, m->b, m->n); }

/* AttributeProto: name 1, f 2, i 3, s 4, ints 8, type 20 (FLOAT 1, INT 2, STRING 3, INTS 7). */
static Buf attr_int(const char *name, int64_t v)
{
    Buf a = { .n = 0 };
    put_str(&a, 1, name), put_int(&a, 3, v), put_int(&a, 20, 2);
    return a;
}
static Buf attr_ints(const char *name, const int64_t *v, int n)
{
    Buf a = { .n = 0 };
    put_str(&a, 1, name);
    for (int i = 0; i < n; i++) put_int(&a, 8, v[i]);
    put_int(&a, 20, 7);
    return a;
}
static Buf attr_str(const char *name, const char *s)
{
    Buf a = { .n = 0 };
    put_str(&a, 1, name), put_str(&a, 4, s), put_int(&a, 20, 3);
    return a;
}

/* A model of one node: inputs "" are omitted optional ones; the graph's
 * inputs and outputs are the node's, untyped. */
static tk_status one_node(const char *op, int opset, const char *const *ins, int nin, int nout, const Buf *attrs, int nattrs,
                          tk_model **m)
{
    static Buf node, graph, model;
    static const char *const outs[] = { "y0", "y1", "y2" };
    node.n = graph.n = model.n = 0;
    for (int i = 0; i < nin; i++) put_str(&node, 1, ins[i]);
    for (int i = 0; i < nout; i++) put_str(&node, 2, outs[i]);
    put_str(&node, 3, "n0"), put_str(&node, 4, op);
    for (int i = 0; i < nattrs; i++) put_msg(&node, 5, &attrs[i]);
    put_msg(&graph, 1, &node);
    put_str(&graph, 2, "g");
    for (int i = 0; i < nin; i++)
        if (*ins[i]) {
            Buf vi = { .n = 0 };
            put_str(&vi, 1, ins[i]);
            put_msg(&graph, 11, &vi);
        }
    for (int i = 0; i < nout; i++) {
        Buf vi = { .n = 0 };
        put_str(&vi, 1, outs[i]);
        put_msg(&graph, 12, &vi);
    }
    Buf opset_id = { .n = 0 };
    put_str(&opset_id, 1, ""), put_int(&opset_id, 2, opset);
    put_int(&model, 1, 8);
    put_msg(&model, 8, &opset_id);
    put_msg(&model, 7, &graph);
    return tk_onnx_load_bytes(tkt_ctx, model.b, model.n, op, NULL, m);
}

/* Runs m on 1 and on 2 threads: the outputs must be the same bits; out gets the second run's. */
static void run_threads(tk_model *m, tk_tensor *const *in, tk_tensor **out, int nout)
{
    tk_tensor *one[3] = { 0 };
    TKT_OK(tk_context_set_threads(tkt_ctx, 1));
    TKT_OK(tk_model_run(m, in, one));
    TKT_OK(tk_context_set_threads(tkt_ctx, 2));
    TKT_OK(tk_model_run(m, in, out));
    for (int k = 0; k < nout; k++) {
        if (one[k] || out[k]) tkt_expect_equal(out[k], one[k], "1 thread vs 2 threads");
        tk_tensor_release(one[k]);
    }
}

/* The elements of t as doubles, row-major (the caller frees). */
static double *values(const tk_tensor *t)
{
    tk_tensor *d;
    TKT_OK(tk_to_dtype(tkt_ctx, t, TK_DTYPE_F64, &d));
    int64_t n = tk_tensor_numel(d);
    double *v = malloc((size_t)(n ? n : 1) * sizeof *v);
    ck_assert(v);
    TKT_OK(tk_to_data(tkt_ctx, d, v, (size_t)n * sizeof *v));
    tk_tensor_release(d);
    return v;
}

static tk_tensor *from(tk_dtype dt, int nd, const int64_t *shape, const double *v)
{
    tk_tensor *f, *t;
    TKT_OK(tk_from_data(tkt_ctx, v, TK_DTYPE_F64, nd, shape, &f));
    TKT_OK(tk_to_dtype(tkt_ctx, f, dt, &t));
    tk_tensor_release(f);
    return t;
}

static void expect_values(const tk_tensor *got, tk_dtype dt, int nd, const int64_t *shape, const double *want, double rtol,
                          double atol, const char *label)
{
    tk_tensor *w = from(dt, nd, shape, want);
    tkt_expect_close(got, w, rtol, atol, true, label);
    tk_tensor_release(w);
}

/* ------------------------------------------------------------ reductions, scans, TopK */

START_TEST(reduce_sum_square_and_logsumexp)
{
    int64_t shape[3] = { 7, 1031, 13 };
    tk_tensor *x, *axes;
    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 3, shape, 11, &x));
    TKT_OK(tk_from_data(tkt_ctx, (int64_t[]){ 0, -1 }, TK_DTYPE_I64, 1, (int64_t[]){ 2 }, &axes));
    double *xv = values(x);
    double ssq[1031], lse[1031];
    for (int64_t j = 0; j < 1031; j++) {
        double s = 0, mx = -INFINITY, e = 0;
        for (int64_t i = 0; i < 7; i++)
            for (int64_t k = 0; k < 13; k++) {
                double v = xv[(i * 1031 + j) * 13 + k];
                s += (double)(float)(v * v);   /* ONNX squares in the input's type */
                mx = fmax(mx, v);
            }
        for (int64_t i = 0; i < 7; i++)
            for (int64_t k = 0; k < 13; k++) e += exp(xv[(i * 1031 + j) * 13 + k] - mx);
        ssq[j] = s, lse[j] = mx + log(e);
    }
    const char *const ins[] = { "x", "axes" };
    Buf keep0 = attr_int("keepdims", 0);
    tk_model *m;
    tk_tensor *in[2] = { x, axes }, *out[1] = { 0 };
    TKT_OK(one_node("ReduceSumSquare", 18, ins, 2, 1, &keep0, 1, &m));
    run_threads(m, in, out, 1);
    expect_values(out[0], TK_DTYPE_F32, 1, (int64_t[]){ 1031 }, ssq, 1e-5, 1e-6, "ReduceSumSquare");
    tk_tensor_release(out[0]);
    tk_model_free(m);
    TKT_OK(one_node("ReduceLogSumExp", 18, ins, 2, 1, &keep0, 1, &m));
    run_threads(m, in, out, 1);
    expect_values(out[0], TK_DTYPE_F32, 1, (int64_t[]){ 1031 }, lse, 1e-5, 1e-6, "ReduceLogSumExp");
    tk_tensor_release(out[0]);
    tk_model_free(m);
    free(xv);
    TKT_RELEASE(x, axes);
}
END_TEST

START_TEST(cumsum_exclusive_reverse_int32)
{
    int64_t shape[2] = { 5, 999 };
    double *xv = malloc(5 * 999 * sizeof *xv), *want = malloc(5 * 999 * sizeof *want);
    for (int i = 0; i < 5 * 999; i++) xv[i] = (double)((i * 7919) % 201 - 100);
    for (int r = 0; r < 5; r++) {
        double acc = 0;
        for (int c = 998; c >= 0; c--) {   /* reverse, exclusive: the sum of what lies after */
            want[r * 999 + c] = acc;
            acc += xv[r * 999 + c];
        }
    }
    tk_tensor *x = from(TK_DTYPE_I32, 2, shape, xv), *axis;
    TKT_OK(tk_from_data(tkt_ctx, (int32_t[]){ -1 }, TK_DTYPE_I32, 0, NULL, &axis));
    Buf attrs[2] = { attr_int("exclusive", 1), attr_int("reverse", 1) };
    tk_model *m;
    tk_tensor *in[2] = { x, axis }, *out[1] = { 0 };
    TKT_OK(one_node("CumSum", 14, (const char *const[]){ "x", "axis" }, 2, 1, attrs, 2, &m));
    run_threads(m, in, out, 1);
    expect_values(out[0], TK_DTYPE_I32, 2, shape, want, 0, 0, "CumSum exclusive reverse");
    TKT_RELEASE(out[0], x, axis);
    tk_model_free(m);
    free(xv), free(want);
}
END_TEST

typedef struct {
    double v;
    int64_t i;
} Ranked;
static int by_value_desc(const void *a, const void *b)
{
    const Ranked *x = a, *y = b;
    if (x->v != y->v) return x->v > y->v ? -1 : 1;
    return x->i < y->i ? -1 : 1;   /* ties: the lower index first, as ONNX asks */
}

START_TEST(topk_rows_with_ties)
{
    enum { R = 33, C = 1001, K = 17 };
    double *xv = malloc(R * C * sizeof *xv);
    for (int i = 0; i < R * C; i++) xv[i] = (double)((i * 31) % 97);   /* many ties */
    tk_tensor *x = from(TK_DTYPE_F32, 2, (int64_t[]){ R, C }, xv), *k;
    TKT_OK(tk_from_data(tkt_ctx, (int64_t[]){ K }, TK_DTYPE_I64, 1, (int64_t[]){ 1 }, &k));
    tk_model *m;
    tk_tensor *in[2] = { x, k }, *out[2] = { 0 };
    TKT_OK(one_node("TopK", 11, (const char *const[]){ "x", "k" }, 2, 2, NULL, 0, &m));
    run_threads(m, in, out, 2);
    double *wv = malloc(R * K * sizeof *wv), *wi = malloc(R * K * sizeof *wi);
    Ranked row[C];
    for (int r = 0; r < R; r++) {
        for (int c = 0; c < C; c++) row[c] = (Ranked){ xv[r * C + c], c };
        qsort(row, C, sizeof *row, by_value_desc);
        for (int j = 0; j < K; j++) wv[r * K + j] = row[j].v, wi[r * K + j] = (double)row[j].i;
    }
    expect_values(out[0], TK_DTYPE_F32, 2, (int64_t[]){ R, K }, wv, 0, 0, "TopK values");
    expect_values(out[1], TK_DTYPE_I64, 2, (int64_t[]){ R, K }, wi, 0, 0, "TopK indices");
    TKT_RELEASE(out[0], out[1], x, k);
    tk_model_free(m);
    free(xv), free(wv), free(wi);
}
END_TEST

/* ------------------------------------------------------------ quantization */

START_TEST(quantize_per_axis_and_blocked)
{
    enum { A = 3, B = 257, C = 65, BLOCK = 8, NB = (C + BLOCK - 1) / BLOCK };
    int64_t shape[3] = { A, B, C };
    tk_tensor *x, *x4;
    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 3, shape, 5, &x4));
    TKT_OK(tk_binary_scalar(tkt_ctx, TK_MUL, x4, 40.0, &x));   /* values well past the range: saturation is exercised */
    double *xv = values(x), sv[B], zv[B], want[A * B * C];
    for (int j = 0; j < B; j++) sv[j] = 0.05 + 0.01 * (j % 17), zv[j] = (double)(j % 256);
    for (int i = 0; i < A; i++)
        for (int j = 0; j < B; j++)
            for (int k = 0; k < C; k++) {
                double q = rint((double)((float)xv[(i * B + j) * C + k] / (float)sv[j])) + zv[j];
                want[(i * B + j) * C + k] = q < 0 ? 0 : q > 255 ? 255 : q;
            }
    tk_tensor *s = from(TK_DTYPE_F32, 1, (int64_t[]){ B }, sv), *z = from(TK_DTYPE_U8, 1, (int64_t[]){ B }, zv);
    Buf axis1 = attr_int("axis", 1);
    tk_model *m;
    tk_tensor *in[3] = { x, s, z }, *out[1] = { 0 };
    TKT_OK(one_node("QuantizeLinear", 21, (const char *const[]){ "x", "s", "z" }, 3, 1, &axis1, 1, &m));
    run_threads(m, in, out, 1);
    expect_values(out[0], TK_DTYPE_U8, 3, shape, want, 0, 0, "QuantizeLinear per-axis");
    tk_tensor_release(out[0]);
    tk_model_free(m);

    /* a transposed x (its inner run is strided): the generic loop, not the vectorised one, must agree */
    tk_tensor *xt, *wt, *wtt;
    TKT_OK(tk_permute(tkt_ctx, x, (int[]){ 0, 2, 1 }, &xt));
    Buf axis2 = attr_int("axis", 2);
    tk_tensor *tin[3] = { xt, s, z };
    TKT_OK(one_node("QuantizeLinear", 21, (const char *const[]){ "x", "s", "z" }, 3, 1, &axis2, 1, &m));
    run_threads(m, tin, out, 1);
    wt = from(TK_DTYPE_U8, 3, shape, want);
    TKT_OK(tk_permute(tkt_ctx, wt, (int[]){ 0, 2, 1 }, &wtt));
    tkt_expect_equal(out[0], wtt, "QuantizeLinear per-axis, strided x");
    TKT_RELEASE(out[0], xt, wt, wtt);
    tk_model_free(m);

    /* blocked along the last axis (65 = 8·8 + 1: a short last block), i8, then back */
    static double bs[A * B * NB], bz[A * B * NB], q8[A * B * C], deq[A * B * C];
    for (int i = 0; i < A * B * NB; i++) bs[i] = 0.1 + 0.03 * (i % 11), bz[i] = (double)(i % 21) - 10;
    for (int r = 0; r < A * B; r++)
        for (int k = 0; k < C; k++) {
            int b = r * NB + k / BLOCK;
            double q = rint((double)((float)xv[r * C + k] / (float)bs[b])) + bz[b];
            q8[r * C + k] = q < -128 ? -128 : q > 127 ? 127 : q;
            deq[r * C + k] = (double)((float)(q8[r * C + k] - bz[b]) * (float)bs[b]);
        }
    tk_tensor *sb = from(TK_DTYPE_F32, 3, (int64_t[]){ A, B, NB }, bs), *zb = from(TK_DTYPE_I8, 3, (int64_t[]){ A, B, NB }, bz);
    Buf battrs[2] = { attr_int("axis", -1), attr_int("block_size", BLOCK) };
    tk_tensor *bin[3] = { x, sb, zb };
    TKT_OK(one_node("QuantizeLinear", 21, (const char *const[]){ "x", "s", "z" }, 3, 1, battrs, 2, &m));
    run_threads(m, bin, out, 1);
    expect_values(out[0], TK_DTYPE_I8, 3, shape, q8, 0, 0, "QuantizeLinear blocked");
    tk_model_free(m);
    /* symmetric (no zero point, output_dtype i8): the scale per element, the zero point none */
    static double q8s[A * B * C];
    for (int r = 0; r < A * B; r++)
        for (int k = 0; k < C; k++) {
            double q = rint((double)((float)xv[r * C + k] / (float)bs[r * NB + k / BLOCK]));
            q8s[r * C + k] = q < -128 ? -128 : q > 127 ? 127 : q;
        }
    Buf sattrs[3] = { attr_int("axis", -1), attr_int("block_size", BLOCK), attr_int("output_dtype", 3) };
    tk_tensor *sin_[2] = { x, sb }, *sout[1] = { 0 };
    TKT_OK(one_node("QuantizeLinear", 21, (const char *const[]){ "x", "s" }, 2, 1, sattrs, 3, &m));
    run_threads(m, sin_, sout, 1);
    expect_values(sout[0], TK_DTYPE_I8, 3, shape, q8s, 0, 0, "QuantizeLinear blocked, symmetric");
    tk_tensor_release(sout[0]);
    tk_model_free(m);
    tk_tensor *din[3] = { out[0], sb, zb }, *dout[1] = { 0 };
    TKT_OK(one_node("DequantizeLinear", 21, (const char *const[]){ "x", "s", "z" }, 3, 1, battrs, 2, &m));
    run_threads(m, din, dout, 1);
    expect_values(dout[0], TK_DTYPE_F32, 3, shape, deq, 0, 0, "DequantizeLinear blocked");
    tk_model_free(m);
    free(xv);
    TKT_RELEASE(out[0], dout[0], x, x4, s, z, sb, zb);
}
END_TEST

/* Halves round to even (numpy's rint), then the zero point, then the clip. */
START_TEST(quantize_rounds_half_to_even)
{
    double xv[8] = { 0.5, 1.5, 2.5, -0.5, -2.5, 3.49, 300, -300 }, want[8] = { 10, 12, 12, 10, 8, 13, 127, -128 };
    tk_tensor *x = from(TK_DTYPE_F32, 1, (int64_t[]){ 8 }, xv), *s = from(TK_DTYPE_F32, 0, NULL, (double[]){ 1 }),
              *z = from(TK_DTYPE_I8, 0, NULL, (double[]){ 10 });
    tk_model *m;
    tk_tensor *in[3] = { x, s, z }, *out[1] = { 0 };
    TKT_OK(one_node("QuantizeLinear", 13, (const char *const[]){ "x", "s", "z" }, 3, 1, NULL, 0, &m));
    run_threads(m, in, out, 1);
    expect_values(out[0], TK_DTYPE_I8, 1, (int64_t[]){ 8 }, want, 0, 0, "QuantizeLinear ties");
    tk_model_free(m);
    TKT_RELEASE(out[0], x, s, z);
}
END_TEST

START_TEST(quant_errors_name_the_node)
{
    tk_tensor *x, *s;
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 2, (int64_t[]){ 4, 6 }, &x));
    TKT_OK(tk_ones(tkt_ctx, TK_DTYPE_F32, 1, (int64_t[]){ 5 }, &s));
    tk_model *m;
    tk_tensor *in[2] = { x, s }, *out[1] = { 0 };
    TKT_OK(one_node("QuantizeLinear", 21, (const char *const[]){ "x", "s" }, 2, 1, NULL, 0, &m));
    TKT_FAILS(tk_model_run(m, in, out), TK_ERR_SHAPE, "node 'n0' (QuantizeLinear): y_scale has 5 values");
    ck_assert_ptr_null(out[0]);
    tk_model_free(m);
    /* types the runtime lacks are refused at load, naming the attribute */
    Buf e8m0 = attr_int("output_dtype", 24);   /* no quantized type in ONNX either */
    TKT_FAILS(one_node("QuantizeLinear", 21, (const char *const[]){ "x", "s" }, 2, 1, &e8m0, 1, &m), TK_ERR_UNSUPPORTED,
              "output_dtype FLOAT8E8M0 is not supported");
    Buf shape = attr_ints("shape", (int64_t[]){ 2, 3 }, 2);
    TKT_FAILS(one_node("RandomNormal", 21, NULL, 0, 1, &shape, 1, &m), TK_ERR_UNSUPPORTED, "random output");
    TKT_RELEASE(x, s);
}
END_TEST

START_TEST(reduce_and_topk_errors)
{
    tk_tensor *x, *axes, *k;
    TKT_OK(tk_zeros(tkt_ctx, TK_DTYPE_F32, 2, (int64_t[]){ 4, 6 }, &x));
    TKT_OK(tk_from_data(tkt_ctx, (int64_t[]){ 2 }, TK_DTYPE_I64, 1, (int64_t[]){ 1 }, &axes));
    TKT_OK(tk_from_data(tkt_ctx, (int64_t[]){ 7 }, TK_DTYPE_I64, 1, (int64_t[]){ 1 }, &k));
    tk_model *m;
    tk_tensor *in[2] = { x, axes }, *out[2] = { 0 };
    TKT_OK(one_node("ReduceMax", 18, (const char *const[]){ "x", "axes" }, 2, 1, NULL, 0, &m));
    TKT_FAILS(tk_model_run(m, in, out), TK_ERR_INDEX, "node 'n0' (ReduceMax): axis 2 is out of range for rank 2");
    tk_model_free(m);
    in[1] = k;
    TKT_OK(one_node("TopK", 11, (const char *const[]){ "x", "k" }, 2, 2, NULL, 0, &m));
    TKT_FAILS(tk_model_run(m, in, out), TK_ERR_INDEX, "k=7 is outside 0..6");
    tk_model_free(m);
    Buf bad = attr_str("reduction", "max");
    TKT_FAILS(one_node("NegativeLogLikelihoodLoss", 13, (const char *const[]){ "x", "t" }, 2, 1, &bad, 1, &m), TK_ERR_UNSUPPORTED,
              "reduction='max'");
    TKT_RELEASE(x, axes, k);
}
END_TEST

/* ------------------------------------------------------------ losses */

START_TEST(sce_mean_weights_ignore_index)
{
    enum { N = 64, C = 10, D = 33, II = 3 };
    tk_tensor *x;
    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 3, (int64_t[]){ N, C, D }, 7, &x));
    double *xv = values(x), tv[N * D], wv[C], lp[N * C * D];
    for (int i = 0; i < N * D; i++) tv[i] = (double)((i * 13) % C);
    for (int c = 0; c < C; c++) wv[c] = 0.5 + 0.1 * c;
    double num = 0, den = 0;
    for (int n = 0; n < N; n++)
        for (int d = 0; d < D; d++) {
            double mx = -INFINITY, e = 0;
            for (int c = 0; c < C; c++) mx = fmax(mx, xv[(n * C + c) * D + d]);
            for (int c = 0; c < C; c++) e += exp(xv[(n * C + c) * D + d] - mx);
            for (int c = 0; c < C; c++) lp[(n * C + c) * D + d] = xv[(n * C + c) * D + d] - mx - log(e);
            int t = (int)tv[n * D + d];
            if (t == II) continue;
            num -= lp[(n * C + t) * D + d] * wv[t];
            den += wv[t];
        }
    tk_tensor *t = from(TK_DTYPE_I64, 2, (int64_t[]){ N, D }, tv), *w = from(TK_DTYPE_F32, 1, (int64_t[]){ C }, wv);
    Buf attrs[2] = { attr_int("ignore_index", II), attr_str("reduction", "mean") };
    tk_model *m;
    tk_tensor *in[3] = { x, t, w }, *out[2] = { 0 };
    TKT_OK(one_node("SoftmaxCrossEntropyLoss", 13, (const char *const[]){ "x", "t", "w" }, 3, 2, attrs, 2, &m));
    run_threads(m, in, out, 2);
    double loss = num / den;
    expect_values(out[0], TK_DTYPE_F32, 0, NULL, &loss, 1e-5, 1e-6, "SCE mean");
    expect_values(out[1], TK_DTYPE_F32, 3, (int64_t[]){ N, C, D }, lp, 1e-5, 1e-6, "SCE log_prob");
    tk_model_free(m);
    free(xv);
    TKT_RELEASE(out[0], out[1], x, t, w);
}
END_TEST

/* ------------------------------------------------------------ Det and signal ops */

static double cofactor_det(const double *a, int n, int stride)
{
    if (n == 1) return a[0];
    double sub[25], det = 0;
    for (int c = 0; c < n; c++) {
        for (int r = 1; r < n; r++)
            for (int k = 0, j = 0; k < n; k++)
                if (k != c) sub[(r - 1) * (n - 1) + j++] = a[r * stride + k];
        det += (c % 2 ? -1 : 1) * a[c] * cofactor_det(sub, n - 1, n - 1);
    }
    return det;
}

START_TEST(det_batch_against_cofactors)
{
    enum { B = 301, M = 5 };
    tk_tensor *x;
    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F64, 3, (int64_t[]){ B, M, M }, 3, &x));
    double *xv = values(x), want[B];
    for (int b = 0; b < B; b++) want[b] = cofactor_det(xv + b * M * M, M, M);
    tk_model *m;
    tk_tensor *in[1] = { x }, *out[1] = { 0 };
    TKT_OK(one_node("Det", 22, (const char *const[]){ "x" }, 1, 1, NULL, 0, &m));
    run_threads(m, in, out, 1);
    expect_values(out[0], TK_DTYPE_F64, 1, (int64_t[]){ B }, want, 1e-10, 1e-12, "Det");
    tk_model_free(m);
    free(xv);
    TKT_RELEASE(out[0], x);
}
END_TEST

START_TEST(dft_against_direct_sum_and_round_trip)
{
    enum { B = 3, L = 999 };
    tk_tensor *x;
    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F64, 3, (int64_t[]){ B, L, 1 }, 9, &x));
    double *xv = values(x);
    static double want[B * (L / 2 + 1) * 2];
    for (int b = 0; b < B; b++)
        for (int k = 0; k <= L / 2; k++) {
            double re = 0, im = 0;
            for (int t = 0; t < L; t++) {
                double a = -2 * 3.14159265358979323846 * (double)k * (double)t / L;
                re += xv[b * L + t] * cos(a), im += xv[b * L + t] * sin(a);
            }
            want[(b * (L / 2 + 1) + k) * 2] = re, want[(b * (L / 2 + 1) + k) * 2 + 1] = im;
        }
    Buf one = attr_int("onesided", 1);
    tk_model *m;
    tk_tensor *in[3] = { x, NULL, NULL }, *out[1] = { 0 };
    TKT_OK(one_node("DFT", 20, (const char *const[]){ "x" }, 1, 1, &one, 1, &m));
    run_threads(m, in, out, 1);
    expect_values(out[0], TK_DTYPE_F64, 3, (int64_t[]){ B, L / 2 + 1, 2 }, want, 1e-9, 1e-9, "DFT onesided");
    tk_model_free(m);
    /* the inverse of the one-sided spectrum, at the odd length 999, is the signal again */
    tk_tensor *n;
    TKT_OK(tk_from_data(tkt_ctx, (int64_t[]){ L }, TK_DTYPE_I64, 0, NULL, &n));
    Buf inv[2] = { attr_int("onesided", 1), attr_int("inverse", 1) };
    tk_tensor *iin[2] = { out[0], n }, *back[1] = { 0 };
    TKT_OK(one_node("DFT", 20, (const char *const[]){ "X", "n" }, 2, 1, inv, 2, &m));
    run_threads(m, iin, back, 1);
    expect_values(back[0], TK_DTYPE_F64, 3, (int64_t[]){ B, L, 1 }, xv, 1e-9, 1e-9, "DFT irfft round trip");
    tk_model_free(m);
    free(xv);
    TKT_RELEASE(out[0], back[0], x, n);
}
END_TEST

START_TEST(stft_frames_against_direct_sum)
{
    enum { B = 2, L = 1000, FL = 64, STEP = 37, FRAMES = 1 + (L - FL) / STEP, BINS = FL / 2 + 1 };
    tk_tensor *x, *w;
    TKT_OK(tk_randn(tkt_ctx, TK_DTYPE_F32, 3, (int64_t[]){ B, L, 1 }, 4, &x));
    double wv[FL];
    for (int i = 0; i < FL; i++) wv[i] = 0.5 - 0.5 * cos(2 * 3.14159265358979323846 * i / FL);
    w = from(TK_DTYPE_F32, 1, (int64_t[]){ FL }, wv);
    double *xv = values(x), *ww = values(w);
    static double want[B * FRAMES * BINS * 2];
    for (int b = 0; b < B; b++)
        for (int f = 0; f < FRAMES; f++)
            for (int k = 0; k < BINS; k++) {
                double re = 0, im = 0;
                for (int t = 0; t < FL; t++) {
                    double v = (double)(float)(xv[b * L + f * STEP + t] * ww[t]), a = -2 * 3.14159265358979323846 * k * t / FL;
                    re += v * cos(a), im += v * sin(a);
                }
                want[((b * FRAMES + f) * BINS + k) * 2] = re, want[((b * FRAMES + f) * BINS + k) * 2 + 1] = im;
            }
    tk_tensor *step;
    TKT_OK(tk_from_data(tkt_ctx, (int64_t[]){ STEP }, TK_DTYPE_I64, 0, NULL, &step));
    tk_model *m;
    tk_tensor *in[3] = { x, step, w }, *out[1] = { 0 };
    TKT_OK(one_node("STFT", 17, (const char *const[]){ "x", "step", "w" }, 3, 1, NULL, 0, &m));
    run_threads(m, in, out, 1);
    expect_values(out[0], TK_DTYPE_F32, 4, (int64_t[]){ B, FRAMES, BINS, 2 }, want, 1e-5, 1e-5, "STFT");
    tk_model_free(m);
    free(xv), free(ww);
    TKT_RELEASE(out[0], x, w, step);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("onnx_ored");
    TCase *tc = tkt_case("ored");
    tcase_add_test(tc, reduce_sum_square_and_logsumexp);
    tcase_add_test(tc, cumsum_exclusive_reverse_int32);
    tcase_add_test(tc, topk_rows_with_ties);
    tcase_add_test(tc, quantize_per_axis_and_blocked);
    tcase_add_test(tc, quantize_rounds_half_to_even);
    tcase_add_test(tc, quant_errors_name_the_node);
    tcase_add_test(tc, reduce_and_topk_errors);
    tcase_add_test(tc, sce_mean_weights_ignore_index);
    tcase_add_test(tc, det_batch_against_cofactors);
    tcase_add_test(tc, dft_against_direct_sum_and_round_trip);
    tcase_add_test(tc, stft_frames_against_direct_sum);
    suite_add_tcase(s, tc);
    return s;
}

TKT_MAIN(suite)
