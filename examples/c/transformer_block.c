/* transformer_block.c — a pre-norm decoder block on the tensor runtime, the
 * way a Llama-style model spells it: RMSNorm → attention with rotary position
 * embeddings, grouped KV heads and a KV cache → residual → RMSNorm → SwiGLU
 * FFN → residual. A prompt is run as one prefill, then tokens are decoded one
 * at a time against the cache. Weights are seeded random and marked constant
 * (packed once for the products). The cache is PyTorch's "static cache":
 * preallocated for the run, new keys copied into a slice of it, attention on
 * the prefix view of the live tokens, which tk_sdpa reads in place.
 *
 *   transformer_block [OUTDIR]   a small block (d 256, 4 heads, 2 KV heads): prefill 19
 *                                tokens, decode 2; writes weights, inputs, outputs as .npy
 *                                (tests/tensor/examples_test.py checks them against PyTorch)
 *   transformer_block --bench [THREADS]
 *                                d 1024, 16 heads, FFN 2816: a 128-token prefill and a decode
 *                                step against a 512-token cache, ms per token
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tk/tk.h"

typedef struct {
    int64_t d, heads, kv_heads, head_dim, ffn;
    tk_tensor *wq, *wk, *wv, *wo, *w1, *w3, *w2, *g_attn, *g_ffn;
} Block;

typedef struct {
    tk_tensor *k, *v;   /* [1, HKV, capacity, DH]; positions [0, len) hold the tokens so far */
    int64_t len, capacity;
} Cache;

static tk_context *ctx;

#define TRY(call)                                                                          \
    do {                                                                                   \
        if ((call) != TK_OK) {                                                             \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, tk_last_error(ctx)); \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

static void release_all(tk_tensor **ts, int n)
{
    for (int i = 0; i < n; i++) tk_tensor_release(ts[i]);
}

static tk_tensor *weight(int64_t rows, int64_t cols, uint64_t seed)
{
    tk_tensor *w;
    double a = 1.0 / sqrt((double)cols);
    TRY(tk_rand(ctx, TK_DTYPE_F32, 2, (int64_t[]){ rows, cols }, seed, -a, a, &w));
    TRY(tk_mark_weight(ctx, w));
    return w;
}

static Block make_block(int64_t d, int64_t heads, int64_t kv_heads, int64_t ffn)
{
    Block b = { .d = d, .heads = heads, .kv_heads = kv_heads, .head_dim = d / heads, .ffn = ffn };
    b.wq = weight(heads * b.head_dim, d, 101);
    b.wk = weight(kv_heads * b.head_dim, d, 102);
    b.wv = weight(kv_heads * b.head_dim, d, 103);
    b.wo = weight(d, heads * b.head_dim, 104);
    b.w1 = weight(ffn, d, 105);
    b.w3 = weight(ffn, d, 106);
    b.w2 = weight(d, ffn, 107);
    TRY(tk_rand(ctx, TK_DTYPE_F32, 1, &d, 108, 0.5, 1.5, &b.g_attn));
    TRY(tk_rand(ctx, TK_DTYPE_F32, 1, &d, 109, 0.5, 1.5, &b.g_ffn));
    return b;
}

/* [T, n·DH] → [1, n, T, DH] */
static tk_tensor *heads_first(tk_tensor *x, int64_t t, int64_t n, int64_t dh)
{
    tk_tensor *v, *p, *u;
    TRY(tk_view(ctx, x, 3, (int64_t[]){ t, n, dh }, &v));
    TRY(tk_permute(ctx, v, (int[]){ 1, 0, 2 }, &p));
    TRY(tk_unsqueeze(ctx, p, 0, &u));
    tk_tensor_release(v);
    tk_tensor_release(p);
    return u;
}

/* Rotary embedding, the "rotate half" form: x·cos + rotate_half(x)·sin with
 * angle (pos0 + t) · 10000^(-2i/DH) for the pair (i, i + DH/2). */
static tk_tensor *rotary(tk_tensor *x, int64_t pos0)
{
    int64_t t = tk_tensor_size(x, 2), dh = tk_tensor_size(x, 3), half = dh / 2;
    float *c = malloc((size_t)(t * dh) * sizeof *c), *s = malloc((size_t)(t * dh) * sizeof *s);
    for (int64_t p = 0; p < t; p++)
        for (int64_t i = 0; i < dh; i++) {
            double ang = (double)(pos0 + p) * pow(10000.0, -2.0 * (double)(i % half) / (double)dh);
            c[p * dh + i] = (float)cos(ang);
            s[p * dh + i] = (float)sin(ang);
        }
    tk_tensor *cos_t, *sin_t, *x1, *x2, *nx2, *rot, *a, *b, *out;
    TRY(tk_from_data(ctx, c, TK_DTYPE_F32, 2, (int64_t[]){ t, dh }, &cos_t));
    TRY(tk_from_data(ctx, s, TK_DTYPE_F32, 2, (int64_t[]){ t, dh }, &sin_t));
    free(c);
    free(s);
    TRY(tk_slice(ctx, x, 3, 0, half, 1, &x1));
    TRY(tk_slice(ctx, x, 3, half, dh, 1, &x2));
    TRY(tk_unary(ctx, TK_NEG, x2, &nx2));
    TRY(tk_cat(ctx, (const tk_tensor *[]){ nx2, x1 }, 2, 3, &rot));
    TRY(tk_mul(ctx, x, cos_t, &a));
    TRY(tk_mul(ctx, rot, sin_t, &b));
    TRY(tk_add(ctx, a, b, &out));
    tk_tensor *tmp[] = { cos_t, sin_t, x1, x2, nx2, rot, a, b };
    release_all(tmp, 8);
    return out;
}

/* A cache for `capacity` tokens of the block's KV heads. */
static Cache cache_make(const Block *b, int64_t capacity)
{
    Cache c = { .capacity = capacity };
    int64_t shape[4] = { 1, b->kv_heads, capacity, b->head_dim };
    TRY(tk_empty(ctx, TK_DTYPE_F32, 4, shape, &c.k));
    TRY(tk_empty(ctx, TK_DTYPE_F32, 4, shape, &c.v));
    return c;
}

/* Writes x [1, HKV, T, DH] at positions [pos, pos + T) of the cache tensor
 * (a copy of the new tokens only; the cache itself never moves). */
static void cache_write(tk_tensor *cache, int64_t pos, const tk_tensor *x)
{
    tk_tensor *slot;
    TRY(tk_slice(ctx, cache, 2, pos, pos + tk_tensor_size(x, 2), 1, &slot));
    TRY(tk_copy_(ctx, slot, x));
    tk_tensor_release(slot);
}

/* x [T, D] → the block's output [T, D]; the tokens sit at positions cache->len ... */
static tk_tensor *forward(const Block *b, tk_tensor *x, Cache *cache)
{
    int64_t t = tk_tensor_size(x, 0), dh = b->head_dim;
    tk_tensor *h, *q, *k, *v, *q4, *k4, *v4, *qr, *kr, *att, *attp, *attc, *o, *x1;
    TRY(tk_rms_norm(ctx, x, 1, b->g_attn, 1e-6, &h));
    TRY(tk_linear(ctx, h, b->wq, NULL, &q));
    TRY(tk_linear(ctx, h, b->wk, NULL, &k));
    TRY(tk_linear(ctx, h, b->wv, NULL, &v));
    q4 = heads_first(q, t, b->heads, dh);
    k4 = heads_first(k, t, b->kv_heads, dh);
    v4 = heads_first(v, t, b->kv_heads, dh);
    qr = rotary(q4, cache->len);
    kr = rotary(k4, cache->len);
    if (cache->len + t > cache->capacity) {
        fprintf(stderr, "transformer_block: %lld tokens do not fit a cache of %lld\n", (long long)(cache->len + t),
                (long long)cache->capacity);
        exit(1);
    }
    cache_write(cache->k, cache->len, kr);
    cache_write(cache->v, cache->len, v4);
    cache->len += t;
    /* the live tokens: views of the cache's first len positions, read in place */
    tk_tensor *keys, *values;
    TRY(tk_slice(ctx, cache->k, 2, 0, cache->len, 1, &keys));
    TRY(tk_slice(ctx, cache->v, 2, 0, cache->len, 1, &values));
    TRY(tk_sdpa(ctx, qr, keys, values, &(tk_sdpa_opts){ .causal = true }, &att));   /* [1, H, T, DH] */
    tk_tensor_release(keys);
    tk_tensor_release(values);
    TRY(tk_permute(ctx, att, (int[]){ 0, 2, 1, 3 }, &attp));
    TRY(tk_reshape(ctx, attp, 2, (int64_t[]){ t, b->heads * dh }, &attc));
    TRY(tk_linear(ctx, attc, b->wo, NULL, &o));
    TRY(tk_add(ctx, x, o, &x1));
    tk_tensor *tmp[] = { h, q, k, v, q4, k4, v4, qr, kr, att, attp, attc, o };
    release_all(tmp, 13);

    tk_tensor *h2, *a, *g, *sa, *m, *f, *y;
    TRY(tk_rms_norm(ctx, x1, 1, b->g_ffn, 1e-6, &h2));
    TRY(tk_linear(ctx, h2, b->w1, NULL, &a));
    TRY(tk_linear(ctx, h2, b->w3, NULL, &g));
    TRY(tk_unary(ctx, TK_SILU, a, &sa));
    TRY(tk_mul(ctx, sa, g, &m));
    TRY(tk_linear(ctx, m, b->w2, NULL, &f));
    TRY(tk_add(ctx, x1, f, &y));
    tk_tensor *tmp2[] = { x1, h2, a, g, sa, m, f };
    release_all(tmp2, 7);
    return y;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void free_block(Block *b)
{
    tk_tensor *w[] = { b->wq, b->wk, b->wv, b->wo, b->w1, b->w3, b->w2, b->g_attn, b->g_ffn };
    release_all(w, 9);
}

static int bench(int threads)
{
    TRY(tk_context_set_threads(ctx, threads));
    Block b = make_block(1024, 16, 16, 2816);
    double best_prefill = 1e9, best_decode = 1e9;
    for (int rep = 0; rep < 4; rep++) {   /* rep 0 compiles the kernels and fills the allocator */
        Cache cache = cache_make(&b, 520);   /* 128 + 384 + 1 tokens */
        tk_tensor *x, *tok;
        TRY(tk_randn(ctx, TK_DTYPE_F32, 2, (int64_t[]){ 128, 1024 }, 1, &x));
        double t0 = now();
        tk_tensor *y = forward(&b, x, &cache);
        double t1 = now();
        /* grow the cache to 512 tokens, then time one decode step */
        tk_tensor *fill;
        TRY(tk_randn(ctx, TK_DTYPE_F32, 2, (int64_t[]){ 384, 1024 }, 2, &fill));
        tk_tensor *yf = forward(&b, fill, &cache);
        TRY(tk_randn(ctx, TK_DTYPE_F32, 2, (int64_t[]){ 1, 1024 }, 3, &tok));
        double t2 = now();
        tk_tensor *yt = forward(&b, tok, &cache);
        double t3 = now();
        if (rep > 0) {
            if (t1 - t0 < best_prefill) best_prefill = t1 - t0;
            if (t3 - t2 < best_decode) best_decode = t3 - t2;
        }
        tk_tensor *tmp[] = { x, y, fill, yf, tok, yt, cache.k, cache.v };
        release_all(tmp, 8);
    }
    printf("{\"impl\":\"tilekit\",\"threads\":%d,\"prefill_ms_per_token\":%.4f,\"prefill_ms\":%.3f,\"decode_ms\":%.3f}\n", threads,
           1e3 * best_prefill / 128, 1e3 * best_prefill, 1e3 * best_decode);
    free_block(&b);
    return 0;
}

int main(int argc, char **argv)
{
    if (tk_context_create(NULL, &ctx) != TK_OK) return 1;
    if (argc > 1 && strcmp(argv[1], "--bench") == 0) {
        int rc = bench(argc > 2 ? atoi(argv[2]) : 1);
        tk_context_free(ctx);
        return rc;
    }
    Block b = make_block(256, 4, 2, 512);
    Cache cache = cache_make(&b, 32);   /* 19 + 2 tokens */
    tk_tensor *x, *t1, *t2;
    TRY(tk_randn(ctx, TK_DTYPE_F32, 2, (int64_t[]){ 19, 256 }, 7, &x));
    TRY(tk_randn(ctx, TK_DTYPE_F32, 2, (int64_t[]){ 1, 256 }, 8, &t1));
    TRY(tk_randn(ctx, TK_DTYPE_F32, 2, (int64_t[]){ 1, 256 }, 9, &t2));
    tk_tensor *y = forward(&b, x, &cache), *y1 = forward(&b, t1, &cache), *y2 = forward(&b, t2, &cache);
    tk_tensor *norm;
    double n;
    TRY(tk_reduce(ctx, TK_NORM, y2, NULL, &norm));
    TRY(tk_item(ctx, norm, NULL, &n));
    printf("transformer_block: d 256, 4 heads (2 KV), prefill 19 tokens + 2 decode steps, cache %lld tokens; |y_last| = %.4f\n",
           (long long)cache.len, n);
    if (argc > 1) {
        const char *names[] = { "wq", "wk", "wv", "wo", "w1", "w3", "w2", "g_attn", "g_ffn", "x", "t1", "t2", "y", "y1", "y2" };
        tk_tensor *ts[] = { b.wq, b.wk, b.wv, b.wo, b.w1, b.w3, b.w2, b.g_attn, b.g_ffn, x, t1, t2, y, y1, y2 };
        char path[1024];
        for (int i = 0; i < 15; i++) {
            snprintf(path, sizeof path, "%s/%s.npy", argv[1], names[i]);
            TRY(tk_save_npy(ctx, ts[i], path));
        }
    }
    tk_tensor *tmp[] = { x, t1, t2, y, y1, y2, norm, cache.k, cache.v };
    release_all(tmp, 9);
    free_block(&b);
    tk_context_free(ctx);
    return 0;
}
