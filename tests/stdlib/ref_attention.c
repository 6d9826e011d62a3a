/* ref_attention.c — double-precision references of the attention kernels
 * (stdlib-kernels/attention.tk, attention_decode.tk), written from the definitions in
 * docs/stdlib/attention.md. See reference.h.
 *
 *   O[b,h,i,:] = Σ_j softmax_j(s[i,j]) · V[b,g(h),j,:]
 *   s[i,j]     = scale · Q[b,h,i,:]·K[b,g(h),j,:] + mask[i,j],   j visible to i
 *
 * computed one query row at a time with plain loops: all scores of the row,
 * their maximum, exp and sum, then the weighted sum of V. Conventions (the
 * kernels' documented contract): GQA head g(h) = min(h / max(H / HKV, 1),
 * HKV - 1); causal: j visible iff j <= i + SKV - S; a row with no visible key
 * of finite score gives 0. The f32 and bf16 kernels share the references. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"

static int64_t kv_head_of(int64_t h, int64_t H, int64_t HKV)
{
    int64_t group = H / HKV;
    if (group < 1) group = 1;
    int64_t g = h / group;
    return g < HKV - 1 ? g : HKV - 1;
}

/* A [B, H, S, D]-shaped tensor's row (b, h, i). */
static double *row4(TkRefTensor *t, int64_t b, int64_t h, int64_t i)
{
    return t->data + ((b * t->shape[1] + h) * t->shape[2] + i) * t->shape[3];
}

/* out[0..D) = Σ_j w_j V[j, :] / Σ_j w_j over the keys whose score is finite,
 * w_j = exp(s_j - max s); all zero when there is none. */
static void softmax_weighted_sum(const double *s, int64_t nkeys, TkRefTensor *V, int64_t b, int64_t kh, int64_t D, double *out)
{
    double m = -INFINITY;
    for (int64_t j = 0; j < nkeys; j++) m = fmax(m, s[j]);
    for (int64_t d = 0; d < D; d++) out[d] = 0;
    if (m == -INFINITY) return;
    double sum = 0;
    for (int64_t j = 0; j < nkeys; j++) {
        if (s[j] == -INFINITY) continue;
        double w = exp(s[j] - m);
        const double *v = row4(V, b, kh, j);
        sum += w;
        for (int64_t d = 0; d < D; d++) out[d] += w * v[d];
    }
    for (int64_t d = 0; d < D; d++) out[d] /= sum;
}

static double dot(const double *a, const double *b, int64_t n)
{
    double acc = 0;
    for (int64_t d = 0; d < n; d++) acc += a[d] * b[d];
    return acc;
}

/* The widest head dimension a kernel handles: 64 for the _d64 kernels, else 128. */
static int64_t tile_width(const char *kernel) { return strstr(kernel, "_d64") ? 64 : 128; }

/* O[b,h,0,:] = NaN for every (b, h): a decode kernel given D over its width. */
static void nan_row0(TkRefTensor *O)
{
    for (int64_t b = 0; b < O->shape[0]; b++)
        for (int64_t h = 0; h < O->shape[1]; h++) {
            double *o = row4(O, b, h, 0);
            for (int64_t d = 0; d < O->shape[3]; d++) o[d] = NAN;
        }
}

/* The scale as the kernel receives it: an f32 parameter. */
static double scale_of(TkRefCall *call) { return (double)(float)tk_ref_scalar(call, "scale"); }

/* The prefill attention of every query row, K and V given as [B, HKV, SKV, D]
 * tensors (the call's, or unpacked from a packed cache). */
static const char *attention_rows(TkRefCall *call, TkRefTensor *K, TkRefTensor *V, int64_t HKV, int64_t SKV)
{
    TkRefTensor *Q = tk_ref_tensor_rank(call, "Q", 4), *O = tk_ref_tensor_rank(call, "O", 4);
    TkRefTensor *Mask = tk_ref_tensor_rank(call, "Mask", 4);
    int64_t B = tk_ref_size(call, "B"), H = tk_ref_size(call, "H"), S = tk_ref_size(call, "S");
    int64_t D = tk_ref_size(call, "D");
    double scale = scale_of(call);
    bool causal = tk_ref_scalar(call, "causal") != 0, use_mask = tk_ref_scalar(call, "use_mask") != 0;
    if (HKV < 1) return "HKV must be at least 1";
    int64_t MB = Mask->shape[0], HM = Mask->shape[1], MQ = Mask->shape[2], MK = Mask->shape[3];
    if (D > tile_width(call->kernel)) {   /* the kernels' loud failure: every element of O is NaN */
        for (int64_t e = 0; e < O->count; e++) O->data[e] = NAN;
        return NULL;
    }
    if (use_mask && ((MB != 1 && MB != B) || (HM != 1 && HM != H) || (MQ != 1 && MQ != S) || MK != SKV))
        return "the mask must be [1 or B, 1 or H, 1 or S, SKV]";

    double *s = malloc(sizeof(double) * (size_t)(SKV > 0 ? SKV : 1));
    if (!s) return "out of memory";
    for (int64_t b = 0; b < B; b++)
        for (int64_t h = 0; h < H; h++) {
            int64_t kh = kv_head_of(h, H, HKV);
            for (int64_t i = 0; i < S; i++) {
                const double *q = row4(Q, b, h, i);
                for (int64_t j = 0; j < SKV; j++) {
                    if (causal && j > i + SKV - S) {
                        s[j] = -INFINITY;
                        continue;
                    }
                    s[j] = scale * dot(q, row4(K, b, kh, j), D);
                    if (use_mask) s[j] += row4(Mask, MB == 1 ? 0 : b, HM == 1 ? 0 : h, MQ == 1 ? 0 : i)[j];
                }
                softmax_weighted_sum(s, SKV, V, b, kh, D, row4(O, b, h, i));
            }
        }
    free(s);
    return NULL;
}

/* attention_{bf16,f32}_d{64,128}: Q [B,H,S,D], K/V [B,HKV,SKV,D], Mask [MB,HM,MQ,MK], O [B,H,S,D]. */
static const char *ref_attention(TkRefCall *call)
{
    TkRefTensor *K = tk_ref_tensor_rank(call, "K", 4), *V = tk_ref_tensor_rank(call, "V", 4);
    return attention_rows(call, K, V, tk_ref_size(call, "HKV"), tk_ref_size(call, "SKV"));
}

/* attention_{bf16,f32}_d{64,128}_len: the prefill result over the first len
 * (clamped to [0, SMAX]) of K's and V's SMAX rows; no other row is read. */
static const char *ref_attention_len(TkRefCall *call)
{
    TkRefTensor *K = tk_ref_tensor_rank(call, "K", 4), *V = tk_ref_tensor_rank(call, "V", 4);
    double len = tk_ref_scalar(call, "len");
    int64_t smax = K->shape[2], live = len < 0 ? 0 : len < (double)smax ? (int64_t)len : smax;
    return attention_rows(call, K, V, tk_ref_size(call, "HKV"), live);
}

/* The packed KV cache (attention.tk): plane (bkh, j) of KP[BKH, NKB, DW, 128]
 * holds Kᵀ of keys 128j.. of KV head bkh as rows d; plane bkh of
 * VP[BKH, SKVP, DW] holds V's rows; both in the packed pair layout. */
#define KV_TILE 128

static double *kp_at(TkRefTensor *KP, int64_t bkh, int64_t key, int64_t d)
{
    int64_t nkb = KP->shape[1], dw = KP->shape[2];
    int64_t plane = bkh * nkb + key / KV_TILE;
    return &KP->data[plane * dw * KV_TILE + tk_ref_packed_at(d, key % KV_TILE, dw, KV_TILE, true)];
}

static double *vp_at(TkRefTensor *VP, int64_t bkh, int64_t key, int64_t d)
{
    int64_t rows = VP->shape[1], dw = VP->shape[2];
    return &VP->data[bkh * rows * dw + tk_ref_packed_at(key, d, rows, dw, true)];
}

/* pack_kv_bf16_d{64,128}: every element of KP and VP, zero past SKV and D. */
static const char *ref_pack_kv(TkRefCall *call)
{
    TkRefTensor *K = tk_ref_tensor_rank(call, "K", 4), *V = tk_ref_tensor_rank(call, "V", 4);
    TkRefTensor *KP = tk_ref_tensor_rank(call, "KP", 4), *VP = tk_ref_tensor_rank(call, "VP", 3);
    int64_t B = tk_ref_size(call, "B"), HKV = tk_ref_size(call, "HKV"), SKV = tk_ref_size(call, "SKV"), D = tk_ref_size(call, "D");
    int64_t NKB = KP->shape[1], DW = KP->shape[2], SKVP = VP->shape[1];
    if (KP->shape[0] != B * HKV || VP->shape[0] != B * HKV || NKB * KV_TILE < SKV || SKVP < NKB * KV_TILE)
        return "KP must be [B·HKV, ⌈SKV/128⌉, DW, 128] and VP [B·HKV, ≥ 128·NKB, DW]";
    for (int64_t b = 0; b < B; b++)
        for (int64_t kh = 0; kh < HKV; kh++)
            for (int64_t key = 0; key < NKB * KV_TILE; key++)
                for (int64_t d = 0; d < DW; d++) {
                    bool in = key < SKV && d < D;
                    *kp_at(KP, b * HKV + kh, key, d) = in ? row4(K, b, kh, key)[d] : 0.0;
                    *vp_at(VP, b * HKV + kh, key, d) = in ? row4(V, b, kh, key)[d] : 0.0;
                }
    return NULL;
}

/* attention_bf16_d{64,128}_kvp: the prefill result with K and V read from the
 * packed cache (SKV a scalar; HKV = BKH / B). */
static const char *ref_attention_kvp(TkRefCall *call)
{
    TkRefTensor *KP = tk_ref_tensor_rank(call, "KP", 4), *VP = tk_ref_tensor_rank(call, "VP", 3);
    int64_t B = tk_ref_size(call, "B"), D = tk_ref_size(call, "D");
    int64_t SKV = (int64_t)tk_ref_scalar(call, "SKV"), BKH = KP->shape[0];
    int64_t HKV = BKH / B > 1 ? BKH / B : 1;
    if (BKH % B != 0 || SKV < 0 || SKV > KP->shape[1] * KV_TILE || SKV > VP->shape[1])
        return "KP/VP must hold B·HKV heads of at least SKV keys";
    if (D > tile_width(call->kernel)) return attention_rows(call, NULL, NULL, HKV, SKV);   /* NaN, no K/V read */
    TkRefTensor K = { .name = "K", .rank = 4, .shape = { B, HKV, SKV, D } }, V = K;
    K.count = V.count = B * HKV * SKV * D;
    K.data = malloc(sizeof(double) * (size_t)(K.count > 0 ? K.count : 1));
    V.data = malloc(sizeof(double) * (size_t)(V.count > 0 ? V.count : 1));
    if (!K.data || !V.data) {
        free(K.data);
        free(V.data);
        return "out of memory";
    }
    for (int64_t b = 0; b < B; b++)
        for (int64_t kh = 0; kh < HKV; kh++)
            for (int64_t key = 0; key < SKV; key++)
                for (int64_t d = 0; d < D; d++) {
                    row4(&K, b, kh, key)[d] = *kp_at(KP, b * HKV + kh, key, d);
                    row4(&V, b, kh, key)[d] = *vp_at(VP, b * HKV + kh, key, d);
                }
    const char *err = attention_rows(call, &K, &V, HKV, SKV);
    free(K.data);
    free(V.data);
    return err;
}

/* The chunk c of NS over SKV keys: [c·CH, min((c+1)·CH, SKV)), CH = ⌈SKV/NS⌉. */
static void chunk_bounds(int64_t c, int64_t NS, int64_t SKV, int64_t *lo, int64_t *hi)
{
    int64_t ch = (SKV + NS - 1) / NS;
    *lo = c * ch < SKV ? c * ch : SKV;
    *hi = *lo + ch < SKV ? *lo + ch : SKV;
}

/* The empty chunk's maximum, as the kernels write it (attention.md). */
#define EMPTY_CHUNK_MAX (-3.0e38)

/* attention_decode_*: query row 0 of every (b, h); NS = 1 writes O[b,h,0,:]
 * (other rows and the scratch keep their contents), NS > 1 writes the chunk
 * partials PartML[bh,c,:] = (m_c, l_c) and PartO[bh,c,:] = o_c. The _len
 * kernels: the keys are the first len (clamped to [0, SMAX]) of K's SMAX rows;
 * no other row is read here. */
static const char *ref_decode(TkRefCall *call)
{
    TkRefTensor *Q = tk_ref_tensor_rank(call, "Q", 4), *K = tk_ref_tensor_rank(call, "K", 4);
    TkRefTensor *V = tk_ref_tensor_rank(call, "V", 4), *O = tk_ref_tensor_rank(call, "O", 4);
    TkRefTensor *PartO = tk_ref_tensor_rank(call, "PartO", 3), *PartML = tk_ref_tensor_rank(call, "PartML", 3);
    int64_t B = tk_ref_size(call, "B"), H = tk_ref_size(call, "H");
    int64_t HKV = tk_ref_size(call, "HKV"), SKV = K->shape[2], D = tk_ref_size(call, "D");
    if (strstr(call->kernel, "_len")) {
        double len = tk_ref_scalar(call, "len");
        SKV = len < 0 ? 0 : len < (double)SKV ? (int64_t)len : SKV;
    }
    int64_t NS = tk_ref_size(call, "NS");
    double scale = scale_of(call);
    if (HKV < 1) return "HKV must be at least 1";
    if (D > tile_width(call->kernel)) {
        nan_row0(O);
        return NULL;
    }

    double *s = malloc(sizeof(double) * (size_t)(SKV > 0 ? SKV : 1));
    if (!s) return "out of memory";
    for (int64_t b = 0; b < B; b++)
        for (int64_t h = 0; h < H; h++) {
            int64_t kh = kv_head_of(h, H, HKV);
            const double *q = row4(Q, b, h, 0);
            for (int64_t j = 0; j < SKV; j++) s[j] = scale * dot(q, row4(K, b, kh, j), D);
            if (NS == 1) {
                softmax_weighted_sum(s, SKV, V, b, kh, D, row4(O, b, h, 0));
                continue;
            }
            for (int64_t c = 0; c < NS; c++) {
                int64_t lo, hi;
                chunk_bounds(c, NS, SKV, &lo, &hi);
                double *o = PartO->data + ((b * H + h) * NS + c) * D;
                double *ml = PartML->data + ((b * H + h) * NS + c) * 2;
                double m = lo < hi ? -INFINITY : EMPTY_CHUNK_MAX, l = 0;
                for (int64_t j = lo; j < hi; j++) m = fmax(m, s[j]);
                for (int64_t d = 0; d < D; d++) o[d] = 0;
                for (int64_t j = lo; j < hi; j++) {
                    double w = exp(s[j] - m);
                    const double *v = row4(V, b, kh, j);
                    l += w;
                    for (int64_t d = 0; d < D; d++) o[d] += w * v[d];
                }
                ml[0] = m;
                ml[1] = l;
            }
        }
    free(s);
    return NULL;
}

/* attention_decode_combine_*: O[b,h,0,:] = Σ_c e^{m_c - M} o_c / Σ_c e^{m_c - M} l_c,
 * M = max_c m_c; 0 where the denominator is 0. */
static const char *ref_decode_combine(TkRefCall *call)
{
    TkRefTensor *PartO = tk_ref_tensor_rank(call, "PartO", 3), *PartML = tk_ref_tensor_rank(call, "PartML", 3);
    TkRefTensor *O = tk_ref_tensor_rank(call, "O", 4);
    int64_t B = tk_ref_size(call, "B"), H = tk_ref_size(call, "H"), D = tk_ref_size(call, "D");
    int64_t NS = tk_ref_size(call, "NS");
    if (D > tile_width(call->kernel)) {
        nan_row0(O);
        return NULL;
    }
    for (int64_t bh = 0; bh < B * H; bh++) {
        const double *ml = PartML->data + bh * NS * 2, *po = PartO->data + bh * NS * D;
        double M = -INFINITY, den = 0;
        for (int64_t c = 0; c < NS; c++) M = fmax(M, ml[2 * c]);
        double *out = row4(O, bh / H, bh % H, 0);
        for (int64_t d = 0; d < D; d++) out[d] = 0;
        for (int64_t c = 0; c < NS; c++) {
            double w = exp(ml[2 * c] - M);
            den += w * ml[2 * c + 1];
            for (int64_t d = 0; d < D; d++) out[d] += w * po[c * D + d];
        }
        for (int64_t d = 0; d < D; d++) out[d] = den != 0 ? out[d] / den : 0;
    }
    return NULL;
}

const TkRefKernel tk_ref_attention[] = {
    { "attention_bf16_d64", ref_attention },
    { "attention_bf16_d128", ref_attention },
    { "attention_f32_d64", ref_attention },
    { "attention_f32_d128", ref_attention },
    { "attention_bf16_d64_len", ref_attention_len },
    { "attention_bf16_d128_len", ref_attention_len },
    { "attention_f32_d64_len", ref_attention_len },
    { "attention_f32_d128_len", ref_attention_len },
    { "pack_kv_bf16_d64", ref_pack_kv },
    { "pack_kv_bf16_d128", ref_pack_kv },
    { "attention_bf16_d64_kvp", ref_attention_kvp },
    { "attention_bf16_d128_kvp", ref_attention_kvp },
    { "attention_decode_bf16_d64", ref_decode },
    { "attention_decode_bf16_d128", ref_decode },
    { "attention_decode_f32_d64", ref_decode },
    { "attention_decode_f32_d128", ref_decode },
    { "attention_decode_bf16_d64_len", ref_decode },
    { "attention_decode_bf16_d128_len", ref_decode },
    { "attention_decode_f32_d64_len", ref_decode },
    { "attention_decode_f32_d128_len", ref_decode },
    { "attention_decode_combine_bf16", ref_decode_combine },
    { "attention_decode_combine_f32", ref_decode_combine },
    { 0, 0 },
};
