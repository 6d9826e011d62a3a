/* conv.c — conv2d and conv1d (a conv2d with H = 1).
 *
 * f32 and bf16 convolutions the stdlib kernels cover (stdlib-kernels/conv2d.tk,
 * docs/stdlib/conv.md: dilation 1, one stride for both axes, groups 1 or
 * depthwise) run there: the kernels are NHWC with HWIO weights, so x is read
 * in place when it is channels-last (else copied to NHWC), the weight
 * transposed (once for a weight marked with tk_mark_weight, else per call),
 * and the NHWC result returned as a channels-last tensor when x is one or
 * the caller asks (else copied to NCHW). Image stems (C <= 4) take the stem
 * kernel, which reads x as image rows. A fused ReLU and clamp (relu6) are
 * the kernels' own scalars; the im2col-gemm path and the plain loop apply
 * them after (tkr_conv_activate), with the same values. The kernels pad the
 * top and left by one amount; unequal paddings pad x explicitly first.
 * f32 and bf16 convolutions outside the kernels (dilation, groups, two
 * strides) run as im2col + one gemm per group (the stdlib gemm kernels);
 * everything else (f16, f64, patch matrices past 128 MiB) runs a direct loop
 * accumulating in double, one output plane (n, oc) per task. Every path gives
 * the same bits on every thread count. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conv_common.h"
#include "kernel_arg.h"
#include "stdlib_kernels.h"
#include "tk/nn.h"
#include "tk/ops.h"
#include "tk/shape.h"

/* ------------------------------------------------------------ the plain loop */

typedef struct {
    const void *x, *w;   /* contiguous, of the work dtype (f32 or f64) */
    const double *bias;  /* [OC] or NULL */
    tk_tensor *y;
    int64_t n, c, h, wd, oc, kh, kw, oh, ow, groups;
    TkrConvParams p;
    atomic_bool oom;
} Plain;

/* The [lo, hi) of output columns whose tap at input offset `off` (ow·stride + off)
 * lands inside [0, size). */
static void tap_range(int64_t off, int64_t stride, int64_t size, int64_t out, int64_t *lo, int64_t *hi)
{
    *lo = off >= 0 ? 0 : (-off + stride - 1) / stride;
    *hi = size - 1 - off < 0 ? 0 : (size - 1 - off) / stride + 1;
    if (*hi > out) *hi = out;
    if (*lo > *hi) *lo = *hi;
}

/* One output row per (n, oc, oh): acc[ow] += w · x[ih, ow·sw + kw·dw − pw] over the valid columns of each tap. */
#define PLAIN_ROWS(T)                                                                                              \
    static void plain_rows_##T(const Plain *a, int64_t item, double *acc)                                          \
    {                                                                                                              \
        const T *x = a->x, *w = a->w;                                                                              \
        int64_t n = item / a->oc, oc = item % a->oc, cg = a->c / a->groups, g = oc / (a->oc / a->groups);         \
        size_t es = tk_dtype_size(a->y->dtype);                                                                    \
        char *y = tkr_ptr(a->y) + (int64_t)es * item * a->oh * a->ow;                                              \
        for (int64_t oh = 0; oh < a->oh; oh++) {                                                                   \
            double b = a->bias ? a->bias[oc] : 0.0;                                                                \
            for (int64_t i = 0; i < a->ow; i++) acc[i] = b;                                                        \
            for (int64_t cl = 0; cl < cg; cl++) {                                                                  \
                const T *xp = x + (n * a->c + g * cg + cl) * a->h * a->wd;                                         \
                const T *wk = w + (oc * cg + cl) * a->kh * a->kw;                                                  \
                for (int64_t kh = 0; kh < a->kh; kh++) {                                                           \
                    int64_t ih = oh * a->p.stride[0] - a->p.pad[0] + kh * a->p.dil[0];                             \
                    if (ih < 0 || ih >= a->h) continue;                                                            \
                    const T *xr = xp + ih * a->wd;                                                                 \
                    for (int64_t kw = 0; kw < a->kw; kw++) {                                                       \
                        int64_t off = kw * a->p.dil[1] - a->p.pad[1], lo, hi, sw = a->p.stride[1];                 \
                        tap_range(off, sw, a->wd, a->ow, &lo, &hi);                                                \
                        double wv = (double)wk[kh * a->kw + kw];                                                   \
                        const T *xs = xr + off;                                                                    \
                        if (sw == 1)                                                                               \
                            for (int64_t o = lo; o < hi; o++) acc[o] += wv * (double)xs[o];                        \
                        else                                                                                       \
                            for (int64_t o = lo; o < hi; o++) acc[o] += wv * (double)xs[o * sw];                   \
                    }                                                                                              \
                }                                                                                                  \
            }                                                                                                      \
            tkr_store_row_f(y + (int64_t)es * oh * a->ow, a->y->dtype, acc, a->ow);                                \
        }                                                                                                          \
    }
PLAIN_ROWS(float)
PLAIN_ROWS(double)

static void plain_planes(int64_t begin, int64_t end, void *arg)
{
    Plain *a = arg;
    double *acc = malloc((size_t)(a->ow ? a->ow : 1) * sizeof *acc);
    if (!acc) {
        atomic_store(&a->oom, true);
        return;
    }
    bool f64 = a->y->dtype == TK_DTYPE_F64;
    for (int64_t item = begin; item < end; item++) {
        if (f64) plain_rows_double(a, item, acc);
        else plain_rows_float(a, item, acc);
    }
    free(acc);
}

static tk_status plain_conv(tk_context *ctx, const char *op, const tk_tensor *x, const tk_tensor *w, const tk_tensor *bias,
                            const TkrConvParams *p, tk_tensor *y)
{
    tk_dtype work = x->dtype == TK_DTYPE_F64 ? TK_DTYPE_F64 : TK_DTYPE_F32;   /* f16, bf16 widen exactly to f32 */
    tk_tensor *xc = NULL, *wc = NULL, *bc = NULL;
    tk_status s;
    if ((s = tkr_contiguous_as(ctx, x, work, &xc)) || (s = tkr_contiguous_as(ctx, w, work, &wc)) ||
        (bias && (s = tkr_contiguous_as(ctx, bias, TK_DTYPE_F64, &bc))))
        goto done;
    Plain a = { tkr_ptr(xc), tkr_ptr(wc), bc ? (const double *)tkr_ptr(bc) : NULL, y,
                x->shape[0], x->shape[1], x->shape[2], x->shape[3], w->shape[0], w->shape[2], w->shape[3],
                y->shape[2], y->shape[3], p->groups, *p, false };
    int64_t items = a.n * a.oc, per = a.oh * a.ow * (a.c / a.groups) * a.kh * a.kw;
    tkr_parallel_for(ctx, items, per >= 65536 ? 1 : 65536 / (per ? per : 1), plain_planes, &a);
    if (atomic_load(&a.oom)) s = tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, "%s: no memory for a row of %lld accumulators", op, (long long)a.ow);
done:
    tk_tensor_release(xc);
    tk_tensor_release(wc);
    tk_tensor_release(bc);
    return s;
}

/* ------------------------------------------------------------ the stdlib kernels */

/* The dense kernel's block (conv.md, "which kernel"): PM pads N·OH·OW least, PN by OC.
 * All of them must be listed in runtime/core/stdlib_instances.txt. */
static void dense_config(int64_t pixels, int64_t oc, char *buf, size_t len)
{
    static const int pms[3] = { 128, 112, 64 };
    int pm = 128;
    int64_t best = -1;
    for (int i = 0; i < 3; i++) {
        int64_t waste = (pixels + pms[i] - 1) / pms[i] * pms[i] - pixels;
        if (best < 0 || waste < best) best = waste, pm = pms[i];
    }
    int pn = pixels <= 64 && oc >= 512 ? 256 : oc >= 128 ? 128 : 64;
    if (pm == 128 && pn == 64) buf[0] = '\0';   /* the default instance */
    else snprintf(buf, len, "<%d,%d>", pm, pn);
}

/* The 1×1 kernel's configuration (conv.md): KC1 = C in the fewest steps of <= 256 rounded up to 16,
 * TN = OC in the fewest blocks of <= 256 rounded up to 32 (16 for OC <= 16), TM by dtype (below).
 * runtime/core/stdlib_instances.txt lists those of the usual channel counts and
 * models (compiled into libtk); the others are JIT-compiled on first use. */
static void conv1x1_config(int64_t pixels, int64_t c, int64_t oc, bool f32, char *buf, size_t len)
{
    int64_t steps = (c + 255) / 256, kc = ((c + steps - 1) / steps + 15) / 16 * 16;
    /* TN: OC in the fewest column blocks of at most 256, each a multiple of 32
     * (the micro-kernel's width: a 16-wide tail ran 1.3x slower, 3136 x 24 -> 144
     * in 144 columns against 160), so that the last block is not mostly padding
     * (OC 320 in 256-wide blocks multiplied 512 columns: 49 x 960 -> 320 took
     * 0.37 ms, in 2 x 160 0.21); OC <= 16 in 16 (12544 x 32 -> 16: 0.34 ms in a
     * 32-wide block, 0.13 in 16; f32, tkc run, 1 thread, Xeon) */
    int64_t blocks = (oc + 255) / 256, tn = oc <= 16 ? 16 : ((oc + blocks - 1) / blocks + 31) / 32 * 32;
    int tm = 128;
    if (f32) {
        /* f32: the TM x TN accumulator within 16 KiB, at least 32 rows. It is
         * read and written at every K step and by the epilogue: 32 rows were the
         * fastest or within 5% on every MobileNetV2 1x1 layer, where the 112 or
         * 128 rows chosen for the least row padding cost up to 1.5x (196 x 64 ->
         * 384: 0.110 ms in 112 x 256, 0.074 in 32 x 128); 64 rows for OC = 64
         * (ResNet-50's 3136 x 64 -> 64: 0.158 ms, 0.188 in 112 rows) */
        while (tm > 32 && tm * tn > 4096) tm /= 2;
        /* one short K step (C <= 32): the product is too short to hide the
         * accumulator's traffic (112^2 x 32 -> 192: 2.55 ms in 128 rows, 1.94 in 32) */
        if (kc <= 32) tm = 32;
        if (pixels <= 64) tm = 64;   /* one row block (the 7 x 7 layers): 64 beat 32 with C >= 512 */
    } else {
        /* bf16 (AMX or dpbf16ps) gains from tall blocks: 112 / 128 rows were 1.1-1.7x
         * faster than 32 on ResNet-50's layers, so the fewest padded rows */
        static const int tms[4] = { 128, 112, 64, 32 };
        int64_t best = -1;
        for (int i = 0; i < 4; i++) {
            int64_t waste = (pixels + tms[i] - 1) / tms[i] * tms[i] - pixels;
            if (best < 0 || waste < best) best = waste, tm = tms[i];
        }
    }
    snprintf(buf, len, "<%d,%lld,%lld>", tm, (long long)tn, (long long)kc);
}

/* Can the kernels compute this convolution? (dtype, dilation, groups, one stride, i32 sizes) */
static bool kernel_applies(const tk_tensor *x, const tk_tensor *w, const TkrConvParams *p, int64_t oh, int64_t ow)
{
    if (x->dtype != TK_DTYPE_F32 && x->dtype != TK_DTYPE_BF16) return false;
    if (p->dil[0] != 1 || p->dil[1] != 1) return false;
    int64_t c = x->shape[1], oc = w->shape[0];
    bool depthwise = p->groups == c && oc == c && c > 1;
    if (p->groups != 1 && !depthwise) return false;
    /* one stride for both axes; a single output row or column does not use its axis' stride */
    if (p->stride[0] != p->stride[1] && oh != 1 && ow != 1) return false;
    int64_t xin = tk_tensor_numel(x), yout = x->shape[0] * oh * ow * oc;
    int64_t hp = x->shape[2] + 2 * p->pad[0], wp = x->shape[3] + 2 * p->pad[1];
    if (xin == 0 || yout == 0 || tk_tensor_numel(w) == 0) return false;
    return x->shape[0] * hp * wp * c < INT32_MAX && yout < INT32_MAX && tk_tensor_numel(w) < INT32_MAX;
}

/* The kernels' weight layouts, made contiguous (tkr_weight_form keeps them on a marked weight). */
static tk_status weight_layout(tk_context *ctx, const tk_tensor *w, const int *perm, tk_tensor **out)
{
    tk_tensor *v = NULL;
    tk_status s = tk_permute(ctx, w, perm, &v);
    if (!s) s = tk_contiguous(ctx, v, out);
    tk_tensor_release(v);
    return s;
}

static tk_status weight_hwio(tk_context *ctx, const tk_tensor *w, tk_tensor **out)
{
    return weight_layout(ctx, w, (const int[]){ 2, 3, 1, 0 }, out);
}

static tk_status weight_hwc(tk_context *ctx, const tk_tensor *w, tk_tensor **out)
{
    return weight_layout(ctx, w, (const int[]){ 2, 3, 0, 1 }, out);
}

/* ------------------------------------------------------------ im2col + gemm */

typedef struct {
    const char *x;            /* contiguous NCHW */
    char *patches;            /* [N·OH·OW, KH·KW·CG], (kh, kw, c) order: the HWIO weight's rows */
    int64_t c, h, w, oh, ow, kh, kw;
    int64_t c0, cg;           /* the group's channels: c0 .. c0 + cg − 1 */
    int64_t stride_h, stride_w, pad_h, pad_w, dil_h, dil_w;
    size_t es;
} Im2col;

/* One output row's patches, elements of type T (a copy: 4- or 2-byte words). */
#define IM2COL_ROWS(T)                                                                                               \
    static void im2col_rows_##T(const Im2col *a, int64_t r)                                                          \
    {                                                                                                                \
        int64_t k = a->kh * a->kw * a->cg, n = r / a->oh, oh = r % a->oh, plane = a->h * a->w;                       \
        const T *x = (const T *)a->x + (n * a->c + a->c0) * plane;                                                   \
        T *dst = (T *)a->patches + r * a->ow * k;                                                                    \
        for (int64_t ow = 0; ow < a->ow; ow++)                                                                       \
            for (int64_t i = 0; i < a->kh; i++) {                                                                    \
                int64_t y = oh * a->stride_h - a->pad_h + i * a->dil_h;                                              \
                for (int64_t j = 0; j < a->kw; j++) {                                                                \
                    int64_t xc = ow * a->stride_w - a->pad_w + j * a->dil_w;                                         \
                    if (y < 0 || y >= a->h || xc < 0 || xc >= a->w)                                                  \
                        for (int64_t ch = 0; ch < a->cg; ch++) *dst++ = 0;                                           \
                    else                                                                                             \
                        for (int64_t ch = 0; ch < a->cg; ch++) *dst++ = x[ch * plane + y * a->w + xc];               \
                }                                                                                                    \
            }                                                                                                        \
    }
IM2COL_ROWS(uint32_t)
IM2COL_ROWS(uint16_t)

static void im2col_rows(int64_t begin, int64_t end, void *arg)
{
    const Im2col *a = arg;
    for (int64_t r = begin; r < end; r++) {   /* r = n·OH + oh: one output row */
        if (a->es == 4) im2col_rows_uint32_t(a, r);
        else im2col_rows_uint16_t(a, r);
    }
}

/* Largest patch matrix the im2col path writes (elements, one group's): 128 MiB in f32. */
#define PATCHES_MAX ((int64_t)1 << 25)

/* Convolutions the direct kernels do not serve well or at all go to memory
 * as patches (K = KH·KW·C/groups values per output pixel) and one gemm per
 * group over all pixels (the stdlib gemm kernels, through tk_linear):
 * - an image stem (C = 1..4, e.g. RGB), where the direct kernel's channel
 *   blocks would be almost empty: ResNet's 7×7/2 stem ran 28 ms in it;
 * - what the kernels do not cover (f32 and bf16 only): dilation, groups
 *   other than 1 and depthwise (of at least 32 output channels each),
 *   different strides along H and W. These ran a direct loop in double
 *   before, one multiply-add at a time: a dilated 3×3 over 28×28×256 took
 *   212 ms that way and takes 10.5 (1 thread, Xeon). */
static bool patches_apply(const tk_tensor *x, const tk_tensor *w, const TkrConvParams *p, int64_t oh, int64_t ow, bool kernels)
{
    int64_t c = x->shape[1], cg = c / p->groups, k = cg * w->shape[2] * w->shape[3];
    size_t es = tk_dtype_size(x->dtype);
    int64_t pixels = x->shape[0] * oh * ow;
    if ((x->dtype != TK_DTYPE_F32 && x->dtype != TK_DTYPE_BF16) || pixels * k > PATCHES_MAX) return false;
    /* a group's gemm must be wide enough: ResNeXt's 32 groups of 4 → 4 channels
     * padded every gemm tile (20.5 ms against the plain loop's 5.5, 56×56×128) */
    if (!kernels) return pixels > 0 && k > 0 && w->shape[0] > 0 && (p->groups == 1 || w->shape[0] / p->groups >= 32);
    return p->groups == 1 && c <= 4 && k >= 16 && p->stride[0] == p->stride[1] && (es == 4 || es == 2);
}

static tk_status weight_hwio(tk_context *ctx, const tk_tensor *w, tk_tensor **out);

/* y [N, OH, OW, OC] (NHWC, contiguous) as the [N, OC, OH, OW] result: the
 * channels-last view of it when want_cl, else an NCHW copy. */
static tk_status nhwc_result(tk_context *ctx, const tk_tensor *y, bool want_cl, tk_tensor **out)
{
    tk_tensor *yt = NULL;
    tk_status s = tk_permute(ctx, y, (int[]){ 0, 3, 1, 2 }, &yt);
    if (s) return s;
    if (want_cl) *out = yt;
    else {
        s = tk_contiguous(ctx, yt, out);
        tk_tensor_release(yt);
    }
    return s;
}

/* Group g's product: its patches times its OC/groups columns of the HWIO
 * weight (viewed [K, OC]: the transposed view [OCg, K] is tk_linear's
 * weight), plus its bias, into y2 [pixels, OC] (its columns; y2 is the
 * product itself when there is one group). */
static tk_status patch_group(tk_context *ctx, const tk_tensor *patches, const tk_tensor *wn, const tk_tensor *bias, int64_t g,
                             int64_t groups, tk_tensor **y2)
{
    int64_t k = patches->shape[1], oc = wn->shape[3], ocg = oc / groups;
    tk_tensor *wk = NULL, *bg = NULL, *yg = NULL, *dst = NULL;
    tk_status s = tkr_view(ctx, wn, 2, (int64_t[]){ ocg, k }, (int64_t[]){ 1, oc }, wn->offset + g * ocg, &wk);
    if (!s && bias) s = tk_slice(ctx, bias, 0, g * ocg, (g + 1) * ocg, 1, &bg);
    if (!s && groups == 1) s = tk_linear(ctx, patches, wk, bg, y2);
    else if (!s && !(s = tk_linear(ctx, patches, wk, bg, &yg)) && !(s = tk_slice(ctx, *y2, 1, g * ocg, (g + 1) * ocg, 1, &dst)))
        s = tk_copy_(ctx, dst, yg);
    tk_tensor_release(wk);
    tk_tensor_release(bg);
    tk_tensor_release(yg);
    tk_tensor_release(dst);
    return s;
}

static tk_status patch_conv(tk_context *ctx, const tk_tensor *x, const tk_tensor *w, const tk_tensor *bias, const TkrConvParams *p,
                            int64_t oh, int64_t ow, bool want_cl, tk_tensor **out)
{
    int64_t n = x->shape[0], c = x->shape[1], oc = w->shape[0], kh = w->shape[2], kw = w->shape[3], groups = p->groups;
    int64_t cg = c / groups, k = kh * kw * cg, pixels = n * oh * ow;
    tk_tensor *xc = NULL, *patches = NULL, *wn = NULL, *y = NULL, *yv = NULL;
    tk_status s;
    if ((s = tkr_contiguous(ctx, x, &xc)) || (s = tkr_new(ctx, x->dtype, 2, (int64_t[]){ pixels, k }, &patches))) goto done;
    /* HWIO [KH, KW, C/groups, OC] is [K, OC] row-major */
    if ((s = tkr_weight_form(ctx, w, TKR_FORM_CONV_HWIO, weight_hwio, &wn))) goto done;
    if (groups > 1 && (s = tkr_new(ctx, x->dtype, 2, (int64_t[]){ pixels, oc }, &y))) goto done;
    for (int64_t g = 0; g < groups && !s; g++) {
        Im2col a = { tkr_ptr(xc), tkr_ptr(patches), c, x->shape[2], x->shape[3], oh, ow, kh, kw, g * cg, cg,
                     p->stride[0], p->stride[1], p->pad[0], p->pad[1], p->dil[0], p->dil[1], tk_dtype_size(x->dtype) };
        tkr_parallel_for(ctx, n * oh, 4, im2col_rows, &a);
        s = patch_group(ctx, patches, wn, bias, g, groups, &y);
    }
    if (s || (s = tkr_conv_activate(ctx, p, y)) ||
        (s = tkr_view(ctx, y, 4, (int64_t[]){ n, oh, ow, oc }, (int64_t[]){ oh * ow * oc, ow * oc, oc, 1 }, y->offset, &yv)))
        goto done;
    s = nhwc_result(ctx, yv, want_cl, out);
done:
    tk_tensor_release(xc);
    tk_tensor_release(patches);
    tk_tensor_release(wn);
    tk_tensor_release(y);
    tk_tensor_release(yv);
    return s;
}

/* Channels per block of the depthwise kernels: one that divides C, so that no
 * pixel's channel load crosses the end of its channels (a masked edge copy,
 * about 10x slower); 16 when none does (then only the last block is masked). */
static int dw_channel_block(int64_t c)
{
    static const int blocks[] = { 64, 48, 32, 16 };
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++)
        if (c % blocks[i] == 0) return blocks[i];
    return 16;
}

/* The image-stem kernel (conv2d_stem_nhwc_*: few channels, X read as image
 * rows): one window row of KW·C <= 32 elements is cut from three 16-wide loads,
 * and the whole window is one reduction of at most 160 columns. It serves both
 * usual RGB stems faster than im2col + gemm did (1 thread, Xeon, in tkrun:
 * MobileNetV2's 3×3/2 0.95 -> ~0.55 ms, ResNet's 7×7/2 kernel alone 2.1 ms
 * against the gemm's 2.5 plus the im2col). */
static bool stem_applies(const tk_tensor *x, const tk_tensor *w, const TkrConvParams *p)
{
    int64_t c = x->shape[1], kh = w->shape[2], kw = w->shape[3];
    return p->groups == 1 && c <= 4 && kw * c <= 32 && kh <= 7 && kh * kw * c <= 160 && kh * kw * c >= 4 &&
           p->stride[0] == p->stride[1];
}

/* conv2d_stem_nhwc_*'s configuration: the layer's window exactly (its packed
 * path), K = KH·KW·C rounded up to 16, 32 output channels per block when
 * OC <= 32, else 64, 128 output pixels per block (bench/ours.py stem_config
 * says the same). */
static void stem_config(int64_t c, int64_t kh, int64_t kw, int64_t oc, char *buf, size_t len)
{
    snprintf(buf, len, "<%lld,%lld,%lld,%d,128>", (long long)(kw * c), (long long)kh, (long long)((kh * kw * c + 15) / 16 * 16),
             oc <= 32 ? 32 : 64);
}

static tk_status kernel_conv(tk_context *ctx, const tk_tensor *x, const tk_tensor *w, const tk_tensor *bias, const TkrConvParams *p,
                             int64_t oh, int64_t ow, bool want_cl, tk_tensor **out)
{
    bool stem = stem_applies(x, w, p);
    if (!stem && patches_apply(x, w, p, oh, ow, true)) return patch_conv(ctx, x, w, bias, p, oh, ow, want_cl, out);
    bool bf = x->dtype == TK_DTYPE_BF16;
    int64_t n = x->shape[0], c = x->shape[1], oc = w->shape[0], kh = w->shape[2], kw = w->shape[3];
    bool depthwise = p->groups != 1;
    int32_t stride = (int32_t)(oh == 1 ? p->stride[1] : p->stride[0]), pad = (int32_t)p->pad[0];
    tk_tensor *xp = NULL, *xt = NULL, *xn = NULL, *wn = NULL, *bn = NULL, *yn = NULL;
    tk_status s;
    if (p->pad[0] != p->pad[1]) {   /* the kernel pads top and left by one amount: pad x instead */
        int64_t pads[4] = { p->pad[1], p->pad[1], p->pad[0], p->pad[0] };
        if ((s = tk_pad(ctx, x, pads, 4, TK_PAD_CONSTANT, 0.0, &xp))) goto done;
        pad = 0;
    }
    if ((s = tk_permute(ctx, xp ? xp : x, (int[]){ 0, 2, 3, 1 }, &xt)) || (s = tk_contiguous(ctx, xt, &xn))) goto done;
    /* dense OIHW → HWIO; depthwise [C, 1, KH, KW] → [KH, KW, C, 1], the kernel's [KH, KW, C]; kept on a marked weight */
    if ((s = tkr_weight_form(ctx, w, depthwise ? TKR_FORM_CONV_HWC : TKR_FORM_CONV_HWIO, depthwise ? weight_hwc : weight_hwio, &wn)))
        goto done;
    if (bias) s = tk_to_dtype(ctx, bias, TK_DTYPE_F32, &bn);
    else s = tk_zeros(ctx, TK_DTYPE_F32, 1, &oc, &bn);
    if (s || (s = tkr_new(ctx, x->dtype, 4, (int64_t[]){ n, oh, ow, oc }, &yn))) goto done;

    const char *ty = bf ? "bf16" : "f32";
    char name[96], cfg[48];
    tk_kernel *k;
    /* the activation, every kernel's last four scalars: use_relu, use_clamp, lo, hi */
    bool relu = p->relu, clamp = p->clamp;
    float lo = p->clamp_min, hi = p->clamp_max;
    tk_arg xa = tkr_kernel_arg(xn), wa = tkr_kernel_arg(wn), ba = tkr_kernel_arg(bn), ya = tkr_kernel_arg(yn);
    if (depthwise) {
        snprintf(name, sizeof name, "conv2d_dw_nhwc_%s<%d>", ty, dw_channel_block(c));
        wa.rank = 3;
        if ((s = tkr_stdlib_kernel(ctx, "conv2d.tk", name, &k))) goto done;
        tk_arg args[10] = { xa, wa, ba, ya, TK_SCALAR(&stride), TK_SCALAR(&pad), TK_SCALAR(&relu), TK_SCALAR(&clamp),
                            TK_SCALAR(&lo), TK_SCALAR(&hi) };
        s = tkr_launch(ctx, k, NULL, args, 10);
    } else if (stem) {
        /* X [N, H, W, C] as image rows [N, H, W·C], HWIO as [KH·KW·C, OC]; C and KH as scalars */
        stem_config(c, kh, kw, oc, cfg, sizeof cfg);
        snprintf(name, sizeof name, "conv2d_stem_nhwc_%s%s", ty, cfg);
        if ((s = tkr_stdlib_kernel(ctx, "conv2d.tk", name, &k))) goto done;
        int32_t c32 = (int32_t)c, kh32 = (int32_t)kh;
        tk_arg args[12] = { TK_TENSOR3(xa.data, xn->shape[0], xn->shape[1], xn->shape[2] * c), TK_TENSOR2(wa.data, kh * kw * c, oc),
                            ba, ya, TK_SCALAR(&c32), TK_SCALAR(&kh32), TK_SCALAR(&stride), TK_SCALAR(&pad), TK_SCALAR(&relu),
                            TK_SCALAR(&clamp), TK_SCALAR(&lo), TK_SCALAR(&hi) };
        s = tkr_launch(ctx, k, NULL, args, 12);
    } else if (kh == 1 && kw == 1 && stride == 1 && pad == 0 && xn->shape[1] == oh && xn->shape[2] == ow) {
        /* 1×1 without stride or padding: one gemm over the pixels, views of the same memory */
        int64_t pixels = n * oh * ow;
        conv1x1_config(pixels, c, oc, !bf, cfg, sizeof cfg);
        snprintf(name, sizeof name, "conv2d_1x1_nhwc_%s%s", ty, cfg);
        if ((s = tkr_stdlib_kernel(ctx, "conv2d.tk", name, &k))) goto done;
        tk_arg args[8] = { TK_TENSOR2(xa.data, pixels, c), TK_TENSOR2(wa.data, c, oc), ba, TK_TENSOR2(ya.data, pixels, oc),
                           TK_SCALAR(&relu), TK_SCALAR(&clamp), TK_SCALAR(&lo), TK_SCALAR(&hi) };
        s = tkr_launch(ctx, k, NULL, args, 8);
    } else {
        dense_config(n * oh * ow, oc, cfg, sizeof cfg);
        snprintf(name, sizeof name, "conv2d_nhwc_%s%s", ty, cfg);
        if ((s = tkr_stdlib_kernel(ctx, "conv2d.tk", name, &k))) goto done;
        tk_arg args[10] = { xa, wa, ba, ya, TK_SCALAR(&stride), TK_SCALAR(&pad), TK_SCALAR(&relu), TK_SCALAR(&clamp),
                            TK_SCALAR(&lo), TK_SCALAR(&hi) };
        s = tkr_launch(ctx, k, NULL, args, 10);
    }
    if (!s) s = nhwc_result(ctx, yn, want_cl, out);
done:
    tk_tensor_release(xp);
    tk_tensor_release(xt);
    tk_tensor_release(xn);
    tk_tensor_release(wn);
    tk_tensor_release(bn);
    tk_tensor_release(yn);
    return s;
}

/* ------------------------------------------------------------ the ops */

/* x [N, C, H, W], w [OC, C/groups, KH, KW] (checked as 4-d of one dtype): checks
 * the channel counts and sizes, then computes out [N, OC, OH, OW]. op names the
 * caller, shapes_x / shapes_w are the caller's own shapes for the messages. */
static tk_status conv2d_run(tk_context *ctx, const char *op, const tk_tensor *x, const tk_tensor *w, const tk_tensor *bias,
                            const TkrConvParams *p, const char *sx, const char *sw, tk_tensor **out)
{
    int64_t n = x->shape[0], c = x->shape[1], oc = w->shape[0], g = p->groups;
    if (c % g != 0 || oc % g != 0)
        return tkr_error(ctx, TK_ERR_SHAPE, "%s: groups %lld must divide the input channels of x %s and the output channels of weight %s", op,
                         (long long)g, sx, sw);
    if (w->shape[1] != c / g)
        return tkr_error(ctx, TK_ERR_SHAPE, "%s: weight %s must have C/groups = %lld input channels (x %s, groups %lld)", op, sw,
                         (long long)(c / g), sx, (long long)g);
    if (bias && bias->shape[0] != oc) {
        char sb[160];
        return tkr_error(ctx, TK_ERR_SHAPE, "%s: bias %s must be [%lld], the output channels of weight %s", op, TKR_SHAPE(bias, sb),
                         (long long)oc, sw);
    }
    int64_t size[2];
    for (int i = 0; i < 2; i++) {
        int64_t in = x->shape[2 + i] + 2 * p->pad[i], k = p->dil[i] * (w->shape[2 + i] - 1) + 1;
        if (k > in)
            return tkr_error(ctx, TK_ERR_SHAPE, "%s: kernel %s (dilated size %lld) is larger than the padded input x %s (%lld with padding)",
                             op, sw, (long long)k, sx, (long long)in);
        size[i] = (in - k) / p->stride[i] + 1;
    }
    /* PyTorch's rule: a channels-last x gives a channels-last result (a 4-d tensor that is both is NCHW) */
    bool want_cl = p->channels_last || (tk_tensor_is_channels_last(x) && !tk_tensor_is_contiguous(x));
    if (kernel_applies(x, w, p, size[0], size[1])) return kernel_conv(ctx, x, w, bias, p, size[0], size[1], want_cl, out);
    if (patches_apply(x, w, p, size[0], size[1], false)) return patch_conv(ctx, x, w, bias, p, size[0], size[1], want_cl, out);
    tk_status s = tkr_new(ctx, x->dtype, 4, (int64_t[]){ n, oc, size[0], size[1] }, out);
    if (!s && tk_tensor_numel(*out) > 0) s = plain_conv(ctx, op, x, w, bias, p, *out);
    if (!s) s = tkr_conv_epilogue(ctx, p, want_cl, out);
    return s;
}

tk_status tk_conv2d(tk_context *ctx, const tk_tensor *x, const tk_tensor *w, const tk_tensor *bias, const tk_conv_opts *opts,
                    tk_tensor **out)
{
    const char *op = "tk_conv2d";
    if (!ctx || !out) return TK_ERR_INVALID_ARGUMENT;
    *out = NULL;
    double t0 = ctx->profile ? tkr_now() : 0;
    TkrConvParams p;
    tk_status s = tkr_conv_check_tensors(ctx, op, 2, x, w, bias);
    if (s || (s = tkr_conv_params(ctx, op, opts, 2, false, &p))) return s;
    char sx[160], sw[160];
    s = conv2d_run(ctx, op, x, w, bias, &p, TKR_SHAPE(x, sx), TKR_SHAPE(w, sw), out);
    return tkr_conv_finish(ctx, op, t0, s, out);
}

tk_status tk_conv1d(tk_context *ctx, const tk_tensor *x, const tk_tensor *w, const tk_tensor *bias, const tk_conv_opts *opts,
                    tk_tensor **out)
{
    const char *op = "tk_conv1d";
    if (!ctx || !out) return TK_ERR_INVALID_ARGUMENT;
    *out = NULL;
    double t0 = ctx->profile ? tkr_now() : 0;
    TkrConvParams p;
    tk_status s = tkr_conv_check_tensors(ctx, op, 1, x, w, bias);
    if (s || (s = tkr_conv_params(ctx, op, opts, 1, false, &p))) return s;
    p.channels_last = false;   /* a 3-d result is row-major */
    /* [N, C, L] as [N, C, 1, L] and [OC, Cg, K] as [OC, Cg, 1, K]: views, no copies */
    tk_tensor *x4 = NULL, *w4 = NULL, *y4 = NULL;
    char sx[160], sw[160];
    TKR_SHAPE(x, sx);
    TKR_SHAPE(w, sw);
    if (!(s = tk_unsqueeze(ctx, x, 2, &x4)) && !(s = tk_unsqueeze(ctx, w, 2, &w4)) &&
        !(s = conv2d_run(ctx, op, x4, w4, bias, &p, sx, sw, &y4)))
        s = tk_squeeze(ctx, y4, 2, out);
    tk_tensor_release(x4);
    tk_tensor_release(w4);
    tk_tensor_release(y4);
    return tkr_conv_finish(ctx, op, t0, s, out);
}
