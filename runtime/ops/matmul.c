/* matmul.c — matmul, bmm and linear on the stdlib gemm kernels
 * (docs/stdlib/gemm.md). The shapes are PyTorch's; this file reduces each
 * call to row-major 2-D or batched 3-D products without copying where the
 * operands allow:
 *   - leading dims of A fold into M when B is 2-D and A is contiguous;
 *   - a B that is the transpose of a contiguous matrix (w.T, a permuted view)
 *     runs the "nt" kernels, which read it as [N, K] in place;
 *   - a weight marked constant (tk_mark_weight) is packed once into the
 *     micro-kernel's layout and read in place by the packed kernels.
 * f32 and bf16 run on the kernels (bf16 accumulates in f32 and is rounded
 * once); f16, f64 and integer products run a plain loop (f64 and i64
 * accumulators), which is what they are for here: correctness. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "gpu_nn.h"
#include "internal.h"
#include "kernel_arg.h"
#include "matmul_internal.h"
#include "stdlib_kernels.h"
#include "tk/nn.h"
#include "tk/ops.h"
#include "tk/shape.h"

/* The tile configurations the unpacked kernels are instantiated with
 * (gemm.md, "what a runtime should pick"), first match wins. Every one of
 * every kernel named with them must be listed in
 * runtime/core/stdlib_instances.txt (compiled into libtk; else JIT on first use). */
typedef struct {
    int64_t max_m, max_n, max_k;   /* applies when m, n, k are at most these */
    int bm, bn, kc;
    const char *name;
} GemmConfig;
static const GemmConfig configs[] = {
    /* one row block: the narrowest tiles that cover N and K (a small attention's
     * 10×16 by 16×10 products took 0.3 ms each in 16×256 tiles with K padded to 256) */
    { 16, 32, 32, 16, 32, 32, "<16,32,32>" },
    { 16, 64, 64, 16, 64, 64, "<16,64,64>" },
    { 16, INT64_MAX, INT64_MAX, 16, 256, 256, "<16,256,256>" },
    { 32, 32, 32, 32, 32, 32, "<32,32,32>" },
    { 256, 256, 256, 64, 64, 64, "<64,64,64>" },
    /* many rows, at most 32 columns and K ≤ 32 (MobileNetV2's 3×3 RGB stem as im2col:
     * 12544 × 32 × 27 took 2.1 ms in 256×64×160 tiles, 0.42 ms in these; tkc run, 1 thread) */
    { INT64_MAX, 32, 32, 64, 32, 32, "<64,32,32>" },
    /* many rows, few columns and a short K (an image stem's im2col gemm: 12544 × 64 × 147):
     * the default 256-wide tiles would be three quarters empty */
    { INT64_MAX, 64, 160, 256, 64, 160, "<256,64,160>" },
    { INT64_MAX, INT64_MAX, INT64_MAX, 256, 256, 256, "" },   /* the default instance */
};

static const GemmConfig *config_of(int64_t m, int64_t n, int64_t k)
{
    const GemmConfig *c = configs;
    while (m > c->max_m || n > c->max_n || k > c->max_k) c++;
    return c;
}

static const char *config(int64_t m, int64_t n, int64_t k) { return config_of(m, n, k)->name; }

/* Is t [R, C] laid out as the transpose of a contiguous [C, R] matrix? */
static bool is_transposed_contiguous(const tk_tensor *t)
{
    return t->ndim == 2 && t->strides[0] == 1 && (t->strides[1] == t->shape[0] || t->shape[1] == 1);
}

#define TKR_PACK 256   /* gemm.tk's plane: PK = PN = 256 */

static double padded(int64_t n, int64_t tile) { return (double)((n + tile - 1) / tile * tile); }

/* Do the packed kernels suit an m-row product with an N×K weight? Their
 * planes are 256×256: a small weight padded to them (an encoder's 64×64
 * projection: 16× the work) runs faster in the unpacked kernels' smaller
 * tiles. Packing pays unless the unpacked tiles pad N·K less than half as much. */
static bool packing_pays(int64_t m, int64_t n, int64_t k)
{
    const GemmConfig *c = config_of(m, n, k);
    return padded(n, TKR_PACK) * padded(k, TKR_PACK) <= 2.0 * padded(n, c->bn) * padded(k, c->kc);
}

/* A[M,K] (contiguous) times B[K,N] (contiguous, or the transpose of a
 * contiguous [N,K] when b_t) into C[M,N], all of dtype f32 or bf16 in, C of
 * the same dtype. bias[N] f32 may be NULL; act and R[M,N] (C's dtype, NULL:
 * none) are the epilogue kernels' C = act(A·B + bias) + R. */
static tk_status kernel_gemm_ep(tk_context *ctx, const tk_tensor *A, const tk_tensor *B, bool b_t, const tk_tensor *bias, TkrGemmAct act,
                                const tk_tensor *R, tk_tensor *C)
{
    int64_t m = A->shape[0], k = A->shape[1], n = C->shape[1];
    const char *ty = A->dtype == TK_DTYPE_BF16 ? "bf16" : "f32";
    bool ep = bias || act || R || A->dtype == TK_DTYPE_BF16;   /* bf16 out needs the _ep_bf16 kernels' rounding store */
    char name[96];
    snprintf(name, sizeof name, "gemm_%s%s%s%s", ty, b_t ? "_nt" : "", ep ? (A->dtype == TK_DTYPE_BF16 ? "_ep_bf16" : "_ep") : "",
             config(m, n, k));
    tk_kernel *kern;
    tk_status s = tkr_stdlib_kernel(ctx, "gemm.tk", name, &kern);
    if (s) return s;
    /* B as the kernel sees it: [K, N] row-major, or [N, K] row-major for nt */
    tk_arg b = { tkr_ptr(B), { b_t ? n : k, b_t ? k : n, 0, 0 }, 2 };
    double est = tkr_est_flops_ns(2.0 * (double)m * (double)n * (double)k);
    if (!ep) {
        tk_arg args[3] = { tkr_kernel_arg(A), b, tkr_kernel_arg(C) };
        return tkr_launch_est(ctx, kern, NULL, args, 3, est);
    }
    /* epilogue kernels: bias[N] f32, R[M,N] (off: C itself), C, act, use_bias, use_residual */
    tk_tensor *zero_bias = NULL;
    if (!bias && (s = tkr_new(ctx, TK_DTYPE_F32, 1, &n, &zero_bias))) return s;
    int32_t act32 = (int32_t)act;
    uint8_t use_bias = bias != NULL, use_res = R != NULL;
    tk_arg args[8] = { tkr_kernel_arg(A), b, tkr_kernel_arg(bias ? bias : zero_bias), tkr_kernel_arg(R ? R : C), tkr_kernel_arg(C), TK_SCALAR(&act32), TK_SCALAR(&use_bias),
                       TK_SCALAR(&use_res) };
    s = tkr_launch_est(ctx, kern, NULL, args, 8, est);
    tk_tensor_release(zero_bias);
    return s;
}

static tk_status kernel_gemm(tk_context *ctx, const tk_tensor *A, const tk_tensor *B, bool b_t, const tk_tensor *bias, tk_tensor *C)
{
    return kernel_gemm_ep(ctx, A, B, b_t, bias, TKR_GEMM_ACT_NONE, NULL, C);
}

/* Batched: A[BT,M,K], B[BT,K,N] (both contiguous) into C[BT,M,N]. */
static tk_status kernel_bmm(tk_context *ctx, const tk_tensor *A, const tk_tensor *B, tk_tensor *C)
{
    int64_t m = A->shape[1], k = A->shape[2], n = B->shape[2];
    bool bf = A->dtype == TK_DTYPE_BF16;
    char name[96];
    snprintf(name, sizeof name, "gemm_%s_batched%s", bf ? "bf16" : "f32", config(m, n, k));
    tk_kernel *kern;
    tk_status s = tkr_stdlib_kernel(ctx, "gemm.tk", name, &kern);
    if (s) return s;
    tk_tensor *acc = NULL;   /* the batched kernels write f32 */
    if (bf && (s = tkr_new(ctx, TK_DTYPE_F32, 3, C->shape, &acc))) return s;
    tk_arg args[3] = { tkr_kernel_arg(A), tkr_kernel_arg(B), tkr_kernel_arg(acc ? acc : C) };
    s = tkr_launch_est(ctx, kern, NULL, args, 3, tkr_est_flops_ns(2.0 * (double)A->shape[0] * (double)m * (double)n * (double)k));
    if (!s && acc) s = tk_copy_(ctx, C, acc);
    tk_tensor_release(acc);
    return s;
}

/* ------------------------------------------------------------ plain loops */

typedef struct {
    const tk_tensor *a, *b;
    tk_tensor *c;
    int64_t m, n, k;
} Plain;

/* Rows [begin, end) of every batch (flattened): c[r, j] = Σ a[r, p] b[p, j]. */
static void plain_rows(int64_t begin, int64_t end, void *arg)
{
    const Plain *p = arg;
    const tk_tensor *a = p->a, *b = p->b;
    tk_tensor *c = p->c;
    size_t ea = tk_dtype_size(a->dtype), ec = tk_dtype_size(c->dtype);
    bool isf = tk_dtype_is_float(c->dtype);
    for (int64_t row = begin; row < end; row++) {
        int64_t bt = row / p->m, i = row % p->m;
        const char *ar = (const char *)tkr_ptr(a) + (bt * p->m * p->k + i * p->k) * (int64_t)ea;
        const char *bb = (const char *)tkr_ptr(b) + bt * p->k * p->n * (int64_t)ea;
        char *cr = (char *)tkr_ptr(c) + (bt * p->m * p->n + i * p->n) * (int64_t)ec;
        for (int64_t j = 0; j < p->n; j++) {
            if (isf) {
                double acc = 0;
                for (int64_t q = 0; q < p->k; q++)
                    acc += tkr_load_f(ar + q * (int64_t)ea, a->dtype) * tkr_load_f(bb + (q * p->n + j) * (int64_t)ea, b->dtype);
                tkr_store_f(cr + j * (int64_t)ec, c->dtype, acc);
            } else {
                uint64_t acc = 0;   /* wraps like PyTorch's integer products */
                for (int64_t q = 0; q < p->k; q++)
                    acc += (uint64_t)tkr_load_i(ar + q * (int64_t)ea, a->dtype) *
                           (uint64_t)tkr_load_i(bb + (q * p->n + j) * (int64_t)ea, b->dtype);
                tkr_store_i(cr + j * (int64_t)ec, c->dtype, (int64_t)acc);
            }
        }
    }
}

/* ------------------------------------------------------------ matmul */

static tk_status check_pair(tk_context *ctx, const char *op, const tk_tensor *a, const tk_tensor *b)
{
    tk_status s;
    if ((s = tkr_check_arg(ctx, op, "a", a)) || (s = tkr_check_arg(ctx, op, "b", b))) return s;
    if (a->dtype != b->dtype)
        return tkr_error(ctx, TK_ERR_DTYPE, "%s: a is %s and b is %s (convert one with tk_to_dtype)", op, tk_dtype_name(a->dtype),
                         tk_dtype_name(b->dtype));
    if (a->dtype == TK_DTYPE_BOOL) return tkr_error(ctx, TK_ERR_DTYPE, "%s: bool tensors cannot be multiplied", op);
    return tkr_lowp_no_arith(ctx, op, a->dtype);
}

/* a[BT..., M, K] · b[BT..., K, N] with a, b at least 2-D and batch dims
 * broadcast; out has the broadcast batch dims. */
static tk_status packed_gemm(tk_context *ctx, const tk_tensor *A, const tk_tensor *P, const tk_tensor *bias, tk_tensor *o);

static tk_status matmul_nd(tk_context *ctx, const char *op, const tk_tensor *a, const tk_tensor *b, tk_tensor **out)
{
    char sa[160], sb[160];
    int64_t m = a->shape[a->ndim - 2], k = a->shape[a->ndim - 1], kb = b->shape[b->ndim - 2], n = b->shape[b->ndim - 1];
    if (k != kb)
        return tkr_error(ctx, TK_ERR_SHAPE, "%s: shapes %s and %s cannot be multiplied (%lld columns vs %lld rows)", op, TKR_SHAPE(a, sa),
                         TKR_SHAPE(b, sb), (long long)k, (long long)kb);
    int bnd;
    int64_t bshape[TK_MAX_DIMS];
    tk_status s = tkr_broadcast_shape(ctx, op, a->ndim - 2, a->shape, b->ndim - 2, b->shape, &bnd, bshape);
    if (s) return s;
    int64_t oshape[TK_MAX_DIMS];
    memcpy(oshape, bshape, (size_t)bnd * sizeof *oshape);
    oshape[bnd] = m;
    oshape[bnd + 1] = n;
    if ((s = tkr_new(ctx, a->dtype, bnd + 2, oshape, out))) return s;
    tk_tensor *o = *out;
    int64_t batch = tkr_numel(bnd, bshape);
    if (tk_tensor_numel(o) == 0) return TK_OK;
    if (k == 0) return tk_fill_(ctx, o, 0.0);
    bool kernels = a->dtype == TK_DTYPE_F32 || a->dtype == TK_DTYPE_BF16;

    tk_tensor *ac = NULL, *bc = NULL, *ax = NULL, *bx = NULL;
    /* b 2-D (not batched): fold a's batch dims into M — one product */
    if (kernels && b->ndim == 2 && tk_tensor_is_contiguous(a)) {
        int64_t mm = batch * m;
        tk_tensor *a2 = NULL, *o2 = NULL;
        s = tkr_view(ctx, a, 2, (int64_t[]){ mm, k }, (int64_t[]){ k, 1 }, a->offset, &a2);
        if (!s) s = tkr_view(ctx, o, 2, (int64_t[]){ mm, n }, (int64_t[]){ n, 1 }, 0, &o2);
        bool bt = !tk_tensor_is_contiguous(b) && is_transposed_contiguous(b);
        tk_tensor *packed = NULL;   /* a marked constant B (a model's weight): packed once, kept on its handle */
        if (!s && b->weight && packing_pays(mm, n, b->shape[0])) s = tkr_weight_form(ctx, b, TKR_FORM_MATMUL_PACKED, tkr_matmul_pack_b, &packed);
        if (!s && packed) s = packed_gemm(ctx, a2, packed, NULL, o2);
        else if (!s && !bt && !tk_tensor_is_contiguous(b)) s = tkr_contiguous(ctx, b, &bc);
        if (!s && !packed) s = kernel_gemm(ctx, a2, bc ? bc : b, bt, NULL, o2);
        tk_tensor_release(packed);
        tk_tensor_release(a2);
        tk_tensor_release(o2);
        tk_tensor_release(bc);
        return s;
    }
    /* otherwise expand both to [batch, M, K] / [batch, K, N] contiguous */
    int64_t ash[TK_MAX_DIMS], bsh[TK_MAX_DIMS];
    memcpy(ash, bshape, (size_t)bnd * sizeof *ash);
    memcpy(bsh, bshape, (size_t)bnd * sizeof *bsh);
    ash[bnd] = m, ash[bnd + 1] = k;
    bsh[bnd] = k, bsh[bnd + 1] = n;
    if (!(s = tk_expand(ctx, a, bnd + 2, ash, &ax)) && !(s = tk_expand(ctx, b, bnd + 2, bsh, &bx)) &&
        !(s = tkr_contiguous(ctx, ax, &ac)) && !(s = tkr_contiguous(ctx, bx, &bc))) {
        if (kernels) {
            tk_tensor *a3, *b3, *o3;
            tkr_view(ctx, ac, 3, (int64_t[]){ batch, m, k }, (int64_t[]){ m * k, k, 1 }, ac->offset, &a3);
            tkr_view(ctx, bc, 3, (int64_t[]){ batch, k, n }, (int64_t[]){ k * n, n, 1 }, bc->offset, &b3);
            tkr_view(ctx, o, 3, (int64_t[]){ batch, m, n }, (int64_t[]){ m * n, n, 1 }, 0, &o3);
            s = kernel_bmm(ctx, a3, b3, o3);
            tk_tensor_release(a3);
            tk_tensor_release(b3);
            tk_tensor_release(o3);
        } else {
            Plain p = { ac, bc, o, m, n, k };
            tkr_parallel_for(ctx, batch * m, 16, plain_rows, &p);
        }
    }
    tk_tensor_release(ax);
    tk_tensor_release(bx);
    tk_tensor_release(ac);
    tk_tensor_release(bc);
    if (s) {
        tk_tensor_release(*out);
        *out = NULL;
    }
    return s;
}

tk_status tk_matmul(tk_context *ctx, const tk_tensor *a, const tk_tensor *b, tk_tensor **out)
{
    if (!ctx || !out) return TK_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (!ctx->device->host_ops) return tkr_gpu_matmul(ctx, a, b, out);
    double t0 = ctx->profile ? tkr_now() : 0;
    tk_status s = check_pair(ctx, "tk_matmul", a, b);
    if (s) return s;
    if (a->ndim == 0 || b->ndim == 0)
        return tkr_error(ctx, TK_ERR_SHAPE, "tk_matmul: both operands need at least 1 dim (a has %d, b has %d)", a->ndim, b->ndim);
    /* 1-D operands: a row [1, K] / a column [K, 1], the dim dropped again after */
    tk_tensor *a2 = NULL, *b2 = NULL, *r = NULL;
    if (a->ndim == 1) s = tk_unsqueeze(ctx, a, 0, &a2);
    if (!s && b->ndim == 1) s = tk_unsqueeze(ctx, b, 1, &b2);
    if (!s) s = matmul_nd(ctx, "tk_matmul", a2 ? a2 : a, b2 ? b2 : b, &r);
    if (!s && (a2 || b2)) {
        tk_tensor *sq = NULL;
        int nd = r->ndim;
        if (b2 && (s = tk_squeeze(ctx, r, nd - 1, &sq)) == TK_OK) {
            tk_tensor_release(r);
            r = sq;
        }
        if (!s && a2 && (s = tk_squeeze(ctx, r, r->ndim - (b2 ? 1 : 2), &sq)) == TK_OK) {
            tk_tensor_release(r);
            r = sq;
        }
    }
    tk_tensor_release(a2);
    tk_tensor_release(b2);
    if (s) {
        tk_tensor_release(r);
        return s;
    }
    *out = r;
    if (ctx->profile) tkr_profile_record(ctx, "op", "tk_matmul", tkr_now() - t0);
    return tkr_ok(ctx);
}

tk_status tk_bmm(tk_context *ctx, const tk_tensor *a, const tk_tensor *b, tk_tensor **out)
{
    if (!ctx || !out) return TK_ERR_INVALID_ARGUMENT;
    *out = NULL;
    tk_status s = check_pair(ctx, "tk_bmm", a, b);
    if (s) return s;
    char sa[160], sb[160];
    if (a->ndim != 3 || b->ndim != 3 || a->shape[0] != b->shape[0])
        return tkr_error(ctx, TK_ERR_SHAPE, "tk_bmm: needs [B, M, K] and [B, K, N] with one B, got %s and %s", TKR_SHAPE(a, sa),
                         TKR_SHAPE(b, sb));
    return tk_matmul(ctx, a, b, out);
}

/* ------------------------------------------------------------ packed weights */


/* w [N, K] (a linear weight) packed for the gemm_X_packed kernels as B = wᵀ
 * [K, N]: planes P[NB, KT, 256, 256] in the micro-kernel's layout. Kept on a
 * marked weight (tkr_weight_form). */
static tk_status make_packed(tk_context *ctx, const tk_tensor *w, tk_tensor **out)
{
    int64_t n = w->shape[0], k = w->shape[1];
    int64_t nb = (n + TKR_PACK - 1) / TKR_PACK, kt = (k + TKR_PACK - 1) / TKR_PACK;
    bool bf = w->dtype == TK_DTYPE_BF16;
    tk_tensor *wt = NULL, *b = NULL, *p = NULL;
    tk_kernel *kern;
    tk_status s = tkr_stdlib_kernel(ctx, "gemm.tk", bf ? "pack_b_bf16" : "pack_b_f32", &kern);
    if (!s) s = tkr_view(ctx, w, 2, (int64_t[]){ k, n }, (int64_t[]){ w->strides[1], w->strides[0] }, w->offset, &wt);
    if (!s) s = tkr_contiguous(ctx, wt, &b);
    if (!s) s = tkr_new(ctx, w->dtype, 4, (int64_t[]){ nb, kt, TKR_PACK, TKR_PACK }, &p);
    if (!s) {
        tk_arg args[2] = { tkr_kernel_arg(b), tkr_kernel_arg(p) };
        s = tkr_launch(ctx, kern, NULL, args, 2);
    }
    tk_tensor_release(wt);
    tk_tensor_release(b);
    if (s) {
        tk_tensor_release(p);
        return s;
    }
    *out = p;
    return TK_OK;
}

/* A matmul B [K, N] packed: the same planes as a linear weight w = Bᵀ.
 * Also tk_ffn's weight form (ffn.c), so a weight both use is packed once. */
tk_status tkr_matmul_pack_b(tk_context *ctx, const tk_tensor *b, tk_tensor **out)
{
    tk_tensor *w = NULL;
    tk_status s = tkr_view(ctx, b, 2, (int64_t[]){ b->shape[1], b->shape[0] }, (int64_t[]){ b->strides[1], b->strides[0] }, b->offset,
                           &w);
    if (!s) s = make_packed(ctx, w, out);
    tk_tensor_release(w);
    return s;
}

/* C[M, N] f32 = A[M, K] · packed, then + bias; into o (f32 or bf16). */
static tk_status packed_gemm(tk_context *ctx, const tk_tensor *A, const tk_tensor *P, const tk_tensor *bias, tk_tensor *o)
{
    int64_t m = A->shape[0], n = o->shape[1];
    bool bf = A->dtype == TK_DTYPE_BF16;
    const char *ty = bf ? "bf16" : "f32";
    char name[64];
    if (m <= 16) snprintf(name, sizeof name, "gemv_%s_packed", ty);
    else if (m <= 128) snprintf(name, sizeof name, "gemm_%s_packed_m32", ty);   /* 80 rows: 96 in 32-row blocks, not 256 */
    else snprintf(name, sizeof name, "gemm_%s_packed", ty);
    tk_kernel *kern;
    tk_status s = tkr_stdlib_kernel(ctx, "gemm.tk", name, &kern);
    if (s) return s;
    tk_tensor *c = NULL;   /* the packed kernels write f32 without an epilogue */
    if (bf || bias) s = tkr_new(ctx, TK_DTYPE_F32, 2, (int64_t[]){ m, n }, &c);
    if (!s) {
        tk_arg args[3] = { tkr_kernel_arg(A), tkr_kernel_arg(P), tkr_kernel_arg(c ? c : o) };
        s = tkr_launch_est(ctx, kern, NULL, args, 3, tkr_est_flops_ns(2.0 * (double)m * (double)n * (double)A->shape[1]));
    }
    if (!s && c) {
        const float *cp = (const float *)tkr_ptr(c), *bp = bias ? (const float *)tkr_ptr(bias) : NULL;
        char *op = tkr_ptr(o);
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++) {
                float v = cp[i * n + j] + (bp ? bp[j] : 0.0f);
                if (bf) tkr_store_f(op + (i * n + j) * 2, TK_DTYPE_BF16, v);
                else ((float *)op)[i * n + j] = v;
            }
    }
    tk_tensor_release(c);
    return s;
}

/* ------------------------------------------------------------ linear */

tk_status tk_linear(tk_context *ctx, const tk_tensor *x, const tk_tensor *w, const tk_tensor *bias, tk_tensor **out)
{
    bool fused;
    if (ctx && out && !ctx->device->host_ops) return tkr_gpu_linear(ctx, x, w, bias, out);
    return tkr_linear_ep(ctx, x, w, bias, TKR_GEMM_ACT_NONE, NULL, &fused, out);
}

tk_status tkr_linear_ep(tk_context *ctx, const tk_tensor *x, const tk_tensor *w, const tk_tensor *bias, TkrGemmAct act,
                        const tk_tensor *residual, bool *fused, tk_tensor **out)
{
    if (!ctx || !out || !fused) return TK_ERR_INVALID_ARGUMENT;
    *out = NULL;
    *fused = false;
    double t0 = ctx->profile ? tkr_now() : 0;
    tk_status s = check_pair(ctx, "tk_linear", x, w);
    if (s) return s;
    char sx[160], sw[160], sbias[160];
    if (w->ndim != 2 || x->ndim < 1 || x->shape[x->ndim - 1] != w->shape[1])
        return tkr_error(ctx, TK_ERR_SHAPE, "tk_linear: x %s and weight %s do not fit (weight is [out, in], x [..., in])", TKR_SHAPE(x, sx),
                         TKR_SHAPE(w, sw));
    int64_t n = w->shape[0], k = w->shape[1];
    if (bias) {
        if ((s = tkr_check_arg(ctx, "tk_linear", "bias", bias))) return s;
        if (bias->ndim != 1 || bias->shape[0] != n)
            return tkr_error(ctx, TK_ERR_SHAPE, "tk_linear: bias %s does not fit weight %s (needs [%lld])", TKR_SHAPE(bias, sbias),
                             TKR_SHAPE(w, sw), (long long)n);
        if (!tk_dtype_is_float(bias->dtype)) return tkr_error(ctx, TK_ERR_DTYPE, "tk_linear: bias is %s", tk_dtype_name(bias->dtype));
    }
    int64_t oshape[TK_MAX_DIMS];
    memcpy(oshape, x->shape, (size_t)x->ndim * sizeof *oshape);
    oshape[x->ndim - 1] = n;
    if ((s = tkr_new(ctx, x->dtype, x->ndim, oshape, out))) return s;
    tk_tensor *o = *out, *xc = NULL, *wc = NULL, *bf = NULL, *x2 = NULL, *o2 = NULL;
    int64_t m = tkr_numel(x->ndim - 1, x->shape);
    if (tk_tensor_numel(o) == 0) goto done;
    if (x->dtype == TK_DTYPE_F32 || x->dtype == TK_DTYPE_BF16) {
        /* y = x·wᵀ: w [out, in] contiguous is exactly the nt kernels' B */
        if ((s = tkr_contiguous(ctx, x, &xc))) goto done;
        bool bt = true;
        if (!tk_tensor_is_contiguous(w)) {
            if (is_transposed_contiguous(w)) bt = false;   /* w = v.T of a contiguous v [in, out]: the nn kernels read v */
            else if ((s = tkr_contiguous(ctx, w, &wc))) goto done;
        }
        if (bias && bias->dtype != TK_DTYPE_F32 && (s = tk_to_dtype(ctx, bias, TK_DTYPE_F32, &bf))) goto done;
        if ((s = tkr_view(ctx, xc, 2, (int64_t[]){ m, k }, (int64_t[]){ k, 1 }, xc->offset, &x2)) ||
            (s = tkr_view(ctx, o, 2, (int64_t[]){ m, n }, (int64_t[]){ n, 1 }, 0, &o2)))
            goto done;
        const tk_tensor *wb = wc ? wc : w;
        tk_tensor *packed = NULL;
        if (w->weight && packing_pays(m, n, k) && (s = tkr_weight_form(ctx, w, TKR_FORM_GEMM_PACKED, make_packed, &packed))) goto done;
        /* the epilogue in the unpacked kernels' store: a residual of exactly out's shape and dtype, contiguous */
        bool res_fits = residual && residual->dtype == x->dtype && residual->ndim == x->ndim &&
                        memcmp(residual->shape, oshape, (size_t)x->ndim * sizeof *oshape) == 0 && tk_tensor_is_contiguous(residual);
        tk_tensor *r2 = NULL;
        if (packed) s = packed_gemm(ctx, x2, packed, bias ? (bf ? bf : bias) : NULL, o2);
        else if ((act == TKR_GEMM_ACT_NONE || (act >= TKR_GEMM_ACT_RELU && act <= TKR_GEMM_ACT_SILU)) && (!residual || res_fits)) {
            if (residual) s = tkr_view(ctx, residual, 2, (int64_t[]){ m, n }, (int64_t[]){ n, 1 }, residual->offset, &r2);
            if (!s) s = kernel_gemm_ep(ctx, x2, wb, bt, bias ? (bf ? bf : bias) : NULL, act, r2, o2);
            *fused = !s;
        } else s = kernel_gemm(ctx, x2, wb, bt, bias ? (bf ? bf : bias) : NULL, o2);
        tk_tensor_release(r2);
        tk_tensor_release(packed);
    } else {
        /* plain path: out = x·wᵀ (+ bias) */
        tk_tensor *wt = NULL, *r = NULL;
        if (!(s = tk_transpose(ctx, w, 0, 1, &wt)) && !(s = tk_matmul(ctx, x, wt, &r)))
            s = tk_copy_(ctx, o, r);
        tk_tensor_release(wt);
        tk_tensor_release(r);
        if (!s && bias) {
            tk_tensor *sum = NULL;
            if (!(s = tk_add(ctx, o, bias, &sum))) s = tk_copy_(ctx, o, sum);
            tk_tensor_release(sum);
        }
    }
done:
    tk_tensor_release(xc);
    tk_tensor_release(wc);
    tk_tensor_release(bf);
    tk_tensor_release(x2);
    tk_tensor_release(o2);
    if (s) {
        tk_tensor_release(*out);
        *out = NULL;
        return s;
    }
    if (ctx->profile) tkr_profile_record(ctx, "op", "tk_linear", tkr_now() - t0);
    return tkr_ok(ctx);
}

tk_status tk_mark_weight(tk_context *ctx, tk_tensor *w)
{
    if (!ctx) return TK_ERR_INVALID_ARGUMENT;
    tk_status s = tkr_check_arg(ctx, "tk_mark_weight", "w", w);
    if (s) return s;
    w->weight = true;
    tkr_weight_forms_clear(w);   /* marking again converts again (the caller may have written to w) */
    return tkr_ok(ctx);
}
