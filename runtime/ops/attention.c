/* attention.c — scaled dot-product attention on the stdlib kernels
 * (docs/stdlib/attention.md): the flash-attention kernels for any number of
 * query rows, and the split-KV decode kernels (plus their combine) for one
 * query row without a mask. f32 and bf16 with head dims up to 128 run there;
 * f16, f64 and larger head dims run a plain loop in double (same semantics).
 * GQA: query head h reads KV head h / (H / HKV) (H a multiple of HKV).
 * Causal is bottom-right aligned — key j is visible to query i iff
 * j <= i + SKV - S — which is what a KV cache needs and equals PyTorch's
 * is_causal when S == SKV. k and v that are prefix views of one capacity of
 * preallocated caches (tk_slice(cache, 2, 0, L)) are read in place by the
 * _len kernels; other non-contiguous k and v are copied first. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "kernel_arg.h"
#include "stdlib_kernels.h"
#include "tk/nn.h"
#include "tk/shape.h"

/* The mask as the kernels take it: additive f32 [MB, HM, MQ, SKV] with each
 * of MB, HM, MQ either 1 or B, H, S. A bool mask (true: attend) becomes
 * 0 / -inf; lower ranks are broadcast from the right, as PyTorch does. */
static tk_status kernel_mask(tk_context *ctx, const tk_tensor *mask, int64_t b, int64_t h, int64_t s, int64_t skv, tk_tensor **out)
{
    char sm[160];
    if (mask->ndim < 1 || mask->ndim > 4 || mask->shape[mask->ndim - 1] != skv)
        return tkr_error(ctx, TK_ERR_SHAPE, "tk_sdpa: mask %s must end in the key count %lld and have at most 4 dims", TKR_SHAPE(mask, sm),
                         (long long)skv);
    int64_t shape[4] = { 1, 1, 1, skv };
    const int64_t full[3] = { b, h, s };
    for (int d = 0; d < mask->ndim - 1; d++) {
        int k = 4 - mask->ndim + d;
        int64_t v = mask->shape[d];
        if (v != 1 && v != full[k])
            return tkr_error(ctx, TK_ERR_SHAPE, "tk_sdpa: mask %s does not broadcast to [%lld, %lld, %lld, %lld]", TKR_SHAPE(mask, sm),
                             (long long)b, (long long)h, (long long)s, (long long)skv);
        shape[k] = v;
    }
    tk_tensor *m4 = NULL, *f = NULL;
    tk_status st = tk_reshape(ctx, mask, 4, shape, &m4);
    if (st) return st;
    if (mask->dtype == TK_DTYPE_BOOL) {
        /* true attends: 0, false hides: -inf */
        if (!(st = tkr_new(ctx, TK_DTYPE_F32, 4, shape, &f))) {
            tk_tensor *c = NULL;
            if (!(st = tkr_contiguous(ctx, m4, &c))) {
                const uint8_t *src = (const uint8_t *)tkr_ptr(c);
                float *dst = (float *)tkr_ptr(f);
                for (int64_t i = 0, n = tkr_numel(4, shape); i < n; i++) dst[i] = src[i] ? 0.0f : -INFINITY;
            }
            tk_tensor_release(c);
        }
    } else if (tk_dtype_is_float(mask->dtype)) {
        st = mask->dtype == TK_DTYPE_F32 ? tkr_contiguous(ctx, m4, &f) : tk_to_dtype(ctx, m4, TK_DTYPE_F32, &f);
    } else {
        st = tkr_error(ctx, TK_ERR_DTYPE, "tk_sdpa: mask is %s, needs bool or a float type", tk_dtype_name(mask->dtype));
    }
    tk_tensor_release(m4);
    if (st) {
        tk_tensor_release(f);
        return st;
    }
    *out = f;
    return TK_OK;
}

/* ------------------------------------------------------------ the plain loop */

typedef struct {
    const tk_tensor *q, *k, *v, *mask;   /* contiguous; mask f32 [MB, HM, MQ, SKV] or NULL */
    tk_tensor *o;
    int64_t b, h, hkv, s, skv, d;
    double scale;
    bool causal;
} Plain;

static void plain_rows(int64_t begin, int64_t end, void *arg)
{
    const Plain *p = arg;
    size_t es = tk_dtype_size(p->q->dtype);
    const char *q = tkr_ptr(p->q), *k = tkr_ptr(p->k), *v = tkr_ptr(p->v);
    char *o = tkr_ptr(p->o);
    int64_t g = p->h / p->hkv;
    double sc[4096], *scores = sc;
    double *heap = NULL;
    if (p->skv > 4096) scores = heap = malloc((size_t)p->skv * sizeof *scores);
    if (!scores) return;   /* out of memory: the rows stay as they were */
    for (int64_t row = begin; row < end; row++) {
        int64_t i = row % p->s, hh = (row / p->s) % p->h, bb = row / (p->s * p->h), kh = hh / g;
        const char *qr = q + row * p->d * (int64_t)es;
        double mx = -INFINITY;
        for (int64_t j = 0; j < p->skv; j++) {
            bool visible = !p->causal || j <= i + p->skv - p->s;
            double acc = 0;
            const char *kr = k + ((bb * p->hkv + kh) * p->skv + j) * p->d * (int64_t)es;
            for (int64_t t = 0; t < p->d; t++) acc += tkr_load_f(qr + t * (int64_t)es, p->q->dtype) * tkr_load_f(kr + t * (int64_t)es, p->k->dtype);
            acc *= p->scale;
            if (p->mask) {
                const tk_tensor *m = p->mask;
                int64_t mb = m->shape[0] == 1 ? 0 : bb, mh = m->shape[1] == 1 ? 0 : hh, mq = m->shape[2] == 1 ? 0 : i;
                acc += ((const float *)tkr_ptr(m))[((mb * m->shape[1] + mh) * m->shape[2] + mq) * p->skv + j];
            }
            scores[j] = visible ? acc : -INFINITY;
            if (scores[j] > mx) mx = scores[j];
        }
        double l = 0;
        for (int64_t j = 0; j < p->skv; j++) l += scores[j] = mx == -INFINITY ? 0 : exp(scores[j] - mx);
        char *orow = o + row * p->d * (int64_t)es;
        for (int64_t t = 0; t < p->d; t++) {
            double acc = 0;
            for (int64_t j = 0; j < p->skv; j++)
                acc += scores[j] * tkr_load_f(v + (((bb * p->hkv + kh) * p->skv + j) * p->d + t) * (int64_t)es, p->v->dtype);
            tkr_store_f(orow + t * (int64_t)es, p->o->dtype, l > 0 ? acc / l : 0.0);   /* no visible key: 0, as the kernels */
        }
    }
    free(heap);
}

/* ------------------------------------------------------------ KV cache */

/* The capacity SMAX of a KV-cache prefix view, or 0 if t is not one. A
 * prefix view is tk_slice(cache, 2, 0, L) of a contiguous [B, HKV, SMAX, D]
 * cache: strides [HKV·SMAX·D, SMAX·D, D, 1] (a size-1 dim's stride aside)
 * with SMAX > L, the cache's whole extent inside the storage — the _len
 * kernels load 256-key tiles and may touch rows past L up to SMAX (they
 * mask them). B = HKV = 1 gives 0: such a view is contiguous already. */
static int64_t cache_capacity(const tk_tensor *t)
{
    int64_t b = t->shape[0], hkv = t->shape[1], l = t->shape[2], d = t->shape[3];
    if (b < 1 || hkv < 1 || l < 1 || d < 1 || (d > 1 && t->strides[3] != 1) || t->strides[2] != d) return 0;
    int64_t head = hkv > 1 ? t->strides[1] : b > 1 ? t->strides[0] : 0;   /* SMAX·D */
    if (head <= l * d || head % d != 0) return 0;
    if (hkv > 1 && b > 1 && (head > INT64_MAX / hkv || t->strides[0] != hkv * head)) return 0;
    int64_t smax = head / d, es = (int64_t)tk_dtype_size(t->dtype);
    if (smax > INT32_MAX || head > INT64_MAX / es / hkv / b) return 0;   /* len and SMAX are i32 in the kernels */
    int64_t extent = (t->offset + b * hkv * head) * es;   /* bytes from the storage's start to the cache's end */
    if (t->offset < 0 || extent < 0 || (uint64_t)extent > t->storage->bytes) return 0;
    return smax;
}

/* A tensor's data as a kernel's [B, HKV, SMAX, D] argument: the whole cache. */
static tk_arg cache_arg(const tk_tensor *t, int64_t smax)
{
    tk_arg a = tkr_kernel_arg(t);
    a.shape[2] = smax;
    return a;
}

/* kernel_mask for a GPU context: the mask is turned into the kernels' f32
 * form on the host (a bool mask becomes 0 / -inf) and copied back, as the
 * GPU context's other conversions are staged (device_stage.c). */
static tk_status gpu_kernel_mask(tk_context *ctx, const tk_tensor *mask, int64_t b, int64_t h, int64_t sl, int64_t skv, tk_tensor **out)
{
    tk_tensor *hm = NULL, *hk = NULL;
    tk_status s = tk_tensor_to(ctx->host, mask, &hm);
    if (!s && (s = kernel_mask(ctx->host, hm, b, h, sl, skv, &hk))) s = tkr_error(ctx, s, "%s", tk_last_error(ctx->host));
    else if (s) s = tkr_error(ctx, s, "%s", tk_last_error(ctx->host));
    if (!s) s = tk_tensor_to(ctx, hk, out);
    tk_tensor_release(hm);
    tk_tensor_release(hk);
    return s;
}

/* ------------------------------------------------------------ kernels */

/* Any number of query rows, mask and causal. smax as in run_decode (below). */
static tk_status run_flash(tk_context *ctx, const tk_tensor *q, const tk_tensor *k, const tk_tensor *v, const tk_tensor *mask, tk_tensor *o,
                           float scale, bool causal, int64_t smax)
{
    const char *ty = q->dtype == TK_DTYPE_BF16 ? "bf16" : "f32";
    char name[64];
    snprintf(name, sizeof name, "attention_%s_d%d%s", ty, q->shape[3] <= 64 ? 64 : 128, smax ? "_len" : "");
    tk_kernel *kern;
    tk_status s = tkr_stdlib_kernel(ctx, "attention.tk", name, &kern);
    if (s) return s;
    tk_tensor *dummy = NULL;   /* without a mask the kernel never reads it: one element */
    if (!mask && (s = tkr_new(ctx, TK_DTYPE_F32, 4, (int64_t[]){ 1, 1, 1, 1 }, &dummy))) return s;
    uint8_t c = causal, um = mask != NULL;
    int32_t len = (int32_t)k->shape[2];
    tk_arg args[9] = { tkr_kernel_arg(q), smax ? cache_arg(k, smax) : tkr_kernel_arg(k), smax ? cache_arg(v, smax) : tkr_kernel_arg(v), tkr_kernel_arg(mask ? mask : dummy), tkr_kernel_arg(o),
                       TK_SCALAR(&scale), TK_SCALAR(&c), TK_SCALAR(&um), TK_SCALAR(&len) };
    s = tkr_launch(ctx, kern, NULL, args, smax ? 9 : 8);
    tk_tensor_release(dummy);
    return s;
}

/* One query row, no mask: split the keys into NS chunks so that every thread
 * has blocks, then combine (attention.md, "Choosing NS"). smax = 0: k and v
 * are contiguous [B, HKV, SKV, D]; else they are prefix views of caches of
 * capacity smax, read in place by the _len kernels (the live length, SKV,
 * decides NS, so the result is bit-identical to the call on copies). */
static tk_status run_decode(tk_context *ctx, const tk_tensor *q, const tk_tensor *k, const tk_tensor *v, tk_tensor *o, float scale,
                            int64_t smax)
{
    int64_t b = q->shape[0], h = q->shape[1], hkv = k->shape[1], skv = k->shape[2], d = q->shape[3];
    /* chunks of at least 256 keys, until there are 16 blocks' worth of work:
     * decided by the sizes alone (never the thread count), so the combine's
     * order and the result are the same on any number of threads */
    int64_t ns = 1;
    while (ns * b * hkv < 16 && (skv + ns) / (ns + 1) >= 256) ns++;
    const char *ty = q->dtype == TK_DTYPE_BF16 ? "bf16" : "f32";
    char name[64], comb[64];
    snprintf(name, sizeof name, "attention_decode_%s_d%d%s", ty, d <= 64 ? 64 : 128, smax ? "_len" : "");
    snprintf(comb, sizeof comb, "attention_decode_combine_%s", ty);
    tk_kernel *kd, *kc = NULL;
    tk_status s = tkr_stdlib_kernel(ctx, "attention_decode.tk", name, &kd);
    if (!s && ns > 1) s = tkr_stdlib_kernel(ctx, "attention_decode.tk", comb, &kc);
    if (s) return s;
    tk_tensor *po = NULL, *pml = NULL;
    if ((s = tkr_new(ctx, TK_DTYPE_F32, 3, (int64_t[]){ b * h, ns, d }, &po)) ||
        (s = tkr_new(ctx, TK_DTYPE_F32, 3, (int64_t[]){ b * h, ns, 2 }, &pml)))
        goto done;
    int32_t len = (int32_t)skv;
    tk_arg args[8] = { tkr_kernel_arg(q), smax ? cache_arg(k, smax) : tkr_kernel_arg(k), smax ? cache_arg(v, smax) : tkr_kernel_arg(v), tkr_kernel_arg(o), tkr_kernel_arg(po), tkr_kernel_arg(pml),
                       TK_SCALAR(&scale), TK_SCALAR(&len) };
    if ((s = tkr_launch(ctx, kd, NULL, args, smax ? 8 : 7))) goto done;
    if (kc) {
        tk_arg cargs[3] = { tkr_kernel_arg(po), tkr_kernel_arg(pml), tkr_kernel_arg(o) };
        s = tkr_launch(ctx, kc, NULL, cargs, 3);
    }
done:
    tk_tensor_release(po);
    tk_tensor_release(pml);
    return s;
}

tk_status tk_sdpa(tk_context *ctx, const tk_tensor *q, const tk_tensor *k, const tk_tensor *v, const tk_sdpa_opts *opts, tk_tensor **out)
{
    if (!ctx || !out) return TK_ERR_INVALID_ARGUMENT;
    *out = NULL;
    double t0 = ctx->profile ? tkr_now() : 0;
    tk_sdpa_opts o = opts ? *opts : (tk_sdpa_opts){ 0 };
    tk_status s;
    /* a GPU context runs the flash kernels (the decode ones have no GPU configuration yet) */
    bool gpu = !ctx->device->host_ops;
    tk_status (*check)(tk_context *, const char *, const char *, const tk_tensor *) = gpu ? tkr_check_device_arg : tkr_check_arg;
    if ((s = check(ctx, "tk_sdpa", "q", q)) || (s = check(ctx, "tk_sdpa", "k", k)) || (s = check(ctx, "tk_sdpa", "v", v)) ||
        (o.mask && (s = check(ctx, "tk_sdpa", "mask", o.mask))))
        return s;
    char sq[160], sk[160], sv[160];
    if (q->ndim != 4 || k->ndim != 4 || v->ndim != 4)
        return tkr_error(ctx, TK_ERR_SHAPE, "tk_sdpa: q %s, k %s, v %s must be [B, H, S, D], [B, HKV, SKV, D], [B, HKV, SKV, D]",
                         TKR_SHAPE(q, sq), TKR_SHAPE(k, sk), TKR_SHAPE(v, sv));
    int64_t b = q->shape[0], h = q->shape[1], sl = q->shape[2], d = q->shape[3], hkv = k->shape[1], skv = k->shape[2];
    if (k->shape[0] != b || v->shape[0] != b || k->shape[3] != d || v->shape[3] != d || v->shape[1] != hkv || v->shape[2] != skv)
        return tkr_error(ctx, TK_ERR_SHAPE, "tk_sdpa: q %s, k %s, v %s do not fit [B, H, S, D], [B, HKV, SKV, D], [B, HKV, SKV, D]",
                         TKR_SHAPE(q, sq), TKR_SHAPE(k, sk), TKR_SHAPE(v, sv));
    if (hkv == 0 || h % hkv != 0)
        return tkr_error(ctx, TK_ERR_SHAPE, "tk_sdpa: %lld query heads cannot share %lld KV heads (H must be a multiple of HKV)",
                         (long long)h, (long long)hkv);
    if (k->dtype != q->dtype || v->dtype != q->dtype)
        return tkr_error(ctx, TK_ERR_DTYPE, "tk_sdpa: q, k, v are %s, %s, %s (one float dtype)", tk_dtype_name(q->dtype),
                         tk_dtype_name(k->dtype), tk_dtype_name(v->dtype));
    if (!tk_dtype_is_float(q->dtype)) return tkr_error(ctx, TK_ERR_DTYPE, "tk_sdpa: q is %s, needs a float dtype", tk_dtype_name(q->dtype));
    double scale = o.has_scale ? o.scale : 1.0 / sqrt((double)(d > 0 ? d : 1));
    if (gpu && !((q->dtype == TK_DTYPE_F32 || q->dtype == TK_DTYPE_BF16) && d <= 128))
        return tkr_error(ctx, TK_ERR_UNSUPPORTED, "tk_sdpa: q is %s with D = %lld; on %s the kernels take f32 and bf16 with D <= 128",
                         tk_dtype_name(q->dtype), (long long)d, ctx->device->name);
    if ((s = tkr_new(ctx, q->dtype, 4, q->shape, out))) return s;
    tk_tensor *qc = NULL, *kc = NULL, *vc = NULL, *mc = NULL;
    if (tk_tensor_numel(*out) == 0) goto done;
    bool kernels = (q->dtype == TK_DTYPE_F32 || q->dtype == TK_DTYPE_BF16) && d <= 128 && skv > 0;
    /* k and v prefix views of KV caches of one capacity: the kernels read them in place */
    int64_t smax = kernels && skv <= INT32_MAX ? cache_capacity(k) : 0;
    if (smax && cache_capacity(v) != smax) smax = 0;
    bool decode = kernels && sl == 1 && !o.mask && !gpu;
    if ((s = tkr_contiguous(ctx, q, &qc))) goto done;
    if (smax) {
        kc = tk_tensor_retain((tk_tensor *)k);
        vc = tk_tensor_retain((tk_tensor *)v);
    } else if ((s = tkr_contiguous(ctx, k, &kc)) || (s = tkr_contiguous(ctx, v, &vc))) {
        goto done;
    }
    if (o.mask && (s = gpu ? gpu_kernel_mask(ctx, o.mask, b, h, sl, skv, &mc) : kernel_mask(ctx, o.mask, b, h, sl, skv, &mc))) goto done;
    if (decode) s = run_decode(ctx, qc, kc, vc, *out, (float)scale, smax);
    else if (kernels) s = run_flash(ctx, qc, kc, vc, mc, *out, (float)scale, o.causal, smax);
    else if (gpu) s = tk_fill_(ctx, *out, 0.0);   /* no keys (SKV = 0): every row sees none */
    else {
        Plain p = { qc, kc, vc, mc, *out, b, h, hkv, sl, skv, d, scale, o.causal };
        tkr_parallel_for(ctx, b * h * sl, 4, plain_rows, &p);
    }
done:
    tk_tensor_release(qc);
    tk_tensor_release(kc);
    tk_tensor_release(vc);
    tk_tensor_release(mc);
    if (s) {
        tk_tensor_release(*out);
        *out = NULL;
        return s;
    }
    if (ctx->profile) tkr_profile_record(ctx, "op", "tk_sdpa", tkr_now() - t0);
    return tkr_ok(ctx);
}
