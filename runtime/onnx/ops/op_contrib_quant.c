/* op_contrib_quant.c — the contrib quantized matmuls:
 *
 * MatMulNBits: Y = A · dequant(B)ᵀ + bias, B [N, k_blocks, blob] of 2-, 4- or
 * 8-bit codes packed low bits first, each block of block_size codes along K
 * with one scale and one zero point (packed codes like B, or in A's float
 * type; 2^(bits-1) when absent). The weight is dequantized per call into
 * [K, N] f32 (a node cannot keep it yet), then tk_matmul.
 *
 * DynamicQuantizeMatMul: A quantized to u8 per tensor as ONNX Runtime does
 * (DynamicQuantizeLinear's range with 0 in it, round half to even), then
 * Σ (qa - za)(b - zb) exactly (f64 matmul of small integers) scaled by
 * scale_a · scale_b in f32, plus bias.
 *
 * MatMulBnb4: bitsandbytes' FP4 / NF4 weights (code book × absmax per block).
 *
 * GatherBlockQuantized: rows of a u8 table of block-quantized codes (the
 * embedding of 4-bit models), dequantized as MatMulNBits' weight. */
#include <math.h>
#include <string.h>

#include "op_contrib.h"
#include "tk/nn.h"
#include "tk/ops.h"
#include "tk/shape.h"

/* ------------------------------------------------------------ MatMulNBits */

const char *tko_contrib_check_matmul_nbits(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    int64_t bits = tko_attr_int(n, "bits", 4), bs = tko_attr_int(n, "block_size", 0);
    if (bits != 2 && bits != 4 && bits != 8) return tko_nn_why(why, len, "bits=%lld is not supported (2, 4 or 8)", (long long)bits);
    if (bs < 16 || (bs & (bs - 1))) return tko_nn_why(why, len, "block_size=%lld must be a power of 2, at least 16", (long long)bs);
    if (tko_attr_int(n, "K", 0) < 1 || tko_attr_int(n, "N", 0) < 1) return tko_nn_why(why, len, "attributes K and N must be >= 1");
    if (n->nin > 4 && n->inputs[4] != TKO_NO_VALUE) return tko_nn_why(why, len, "g_idx (act-order) is not supported");
    return NULL;
}

typedef struct {
    const uint8_t *codes, *zp_packed;   /* zp_packed: NULL when zero points are absent or float */
    const tk_tensor *scales, *zp_float;
    int64_t k, n, bits, block, k_blocks, blob, zp_row;
    float *w;                            /* [K, N] */
} NBits;

static unsigned code_at(const uint8_t *row, int64_t i, int64_t bits)
{
    int64_t per = 8 / bits;
    return (row[i / per] >> ((i % per) * bits)) & ((1u << bits) - 1);
}

/* Rows n in [begin, end) of the weight: w[k, n] = (q - zp) · scale. */
static void dequant_rows(int64_t begin, int64_t end, void *arg)
{
    const NBits *q = arg;
    const char *sc = tkr_ptr(q->scales), *zf = q->zp_float ? tkr_ptr(q->zp_float) : NULL;
    size_t ssz = tk_dtype_size(tk_tensor_dtype(q->scales));
    for (int64_t n = begin; n < end; n++) {
        const uint8_t *row = q->codes + n * q->k_blocks * q->blob;
        for (int64_t j = 0; j < q->k_blocks; j++) {
            float scale = (float)tkr_load_f(sc + (n * q->k_blocks + j) * ssz, tk_tensor_dtype(q->scales));
            float zp = (float)(1u << (q->bits - 1));
            if (q->zp_packed) zp = (float)code_at(q->zp_packed + n * q->zp_row, j, q->bits);
            else if (zf) zp = (float)tkr_load_f(zf + (n * q->k_blocks + j) * ssz, tk_tensor_dtype(q->zp_float));
            const uint8_t *blk = row + j * q->blob;
            for (int64_t i = 0; i < q->block && j * q->block + i < q->k; i++)
                q->w[(j * q->block + i) * q->n + n] = ((float)code_at(blk, i, q->bits) - zp) * scale;
        }
    }
}

tk_status tko_contrib_run_matmul_nbits(TkoOpCtx *oc)
{
    tk_context *ctx = oc->ctx;
    const tk_tensor *a = oc->in[0], *zp = oc->nin > 3 ? oc->in[3] : NULL, *bias = oc->nin > 5 ? oc->in[5] : NULL;
    NBits q = { .k = tko_attr_int(oc->node, "K", 0), .n = tko_attr_int(oc->node, "N", 0), .bits = tko_attr_int(oc->node, "bits", 4),
                .block = tko_attr_int(oc->node, "block_size", 0) };
    q.k_blocks = (q.k + q.block - 1) / q.block, q.blob = q.block * q.bits / 8, q.zp_row = (q.k_blocks * q.bits + 7) / 8;
    tk_dtype d = tk_tensor_dtype(a);
    if (!tk_dtype_is_float(d)) return tko_fail(oc, TK_ERR_DTYPE, "A is %s; it must be a float type", tk_dtype_name(d));
    int ar = tk_tensor_ndim(a);
    if (ar < 1 || tk_tensor_shape(a)[ar - 1] != q.k)
        return tko_fail(oc, TK_ERR_SHAPE, "A's last dim is %lld, K is %lld", ar ? (long long)tk_tensor_shape(a)[ar - 1] : 0LL, (long long)q.k);
    if (tk_tensor_dtype(oc->in[1]) != TK_DTYPE_U8 || tk_tensor_numel(oc->in[1]) != q.n * q.k_blocks * q.blob)
        return tko_fail(oc, TK_ERR_SHAPE, "B must be u8 [N=%lld, %lld blocks, %lld bytes]", (long long)q.n, (long long)q.k_blocks,
                        (long long)q.blob);
    if (!tk_dtype_is_float(tk_tensor_dtype(oc->in[2])) || tk_tensor_numel(oc->in[2]) != q.n * q.k_blocks)
        return tko_fail(oc, TK_ERR_SHAPE, "scales must be float with N · blocks = %lld elements", (long long)(q.n * q.k_blocks));
    if (zp) {
        bool packed = tk_tensor_dtype(zp) == TK_DTYPE_U8;
        int64_t want = packed ? q.n * q.zp_row : q.n * q.k_blocks;
        if (tk_tensor_numel(zp) != want || (!packed && tk_tensor_dtype(zp) != tk_tensor_dtype(oc->in[2])))
            return tko_fail(oc, TK_ERR_SHAPE, "zero_points must be u8 with %lld elements or the scales' type with %lld",
                            (long long)(q.n * q.zp_row), (long long)(q.n * q.k_blocks));
    }
    tk_tensor *t[10] = { 0 };   /* B, scales, zp contiguous; W; A in f32; Y */
    tk_status s = tk_contiguous(ctx, oc->in[1], &t[0]);
    if (!s) s = tk_contiguous(ctx, oc->in[2], &t[1]);
    if (!s && zp) s = tk_contiguous(ctx, zp, &t[2]);
    if (!s) s = tk_empty(ctx, TK_DTYPE_F32, 2, (int64_t[]){ q.k, q.n }, &t[3]);
    if (s) goto done;
    q.codes = (const uint8_t *)tkr_ptr(t[0]), q.scales = t[1], q.w = (float *)tkr_ptr(t[3]);
    if (zp && tk_tensor_dtype(zp) == TK_DTYPE_U8) q.zp_packed = (const uint8_t *)tkr_ptr(t[2]);
    else if (zp) q.zp_float = t[2];
    tkr_parallel_for(ctx, q.n, 16, dequant_rows, &q);   /* rows are independent: any split gives the same bytes */
    if ((s = tko_nn_to(oc, a, TK_DTYPE_F32, &t[4])) || (s = tk_matmul(ctx, t[4], t[3], &t[5]))) goto done;
    if (bias) {
        if ((s = tko_nn_to(oc, bias, TK_DTYPE_F32, &t[6]))) goto done;
        s = tk_add(ctx, t[5], t[6], &oc->out[0]);
    } else oc->out[0] = tk_tensor_retain(t[5]);
    if (!s) s = tko_nn_as_dtype(oc, &oc->out[0], d);
done:
    tko_nn_release(t, 10);
    if (s) tko_nn_release(oc->out, 1);
    return tko_nn_wrap(oc, s);
}

/* ------------------------------------------------------------ MatMulBnb4 */

/* bitsandbytes' 4-bit code books: FP4 (quant_type 0) and NF4 (1). */
static const float bnb_fp4[16] = { 0.0f, 5.208333333e-03f, 0.66666667f, 1.0f, 0.33333333f, 0.5f, 0.16666667f, 0.25f,
                                   -0.0f, -5.208333333e-03f, -0.66666667f, -1.0f, -0.33333333f, -0.5f, -0.16666667f, -0.25f };
static const float bnb_nf4[16] = { -1.0f, -0.6961928009986877f, -0.5250730514526367f, -0.39491748809814453f, -0.28444138169288635f,
                                   -0.18477343022823334f, -0.09105003625154495f, 0.0f, 0.07958029955625534f, 0.16093020141124725f,
                                   0.24611230194568634f, 0.33791524171829224f, 0.44070982933044434f, 0.5626170039176941f,
                                   0.7229568362236023f, 1.0f };

const char *tko_contrib_check_matmul_bnb4(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    int64_t qt = tko_attr_int(n, "quant_type", 0), bs = tko_attr_int(n, "block_size", 0);
    if (qt != 0 && qt != 1) return tko_nn_why(why, len, "quant_type=%lld is neither 0 (FP4) nor 1 (NF4)", (long long)qt);
    if (bs < 16 || (bs & (bs - 1))) return tko_nn_why(why, len, "block_size=%lld must be a power of 2, at least 16", (long long)bs);
    if (tko_attr_int(n, "K", 0) < 1 || tko_attr_int(n, "N", 0) < 1) return tko_nn_why(why, len, "attributes K and N must be >= 1");
    return NULL;
}

/* Y = A · Wᵀ, W [N, K] stored as N·K 4-bit codes (row-major, the first of
 * each pair in the high nibble) into the code book, times absmax per block
 * of block_size consecutive elements. W is made per call as [K, N] f32. */
tk_status tko_contrib_run_matmul_bnb4(TkoOpCtx *oc)
{
    tk_context *ctx = oc->ctx;
    const tk_tensor *a = oc->in[0];
    int64_t k = tko_attr_int(oc->node, "K", 0), n = tko_attr_int(oc->node, "N", 0), bs = tko_attr_int(oc->node, "block_size", 0);
    const float *book = tko_attr_int(oc->node, "quant_type", 0) ? bnb_nf4 : bnb_fp4;
    tk_dtype d = tk_tensor_dtype(a);
    int ar = tk_tensor_ndim(a);
    if (!tk_dtype_is_float(d)) return tko_fail(oc, TK_ERR_DTYPE, "A is %s; it must be a float type", tk_dtype_name(d));
    if (ar < 1 || tk_tensor_shape(a)[ar - 1] != k)
        return tko_fail(oc, TK_ERR_SHAPE, "A's last dim is %lld, K is %lld", ar ? (long long)tk_tensor_shape(a)[ar - 1] : 0LL, (long long)k);
    int64_t total = n * k, blocks = (total + bs - 1) / bs;
    if (tk_tensor_dtype(oc->in[1]) != TK_DTYPE_U8 || tk_tensor_numel(oc->in[1]) != (total + 1) / 2)
        return tko_fail(oc, TK_ERR_SHAPE, "B must be u8 with (N·K + 1) / 2 = %lld elements", (long long)((total + 1) / 2));
    if (!tk_dtype_is_float(tk_tensor_dtype(oc->in[2])) || tk_tensor_numel(oc->in[2]) != blocks)
        return tko_fail(oc, TK_ERR_SHAPE, "absmax must be float with %lld elements (one per block)", (long long)blocks);
    tk_tensor *t[6] = { 0 };   /* B, absmax contiguous; W; A f32; Y */
    tk_status s = tk_contiguous(ctx, oc->in[1], &t[0]);
    if (!s) s = tk_contiguous(ctx, oc->in[2], &t[1]);
    if (!s) s = tk_empty(ctx, TK_DTYPE_F32, 2, (int64_t[]){ k, n }, &t[2]);
    if (s) goto done;
    const uint8_t *codes = (const uint8_t *)tkr_ptr(t[0]);
    const char *am = tkr_ptr(t[1]);
    tk_dtype amd = tk_tensor_dtype(t[1]);
    size_t asz = tk_dtype_size(amd);
    float *w = (float *)tkr_ptr(t[2]);
    for (int64_t i = 0; i < total; i++) {
        unsigned c = i % 2 ? codes[i / 2] & 15u : codes[i / 2] >> 4;
        w[(i % k) * n + i / k] = book[c] * (float)tkr_load_f(am + (i / bs) * asz, amd);
    }
    if ((s = tko_nn_to(oc, a, TK_DTYPE_F32, &t[3])) || (s = tk_matmul(ctx, t[3], t[2], &oc->out[0]))) goto done;
    s = tko_nn_as_dtype(oc, &oc->out[0], d);
done:
    tko_nn_release(t, 6);
    if (s) tko_nn_release(oc->out, 1);
    return tko_nn_wrap(oc, s);
}

/* ------------------------------------------------------------ DynamicQuantizeMatMul */

/* ONNX Runtime's u8 parameters for a: the range [min(0, min a), max(0, max a)]
 * over 255 steps, the zero point rounded half to even. */
static void quant_params(const float *a, int64_t n, float *scale, float *zp)
{
    float lo = 0.0f, hi = 0.0f;
    for (int64_t i = 0; i < n; i++) {
        lo = a[i] < lo ? a[i] : lo;
        hi = a[i] > hi ? a[i] : hi;
    }
    *scale = hi == lo ? 1.0f : (hi - lo) / 255.0f;
    float z = 0.0f - lo / *scale;
    *zp = nearbyintf(z < 0.0f ? 0.0f : z > 255.0f ? 255.0f : z);
}

tk_status tko_contrib_run_dynamic_quantize_matmul(TkoOpCtx *oc)
{
    tk_context *ctx = oc->ctx;
    const tk_tensor *a = oc->in[0], *b = oc->in[1], *bs = oc->in[2];
    const tk_tensor *bzp = oc->nin > 3 ? oc->in[3] : NULL, *bias = oc->nin > 4 ? oc->in[4] : NULL;
    if (tk_tensor_dtype(a) != TK_DTYPE_F32) return tko_fail(oc, TK_ERR_DTYPE, "A is %s; it must be f32", tk_dtype_name(tk_tensor_dtype(a)));
    tk_dtype bd = tk_tensor_dtype(b);
    if (bd != TK_DTYPE_I8 && bd != TK_DTYPE_U8) return tko_fail(oc, TK_ERR_DTYPE, "B is %s; it must be i8 or u8", tk_dtype_name(bd));
    if (tk_tensor_dtype(bs) != TK_DTYPE_F32) return tko_fail(oc, TK_ERR_DTYPE, "b_scale is %s; it must be f32", tk_dtype_name(tk_tensor_dtype(bs)));
    tk_tensor *t[12] = { 0 };   /* A contiguous, qa - za (f64), B f64, zb f64, B - zb, sums, sums f32, multiplier, scaled, bias */
    tk_status s = tk_contiguous(ctx, a, &t[0]);
    if (s) goto done;
    float scale, zp;
    int64_t na = tk_tensor_numel(t[0]);
    const float *av = (const float *)tkr_ptr(t[0]);
    quant_params(av, na, &scale, &zp);
    if ((s = tk_empty(ctx, TK_DTYPE_F64, tk_tensor_ndim(a), tk_tensor_shape(a), &t[1]))) goto done;
    double *qa = (double *)tkr_ptr(t[1]);
    for (int64_t i = 0; i < na; i++) {
        float v = nearbyintf(av[i] / scale) + zp;
        qa[i] = (double)(v < 0.0f ? 0.0f : v > 255.0f ? 255.0f : v) - (double)zp;
    }
    if ((s = tk_to_dtype(ctx, b, TK_DTYPE_F64, &t[2]))) goto done;
    tk_tensor *bc = t[2];
    if (bzp) {
        if ((s = tk_to_dtype(ctx, bzp, TK_DTYPE_F64, &t[3])) || (s = tk_sub(ctx, t[2], t[3], &t[4]))) goto done;
        bc = t[4];
    }
    if ((s = tk_matmul(ctx, t[1], bc, &t[5])) || (s = tk_to_dtype(ctx, t[5], TK_DTYPE_F32, &t[6])) ||
        (s = tk_binary_scalar(ctx, TK_MUL, bs, scale, &t[7])) || (s = tk_mul(ctx, t[6], t[7], &t[8])))
        goto done;
    if (bias) {
        if ((s = tko_nn_to(oc, bias, TK_DTYPE_F32, &t[9]))) goto done;
        s = tk_add(ctx, t[8], t[9], &oc->out[0]);
    } else oc->out[0] = tk_tensor_retain(t[8]);
    if (!s) s = tko_nn_as_dtype(oc, &oc->out[0], TK_DTYPE_F32);
done:
    tko_nn_release(t, 12);
    if (s) tko_nn_release(oc->out, 1);
    return tko_nn_wrap(oc, s);
}

/* ------------------------------------------------------------ GatherBlockQuantized */

const char *tko_contrib_check_gather_block_quantized(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    int64_t bits = tko_attr_int(n, "bits", 4), bs = tko_attr_int(n, "block_size", 128);
    if (bits != 2 && bits != 4 && bits != 8) return tko_nn_why(why, len, "bits=%lld is not supported (2, 4 or 8)", (long long)bits);
    if (bs < 16 || (bs & (bs - 1))) return tko_nn_why(why, len, "block_size=%lld must be a power of 2, at least 16", (long long)bs);
    if (tko_attr_int(n, "gather_axis", 0) != 0) return tko_nn_why(why, len, "gather_axis other than 0 is not supported");
    int64_t qa = tko_attr_int(n, "quantize_axis", 1);
    if (qa != 1 && qa != -1) return tko_nn_why(why, len, "quantize_axis other than the last of a 2-d table is not supported");
    return NULL;
}

typedef struct {
    const uint8_t *codes, *zp;   /* zp NULL: 2^(bits-1) */
    const char *scales;
    tk_dtype sd;
    const int64_t *rows;
    int64_t width, row_bytes, bits, block, blocks, zp_row;
    char *out;                    /* [rows, width] of sd */
} GatherQ;

static void gather_rows(int64_t begin, int64_t end, void *arg)
{
    const GatherQ *g = arg;
    size_t ssz = tk_dtype_size(g->sd);
    for (int64_t r = begin; r < end; r++) {
        int64_t row = g->rows[r];
        for (int64_t h = 0; h < g->width; h++) {
            int64_t blk = h / g->block;
            float scale = (float)tkr_load_f(g->scales + (row * g->blocks + blk) * ssz, g->sd);
            float zp = g->zp ? (float)code_at(g->zp + row * g->zp_row, blk, g->bits) : (float)(1u << (g->bits - 1));
            float v = ((float)code_at(g->codes + row * g->row_bytes, h, g->bits) - zp) * scale;
            tkr_store_f(g->out + (r * g->width + h) * ssz, g->sd, v);
        }
    }
}

/* GatherBlockQuantized on a u8 table [V, W·bits/8] of codes packed along the
 * row (the embedding of ONNX Runtime's 4-bit models): the rows named by
 * indices, dequantized with scales [V, W/block] and optional packed
 * zero_points; output [*indices.shape, W] in the scales' type. */
tk_status tko_contrib_run_gather_block_quantized(TkoOpCtx *oc)
{
    tk_context *ctx = oc->ctx;
    const tk_tensor *data = oc->in[0], *idx = oc->in[1], *scales = oc->in[2], *zp = oc->nin > 3 ? oc->in[3] : NULL;
    GatherQ g = { .bits = tko_attr_int(oc->node, "bits", 4), .block = tko_attr_int(oc->node, "block_size", 128), .sd = tk_tensor_dtype(scales) };
    if (tk_tensor_dtype(data) != TK_DTYPE_U8 || tk_tensor_ndim(data) != 2)
        return tko_fail(oc, TK_ERR_DTYPE, "data is %d-d %s; only a 2-d u8 table is supported", tk_tensor_ndim(data),
                        tk_dtype_name(tk_tensor_dtype(data)));
    if (!tk_dtype_is_float(g.sd)) return tko_fail(oc, TK_ERR_DTYPE, "scales are %s; they must be a float type", tk_dtype_name(g.sd));
    int64_t v = tk_tensor_shape(data)[0];
    g.row_bytes = tk_tensor_shape(data)[1], g.width = g.row_bytes * (8 / g.bits), g.blocks = (g.width + g.block - 1) / g.block;
    g.zp_row = (g.blocks * g.bits + 7) / 8;
    if (tk_tensor_numel(scales) != v * g.blocks)
        return tko_fail(oc, TK_ERR_SHAPE, "scales have %lld elements; [%lld, %lld] expected", (long long)tk_tensor_numel(scales), (long long)v,
                        (long long)g.blocks);
    if (zp && (tk_tensor_dtype(zp) != TK_DTYPE_U8 || tk_tensor_numel(zp) != v * g.zp_row))
        return tko_fail(oc, TK_ERR_SHAPE, "zero_points must be u8 [%lld, %lld]", (long long)v, (long long)g.zp_row);
    if (tk_dtype_is_float(tk_tensor_dtype(idx)) || tk_tensor_ndim(idx) > TK_MAX_DIMS - 1)
        return tko_fail(oc, TK_ERR_DTYPE, "indices must be integers of at most %d dims", TK_MAX_DIMS - 1);
    tk_tensor *t[5] = { 0 };   /* data, scales, zp contiguous; indices i64 */
    tk_status s = tk_contiguous(ctx, data, &t[0]);
    if (!s) s = tk_contiguous(ctx, scales, &t[1]);
    if (!s && zp) s = tk_contiguous(ctx, zp, &t[2]);
    if (!s) s = tk_to_dtype(ctx, idx, TK_DTYPE_I64, &t[3]);
    if (!s) s = tk_contiguous(ctx, t[3], &t[4]);
    if (s) goto done;
    int64_t n = tk_tensor_numel(t[4]), *rows = (int64_t *)tkr_ptr(t[4]);
    for (int64_t i = 0; i < n; i++) {
        if (rows[i] < 0) rows[i] += v;   /* Gather's negative indices */
        if (rows[i] < 0 || rows[i] >= v) {
            s = tko_fail(oc, TK_ERR_INDEX, "index %lld is out of range for %lld rows", (long long)(rows[i] < 0 ? rows[i] - v : rows[i]), (long long)v);
            goto done;
        }
    }
    int64_t shape[TK_MAX_DIMS];
    int nd = tk_tensor_ndim(idx);
    memcpy(shape, tk_tensor_shape(idx), (size_t)nd * sizeof *shape);
    shape[nd] = g.width;
    if ((s = tk_empty(ctx, g.sd, nd + 1, shape, &oc->out[0]))) goto done;
    g.codes = (const uint8_t *)tkr_ptr(t[0]), g.scales = tkr_ptr(t[1]), g.zp = zp ? (const uint8_t *)tkr_ptr(t[2]) : NULL;
    g.rows = rows, g.out = tkr_ptr(oc->out[0]);
    tkr_parallel_for(ctx, n, 8, gather_rows, &g);   /* rows are independent: any split gives the same bytes */
done:
    tko_nn_release(t, 5);
    if (s) tko_nn_release(oc->out, 1);
    return tko_nn_wrap(oc, s);
}
