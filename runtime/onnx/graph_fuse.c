/* graph_fuse.c — load-time rewrites for speed (skipped with no_fuse, so
 * results can be compared with and without them).
 *
 *   weights   the constant weight of every Conv, ConvTranspose, MatMul and
 *             Gemm is marked (tk_mark_weight): the layout its kernel wants —
 *             the gemm packing, a conv weight's HWIO transpose — is made on the
 *             first run and kept, instead of once per call.
 *
 *   rewrites  (unless no_fuse) patterns exporters write, each step read once:
 *             MatMul(x, W) [+ bias]  -> FusedLinear: tk_linear on a marked [N, K] view of W
 *             Gemm(A, B, C) (alpha = beta = 1, no transA, constant B and C)  -> FusedLinear
 *             MatMul(q, kᵀ) [·s] [+ mask] -> Softmax -> MatMul(·, v)  -> FusedAttention: tk_sdpa
 *             x·(erf(x/√2) + 1)·0.5  -> FusedGelu: one exact gelu
 *             0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))  -> FusedGelu (tanh=1): one tanh gelu
 *             Conv [-> BatchNormalization] [-> Relu | Clip]  -> FusedConv: BN folded into the
 *                 weights, ReLU or the constant-bound Clip (ReLU6) in the kernels' store,
 *                 the result left channels-last (NHWC memory) when every reader takes
 *                 it in place; with opts.bf16 a dense conv with K >= 256 (or C <= 4) gets bf16
 *                 copies of its weight and bias (op_fused.c runs it in bf16)
 *             then, in graph_fuse_ffn.c, on the FusedLinear nodes:
 *             FusedLinear -> Relu | Gelu | Sigmoid | Tanh | x·sigmoid(x) [-> Add residual]
 *                 -> FusedLinear with an epilogue (act, residual)
 *             FusedLinear(act) -> FusedLinear, and SwiGLU  -> FusedFfn: tk_ffn
 *             (ops/op_fused.c runs them; `tkrun --dump=fuse` shows the result)
 *
 * The marking is not a change of results (the same kernels, the same
 * layouts), so it runs with no_fuse too: no_fuse only turns off rewrites
 * that change which kernels run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph_fuse.h"
#include "op.h"
#include "tk/nn.h"
#include "tk/ops.h"
#include "tk/shape.h"

/* Which input of the op is a weight whose layout a kernel converts. */
static int weight_input(const TkoNode *n)
{
    if (*n->domain) return -1;
    if (strcmp(n->op, "Conv") == 0 || strcmp(n->op, "ConvTranspose") == 0 || strcmp(n->op, "MatMul") == 0 ||
        strcmp(n->op, "Gemm") == 0)
        return 1;
    return -1;
}

tk_status tko_mark_weights(TkoModel *m, TkoGraph *g)
{
    for (int i = 0; i < g->nnodes; i++) {
        const TkoNode *n = &g->nodes[i];
        int k = weight_input(n);
        if (k < 0 || k >= n->nin || n->inputs[k] < 0) continue;
        tk_tensor *w = g->values[n->inputs[k]].constant;
        if (!w || !tk_dtype_is_float(tk_tensor_dtype(w))) continue;
        tk_status s = tk_mark_weight(m->ctx, w);
        if (s) return s;
    }
    return TK_OK;
}

/* ------------------------------------------------------------ rewrites to fused kernels */


const TkoNode *tko_fuse_producer(const TkoFuse *f, int v, const char *op)
{
    if (v < 0 || f->producer[v] < 0 || f->dead[f->producer[v]]) return NULL;
    const TkoNode *n = &f->g->nodes[f->producer[v]];
    return !*n->domain && strcmp(n->op, op) == 0 ? n : NULL;
}

/* A scalar float constant (any float dtype, one element). */
bool tko_fuse_scalar_const(const TkoFuse *f, int v, double *out)
{
    if (v < 0) return false;
    tk_tensor *t = f->g->values[v].constant;
    if (!t || tk_tensor_numel(t) != 1 || !tk_dtype_is_float(tk_tensor_dtype(t))) return false;
    int64_t idx[TK_MAX_DIMS] = { 0 };
    return tk_item(f->m->ctx, t, idx, out) == TK_OK;
}

/* The other input of a binary node, given one of them. */
TkoNode *tko_fuse_producer_tk(const TkoFuse *f, int v, const char *op)
{
    if (v < 0 || v >= f->nuses || f->producer[v] < 0 || f->dead[f->producer[v]]) return NULL;
    TkoNode *n = &f->g->nodes[f->producer[v]];
    return strcmp(n->domain, "tk") == 0 && strcmp(n->op, op) == 0 ? n : NULL;
}

int tko_fuse_other_input(const TkoNode *n, int v)
{
    return n->nin == 2 ? (n->inputs[0] == v ? n->inputs[1] : n->inputs[0]) : -1;
}

/* Turns node `tail` into the fused op, with these inputs and attributes. */
tk_status tko_fuse_become(TkoFuse *f, TkoNode *tail, const char *op, const int *inputs, int nin, TkoAttr *attrs, int nattrs)
{
    const char *why;
    const TkoOpDef *def = tko_find_op("tk", op, 1, &why);
    int *in = tko_alloc(&f->m->arena, (size_t)nin * sizeof *in);
    if (!def || !in) return tkr_error(f->m->ctx, TK_ERR_OUT_OF_MEMORY, "tk_onnx_load: out of memory fusing '%s'", tail->name);
    memcpy(in, inputs, (size_t)nin * sizeof *in);
    for (int a = 0; a < tail->nattrs; a++) tk_tensor_release(tail->attrs[a].t);
    tail->op = op, tail->domain = "tk", tail->opset = 1, tail->def = def;
    tail->inputs = in, tail->nin = nin, tail->attrs = attrs, tail->nattrs = nattrs;
    return TK_OK;
}

void tko_fuse_kill(TkoFuse *f, const TkoNode *n)
{
    f->dead[n - f->g->nodes] = true;
}

/* The value holding constant W [K, N] as tk_linear wants it: [N, K], a
 * transposed view of W, marked (made once per weight). */
static tk_status linear_weight(TkoFuse *f, int w_value, int *out)
{
    TkoGraph *g = f->g;
    char name[160];
    snprintf(name, sizeof name, "%s__linear_weight", g->values[w_value].name);
    int wv = tko_value(&f->m->arena, g, name, true);
    if (wv < 0) return tkr_error(f->m->ctx, TK_ERR_OUT_OF_MEMORY, "tk_onnx_load: out of memory");
    if (!g->values[wv].constant) {
        tk_tensor *wt;
        tk_status s = tk_transpose(f->m->ctx, g->values[w_value].constant, 0, 1, &wt);
        if (!s) s = tk_mark_weight(f->m->ctx, wt);
        if (s) {
            tk_tensor_release(wt);
            return s;
        }
        g->values[wv].constant = wt;
    }
    *out = wv;
    return TK_OK;
}

static int new_constant(TkoFuse *f, const char *base, const char *suffix, tk_tensor *t);

/* MatMul(x, W) [+ bias], W a constant 2-D float matrix, bias constant [N]:
 * tk_linear on a marked [N, K] view of W (the gemm packing made once). */
static tk_status fuse_linear(TkoFuse *f, int i)
{
    TkoGraph *g = f->g;
    TkoNode *mm = &g->nodes[i];
    if (*mm->domain || strcmp(mm->op, "MatMul") != 0 || mm->nin != 2 || mm->nout != 1 || mm->outputs[0] < 0) return TK_OK;
    tk_tensor *w = mm->inputs[1] >= 0 ? g->values[mm->inputs[1]].constant : NULL;
    if (!w || tk_tensor_ndim(w) != 2 || !tk_dtype_is_float(tk_tensor_dtype(w))) return TK_OK;
    int out = mm->outputs[0], inputs[3] = { mm->inputs[0], -1, -1 }, nin = 2;
    TkoNode *tail = mm;
    /* a bias Add reading only this product */
    for (int j = i + 1; j < g->nnodes && f->uses[out] == 1; j++) {
        TkoNode *add = &g->nodes[j];
        if (f->dead[j] || *add->domain || strcmp(add->op, "Add") != 0 || add->nin != 2 || add->nout != 1) continue;
        if (add->inputs[0] != out && add->inputs[1] != out) continue;
        int b = tko_fuse_other_input(add, out);
        tk_tensor *bias = b >= 0 ? g->values[b].constant : NULL;
        if (bias && tk_tensor_ndim(bias) == 1 && tk_tensor_shape(bias)[0] == tk_tensor_shape(w)[1] &&
            tk_tensor_dtype(bias) == tk_tensor_dtype(w)) {
            inputs[2] = b, nin = 3, tail = add;
        }
        break;
    }
    int wv;
    tk_status s = linear_weight(f, mm->inputs[1], &wv);
    if (s) return s;
    inputs[1] = wv;
    if (tail != mm) tko_fuse_kill(f, mm);
    return tko_fuse_become(f, tail, "FusedLinear", inputs, nin, NULL, 0);
}

/* Gemm(A, B, C) with alpha = beta = 1, no transA, a constant 2-D B and a
 * constant C of N values (or none): the classifier head of a CNN. As
 * FusedLinear it runs the packed gemv for one row (the unpacked kernels
 * padded that row to 16). transB = 1 stores B as [N, K], tk_linear's own weight. */
static tk_status fuse_gemm(TkoFuse *f, int i)
{
    TkoGraph *g = f->g;
    TkoNode *gm = &g->nodes[i];
    if (*gm->domain || strcmp(gm->op, "Gemm") != 0 || gm->nin < 2 || gm->nout != 1 || gm->outputs[0] < 0) return TK_OK;
    if (tko_attr_int(gm, "transA", 0) != 0 || tko_attr_float(gm, "alpha", 1.0f) != 1.0f || tko_attr_float(gm, "beta", 1.0f) != 1.0f)
        return TK_OK;
    tk_tensor *w = gm->inputs[1] >= 0 ? g->values[gm->inputs[1]].constant : NULL;
    if (!w || tk_tensor_ndim(w) != 2 || !tk_dtype_is_float(tk_tensor_dtype(w))) return TK_OK;
    bool tb = tko_attr_int(gm, "transB", 0) != 0;
    int64_t n = tk_tensor_shape(w)[tb ? 0 : 1];
    int inputs[3] = { gm->inputs[0], gm->inputs[1], -1 }, nin = 2;
    if (gm->nin > 2 && gm->inputs[2] >= 0) {
        tk_tensor *c = g->values[gm->inputs[2]].constant;
        if (!c || tk_tensor_dtype(c) != tk_tensor_dtype(w) || tk_tensor_numel(c) != n) return TK_OK;
        const int64_t *cs = tk_tensor_shape(c);
        if (!(tk_tensor_ndim(c) == 1 || (tk_tensor_ndim(c) == 2 && cs[0] == 1))) return TK_OK;
        int cv = gm->inputs[2];
        if (tk_tensor_ndim(c) == 2) {   /* [1, N] -> [N]: tk_linear's bias */
            tk_tensor *c1 = NULL;
            tk_status s = tk_reshape(f->m->ctx, c, 1, &n, &c1);
            if (s) return s;
            if ((cv = new_constant(f, g->values[gm->inputs[2]].name, "__bias", c1)) < 0) return TK_OK;
        }
        inputs[2] = cv, nin = 3;
    }
    if (!tb) {
        tk_status s = linear_weight(f, gm->inputs[1], &inputs[1]);
        if (s) return s;
    }
    return tko_fuse_become(f, gm, "FusedLinear", inputs, nin, NULL, 0);
}

/* MatMul(q, kᵀ) [÷c or ·c] [+ mask] -> Softmax(last axis) -> MatMul(·, v),
 * each step read once: tk_sdpa. kᵀ made by a Transpose is undone by permuting
 * the Transpose's input (k_perm), so k is read in place. */
static tk_status fuse_attention(TkoFuse *f, int i)
{
    TkoGraph *g = f->g;
    TkoNode *sm = &g->nodes[i];
    if (*sm->domain || strcmp(sm->op, "Softmax") != 0 || sm->nout != 1 || sm->outputs[0] < 0) return TK_OK;
    int64_t axis = tko_attr_int(sm, "axis", sm->opset >= 13 ? -1 : 1);
    if (axis != -1 || f->uses[sm->outputs[0]] != 1) return TK_OK;
    /* the consumer: MatMul(softmax, v) */
    TkoNode *pv = NULL;
    for (int j = i + 1; j < g->nnodes && !pv; j++)
        if (!f->dead[j] && !*g->nodes[j].domain && strcmp(g->nodes[j].op, "MatMul") == 0 && g->nodes[j].nin == 2 &&
            g->nodes[j].inputs[0] == sm->outputs[0])
            pv = &g->nodes[j];
    if (!pv) return TK_OK;
    /* back from the softmax: [Add mask] [Div/Mul scale] MatMul(q, kᵀ) */
    int v = sm->inputs[0], mask = -1;
    double scale = 1.0, c;
    const TkoNode *n, *add = NULL, *sc = NULL;
    if ((n = tko_fuse_producer(f, v, "Add")) && f->uses[v] == 1 && n->nin == 2) {
        const TkoNode *a0 = tko_fuse_producer(f, n->inputs[0], "Div"), *m0 = tko_fuse_producer(f, n->inputs[0], "Mul");
        const TkoNode *mm0 = tko_fuse_producer(f, n->inputs[0], "MatMul");
        int x = (a0 || m0 || mm0) ? n->inputs[0] : n->inputs[1];
        add = n, mask = tko_fuse_other_input(n, x), v = x;
    }
    if ((n = tko_fuse_producer(f, v, "Div")) && f->uses[v] == 1 && n->nin == 2 && tko_fuse_scalar_const(f, n->inputs[1], &c) && c != 0)
        sc = n, scale = 1.0 / c, v = n->inputs[0];
    else if ((n = tko_fuse_producer(f, v, "Mul")) && f->uses[v] == 1 && n->nin == 2) {
        if (tko_fuse_scalar_const(f, n->inputs[1], &c)) sc = n, scale = c, v = n->inputs[0];
        else if (tko_fuse_scalar_const(f, n->inputs[0], &c)) sc = n, scale = c, v = n->inputs[1];
    }
    const TkoNode *qk = tko_fuse_producer(f, v, "MatMul");
    if (!qk || f->uses[v] != 1 || qk->nin != 2) return TK_OK;
    if (add && (mask < 0 || !g->values[mask].constant)) return TK_OK;   /* only constant masks: their shape is known to broadcast */
    /* kᵀ: from a Transpose (undo it by a permutation) or as it is */
    int kt = qk->inputs[1], ksrc = kt;
    TkoAttr *attrs = tko_alloc(&f->m->arena, 2 * sizeof *attrs);
    if (!attrs) return tkr_error(f->m->ctx, TK_ERR_OUT_OF_MEMORY, "tk_onnx_load: out of memory");
    int nattrs = 0;
    const TkoNode *tr = tko_fuse_producer(f, kt, "Transpose");
    int np = 0;
    const int64_t *perm = tr ? tko_attr_ints(tr, "perm", &np) : NULL;
    if (tr && f->uses[kt] == 1 && np >= 3 && np <= 4) {
        int64_t *kp = tko_alloc(&f->m->arena, (size_t)np * sizeof *kp);
        if (!kp) return tkr_error(f->m->ctx, TK_ERR_OUT_OF_MEMORY, "tk_onnx_load: out of memory");
        memcpy(kp, perm, (size_t)np * sizeof *kp);
        int64_t t = kp[np - 1];
        kp[np - 1] = kp[np - 2], kp[np - 2] = t;
        attrs[nattrs++] = (TkoAttr){ .name = "k_perm", .type = TKO_ATTR_INTS, .n = np, .ints = kp };
        ksrc = tr->inputs[0];
    }
    attrs[nattrs++] = (TkoAttr){ .name = "scale", .type = TKO_ATTR_FLOAT, .f = (float)scale };
    int inputs[4] = { qk->inputs[0], ksrc, pv->inputs[1], mask };
    if (ksrc != kt) tko_fuse_kill(f, tr);
    tko_fuse_kill(f, qk);
    if (sc) tko_fuse_kill(f, sc);
    if (add) tko_fuse_kill(f, add);
    tko_fuse_kill(f, sm);
    return tko_fuse_become(f, pv, "FusedAttention", inputs, mask >= 0 ? 4 : 3, attrs, nattrs);
}

/* x·(erf(x/√2) + 1)·0.5, as PyTorch 1.x exports F.gelu: one exact gelu. */
static tk_status fuse_gelu(TkoFuse *f, int i)
{
    TkoGraph *g = f->g;
    TkoNode *erf = &g->nodes[i];
    double c;
    if (*erf->domain || strcmp(erf->op, "Erf") != 0 || erf->nin != 1) return TK_OK;
    const TkoNode *div = tko_fuse_producer(f, erf->inputs[0], "Div");
    if (!div || f->uses[erf->inputs[0]] != 1 || !tko_fuse_scalar_const(f, div->inputs[1], &c) || c < 1.4142 || c > 1.4143) return TK_OK;
    int x = div->inputs[0], e = erf->outputs[0];
    if (e < 0 || f->uses[e] != 1) return TK_OK;
    TkoNode *add = NULL, *mul = NULL, *half = NULL;
    for (int j = i + 1; j < g->nnodes && !add; j++)
        if (!f->dead[j] && strcmp(g->nodes[j].op, "Add") == 0 && !*g->nodes[j].domain && g->nodes[j].nin == 2 &&
            (g->nodes[j].inputs[0] == e || g->nodes[j].inputs[1] == e) && tko_fuse_scalar_const(f, tko_fuse_other_input(&g->nodes[j], e), &c) && c == 1.0)
            add = &g->nodes[j];
    if (!add || f->uses[add->outputs[0]] != 1) return TK_OK;
    int a = add->outputs[0];
    for (int j = (int)(add - g->nodes) + 1; j < g->nnodes && !mul; j++)
        if (!f->dead[j] && strcmp(g->nodes[j].op, "Mul") == 0 && !*g->nodes[j].domain && g->nodes[j].nin == 2 &&
            ((g->nodes[j].inputs[0] == a && g->nodes[j].inputs[1] == x) || (g->nodes[j].inputs[1] == a && g->nodes[j].inputs[0] == x)))
            mul = &g->nodes[j];
    if (!mul || f->uses[mul->outputs[0]] != 1) return TK_OK;
    int m = mul->outputs[0];
    for (int j = (int)(mul - g->nodes) + 1; j < g->nnodes && !half; j++)
        if (!f->dead[j] && strcmp(g->nodes[j].op, "Mul") == 0 && !*g->nodes[j].domain && g->nodes[j].nin == 2 &&
            (g->nodes[j].inputs[0] == m || g->nodes[j].inputs[1] == m) && tko_fuse_scalar_const(f, tko_fuse_other_input(&g->nodes[j], m), &c) && c == 0.5)
            half = &g->nodes[j];
    if (!half) return TK_OK;
    tko_fuse_kill(f, div), tko_fuse_kill(f, erf), tko_fuse_kill(f, add), tko_fuse_kill(f, mul);
    return tko_fuse_become(f, half, "FusedGelu", &x, 1, NULL, 0);
}

/* The live node after node i that is the one reader of v (v read once), if it
 * is default-domain op `op` with two inputs. */
static TkoNode *only_reader(TkoFuse *f, int i, int v, const char *op)
{
    if (v < 0 || v >= f->nuses || f->uses[v] != 1) return NULL;
    for (int j = i + 1; j < f->g->nnodes; j++) {
        TkoNode *n = &f->g->nodes[j];
        if (f->dead[j]) continue;
        for (int k = 0; k < n->nin; k++)
            if (n->inputs[k] == v) return !*n->domain && strcmp(n->op, op) == 0 && n->nin == 2 && n->nout == 1 ? n : NULL;
    }
    return NULL;
}

/* n = Mul(c, w) or Mul(w, c) with c a scalar constant within tol of want: w, else -1. */
static int times_const(const TkoFuse *f, const TkoNode *n, double want, double tol)
{
    double c;
    if (!n || n->nin != 2) return -1;
    for (int k = 0; k < 2; k++)
        if (tko_fuse_scalar_const(f, n->inputs[k], &c) && fabs(c - want) <= tol) return n->inputs[1 - k];
    return -1;
}

/* v = x³ as Pow(x, 3) or Mul(x, Mul(x, x)) (either order), each step read once;
 * the nodes that make it in out[] (NULL-padded). */
static bool cube_of(const TkoFuse *f, int v, int x, const TkoNode *out[2])
{
    double c;
    out[0] = out[1] = NULL;
    if (v < 0 || f->uses[v] != 1) return false;
    const TkoNode *p = tko_fuse_producer(f, v, "Pow"), *m = tko_fuse_producer(f, v, "Mul");
    if (p && p->nin == 2 && p->inputs[0] == x && tko_fuse_scalar_const(f, p->inputs[1], &c) && c == 3.0) return out[0] = p, true;
    if (!m || m->nin != 2) return false;
    int sq = m->inputs[0] == x ? m->inputs[1] : m->inputs[1] == x ? m->inputs[0] : -1;
    const TkoNode *s = sq >= 0 && f->uses[sq] == 1 ? tko_fuse_producer(f, sq, "Mul") : NULL;
    if (!s || s->nin != 2 || s->inputs[0] != x || s->inputs[1] != x) return false;
    out[0] = m, out[1] = s;
    return true;
}

/* 0.5·(x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))), as PyTorch exports
 * gelu(approximate='tanh') below opset 20 (GPT-2's MLP): one tanh gelu. */
static tk_status fuse_gelu_tanh(TkoFuse *f, int i)
{
    TkoGraph *g = f->g;
    TkoNode *th = &g->nodes[i];
    if (*th->domain || strcmp(th->op, "Tanh") != 0 || th->nin != 1 || th->nout != 1 || th->outputs[0] < 0) return TK_OK;
    /* back from the tanh: √(2/π)·(x + 0.044715·x³) */
    int v = th->inputs[0];
    const TkoNode *m3 = v >= 0 && f->uses[v] == 1 ? tko_fuse_producer(f, v, "Mul") : NULL;
    int a = times_const(f, m3, 0.7978845608028654, 1e-6);
    const TkoNode *ad = a >= 0 && f->uses[a] == 1 ? tko_fuse_producer(f, a, "Add") : NULL, *m2 = NULL, *cube[2];
    int x = -1;
    for (int k = 0; ad && ad->nin == 2 && k < 2 && x < 0; k++) {
        int t = ad->inputs[1 - k];
        m2 = f->uses[t] == 1 ? tko_fuse_producer(f, t, "Mul") : NULL;
        if (cube_of(f, times_const(f, m2, 0.044715, 1e-7), ad->inputs[k], cube)) x = ad->inputs[k];
    }
    if (x < 0) return TK_OK;
    /* forward: (x·(1 + tanh)) · 0.5 */
    TkoNode *a1 = only_reader(f, i, th->outputs[0], "Add");
    double c;
    if (!a1 || !tko_fuse_scalar_const(f, tko_fuse_other_input(a1, th->outputs[0]), &c) || c != 1.0) return TK_OK;
    TkoNode *m4 = only_reader(f, (int)(a1 - g->nodes), a1->outputs[0], "Mul");
    if (!m4 || tko_fuse_other_input(m4, a1->outputs[0]) != x) return TK_OK;
    TkoNode *half = only_reader(f, (int)(m4 - g->nodes), m4->outputs[0], "Mul");
    if (!half || times_const(f, half, 0.5, 0) != m4->outputs[0]) return TK_OK;
    TkoAttr *attrs = tko_alloc(&f->m->arena, sizeof *attrs);
    if (!attrs) return tkr_error(f->m->ctx, TK_ERR_OUT_OF_MEMORY, "tk_onnx_load: out of memory fusing '%s'", half->name);
    *attrs = (TkoAttr){ .name = "tanh", .type = TKO_ATTR_INT, .i = 1 };
    const TkoNode *gone[] = { cube[0], cube[1], m2, ad, m3, th, a1, m4 };
    for (size_t k = 0; k < sizeof gone / sizeof *gone; k++)
        if (gone[k]) tko_fuse_kill(f, gone[k]);
    return tko_fuse_become(f, half, "FusedGelu", &x, 1, attrs, 1);
}

/* ------------------------------------------------------------ convolutions */

/* A new constant value named base + suffix holding t (the reference is taken). */
static int new_constant(TkoFuse *f, const char *base, const char *suffix, tk_tensor *t)
{
    char name[160];
    snprintf(name, sizeof name, "%s%s", base, suffix);
    int v = tko_value(&f->m->arena, f->g, name, true);
    if (v < 0 || f->g->values[v].constant) {   /* out of memory, or the name is taken: leave the graph as it is */
        tk_tensor_release(t);
        return -1;
    }
    f->g->values[v].constant = t;
    return v;
}

/* Conv(x, W, b) -> BatchNormalization(scale γ, B β, mean μ, var σ²) folded
 * into one convolution: W' = W·k and b' = (b − μ)·k + β per output channel,
 * k = γ / √(σ² + ε), computed in double from the constants. Sets *wv, *bv
 * to the new values; false (graph unchanged) when BN is not foldable. */
static bool fold_batch_norm(TkoFuse *f, const TkoNode *conv, const TkoNode *bn, int *wv, int *bv)
{
    TkoGraph *g = f->g;
    if (bn->nin != 5 || bn->opset < 7 || tko_attr_int(bn, "training_mode", 0) != 0 || tko_attr_int(bn, "spatial", 1) != 1) return false;
    for (int k = 1; k < bn->nout; k++)
        if (bn->outputs[k] >= 0) return false;   /* running statistics asked for: training */
    tk_tensor *w = g->values[conv->inputs[1]].constant, *b = conv->nin > 2 && conv->inputs[2] >= 0 ? g->values[conv->inputs[2]].constant : NULL;
    if (!w || (conv->nin > 2 && conv->inputs[2] >= 0 && !b)) return false;
    int64_t oc = tk_tensor_shape(w)[0];
    tk_tensor *p[5] = { 0 };   /* γ, β, μ, σ² as f64, then W as f64 */
    for (int k = 1; k < 5; k++) {
        tk_tensor *c = bn->inputs[k] >= 0 ? g->values[bn->inputs[k]].constant : NULL;
        if (!c || tk_tensor_ndim(c) != 1 || tk_tensor_shape(c)[0] != oc) return false;
    }
    tk_context *ctx = f->m->ctx;
    tk_dtype dt = tk_tensor_dtype(w);
    bool ok = true;
    for (int k = 1; k < 5 && ok; k++) ok = tk_to_dtype(ctx, g->values[bn->inputs[k]].constant, TK_DTYPE_F64, &p[k - 1]) == TK_OK;
    tk_tensor *w64 = NULL, *b64 = NULL, *wn = NULL, *bn_ = NULL;
    ok = ok && tk_to_dtype(ctx, w, TK_DTYPE_F64, &w64) == TK_OK && tk_zeros(ctx, TK_DTYPE_F64, 1, &oc, &b64) == TK_OK;
    if (ok && b) {
        tk_tensor *t = NULL;
        ok = tk_to_dtype(ctx, b, TK_DTYPE_F64, &t) == TK_OK && tk_copy_(ctx, b64, t) == TK_OK;
        tk_tensor_release(t);
    }
    if (ok) {
        double eps = tko_attr_float(bn, "epsilon", 1e-5f);
        const double *gm = tk_tensor_data(p[0]), *bt = tk_tensor_data(p[1]), *mu = tk_tensor_data(p[2]), *var = tk_tensor_data(p[3]);
        double *wd = tk_tensor_data(w64), *bd = tk_tensor_data(b64);
        int64_t per = oc ? tk_tensor_numel(w) / oc : 0;
        for (int64_t o = 0; o < oc; o++) {
            double k = gm[o] / sqrt(var[o] + eps);
            for (int64_t i = 0; i < per; i++) wd[o * per + i] *= k;
            bd[o] = (bd[o] - mu[o]) * k + bt[o];
        }
        ok = tk_to_dtype(ctx, w64, dt, &wn) == TK_OK && tk_to_dtype(ctx, b64, dt, &bn_) == TK_OK && tk_mark_weight(ctx, wn) == TK_OK;
    }
    for (int k = 0; k < 4; k++) tk_tensor_release(p[k]);
    tk_tensor_release(w64), tk_tensor_release(b64);
    if (!ok) {
        tk_tensor_release(wn), tk_tensor_release(bn_);
        tkr_ok(ctx);   /* not folded: the graph runs BN as it is */
        return false;
    }
    const char *base = conv->name && *conv->name ? conv->name : g->values[conv->outputs[0]].name;
    *wv = new_constant(f, base, "__bn_weight", wn);
    *bv = new_constant(f, base, "__bn_bias", bn_);
    return *wv >= 0 && *bv >= 0;
}

/* tk_onnx_opts.bf16: the conv's weight and bias (inputs[1], inputs[2]) as
 * new bf16 constants, rounded once here (round to nearest even). false
 * (inputs unchanged) when out of memory or a name is taken. */
static bool bf16_weights(TkoFuse *f, const TkoNode *conv, int *inputs)
{
    TkoGraph *g = f->g;
    tk_context *ctx = f->m->ctx;
    const char *base = conv->name && *conv->name ? conv->name : g->values[conv->outputs[0]].name;
    tk_tensor *w = NULL, *b = NULL;
    /* marked, like the f32 weights (tko_mark_weights): its kernel layout is made once */
    if (tk_to_dtype(ctx, g->values[inputs[1]].constant, TK_DTYPE_BF16, &w) || tk_mark_weight(ctx, w) ||
        (inputs[2] >= 0 && tk_to_dtype(ctx, g->values[inputs[2]].constant, TK_DTYPE_BF16, &b))) {
        tk_tensor_release(w);
        tkr_ok(ctx);   /* the conv stays f32 */
        return false;
    }
    int wv = new_constant(f, base, "__bf16_weight", w), bv = b ? new_constant(f, base, "__bf16_bias", b) : -1;
    if (wv < 0 || (b && bv < 0)) return false;
    inputs[1] = wv;
    if (b) inputs[2] = bv;
    return true;
}

/* Does every reader of v take a channels-last tensor in place (or at least
 * correctly through the runtime's strided ops)? A graph output or a
 * subgraph read does not: those get the row-major layout. */
static bool channels_last_readers(const TkoFuse *f, int v)
{
    static const char *const ok[] = { "Conv", "Relu", "Clip", "Add", "Sub", "Mul", "Div", "Sigmoid", "Tanh", "LeakyRelu", "HardSigmoid",
                                      "HardSwish", "MaxPool", "GlobalAveragePool", "GlobalMaxPool", "BatchNormalization", "Concat" };
    const TkoGraph *g = f->g;
    int seen = 0;
    for (int j = 0; j < g->nnodes; j++) {
        const TkoNode *n = &g->nodes[j];
        bool reads = false;
        for (int k = 0; k < n->nin; k++) reads |= n->inputs[k] == v;
        if (!reads) continue;
        for (int k = 0; k < n->nin; k++) seen += n->inputs[k] == v;
        if (f->dead[j] || *n->domain) return false;
        if (strcmp(n->op, "MaxPool") == 0 && n->nout > 1 && n->outputs[1] >= 0) return false;   /* Indices read x row-major */
        bool listed = false;
        for (size_t i = 0; i < sizeof ok / sizeof *ok && !listed; i++) listed = strcmp(n->op, ok[i]) == 0;
        if (!listed) return false;
    }
    return seen > 0 && seen == f->uses[v];   /* any other use is a graph output or a subgraph's read */
}

/* The one node reading v, of op `op` (default domain), after node i; NULL if v has other readers. */
static TkoNode *sole_reader(TkoFuse *f, int i, int v, const char *op)
{
    if (v < 0 || f->uses[v] != 1) return NULL;
    for (int j = i + 1; j < f->g->nnodes; j++) {
        TkoNode *n = &f->g->nodes[j];
        if (f->dead[j] || n->nin < 1 || n->inputs[0] != v) continue;
        return !*n->domain && strcmp(n->op, op) == 0 && n->nout == 1 ? n : NULL;
    }
    return NULL;
}

/* A 2-d Conv [-> BatchNormalization folded into its weights] [-> Relu | -> Clip
 * with constant bounds (ReLU6), either fused into the kernels' store]
 * -> FusedConv, whose result stays channels-last when every reader takes it
 * so (no NHWC -> NCHW copy, and the next conv reads it in place). */
static tk_status fuse_conv(TkoFuse *f, int i)
{
    TkoGraph *g = f->g;
    TkoNode *conv = &g->nodes[i];
    if (*conv->domain || strcmp(conv->op, "Conv") != 0 || conv->nout != 1 || conv->outputs[0] < 0 || conv->nin < 2) return TK_OK;
    int win = conv->inputs[1];
    tk_tensor *w = win >= 0 ? g->values[win].constant : NULL;
    if (!w || tk_tensor_ndim(w) != 4 || !tk_dtype_is_float(tk_tensor_dtype(w))) return TK_OK;   /* 2-d, weights known */
    int inputs[3] = { conv->inputs[0], win, conv->nin > 2 ? conv->inputs[2] : -1 }, out = conv->outputs[0];
    TkoNode *tail = conv, *bn = sole_reader(f, i, out, "BatchNormalization");
    int wv, bv;
    if (bn && fold_batch_norm(f, conv, bn, &wv, &bv)) {
        inputs[1] = wv, inputs[2] = bv, tail = bn, out = bn->outputs[0];
        if (out < 0 || out >= f->nuses) return TK_OK;
    }
    bool relu = false;
    float clip[2] = { -INFINITY, INFINITY };
    bool has_clip = false;
    TkoNode *act = sole_reader(f, (int)(tail - g->nodes), out, "Relu");
    if (act) relu = true;
    else if ((act = sole_reader(f, (int)(tail - g->nodes), out, "Clip"))) {
        double lo = -INFINITY, hi = INFINITY;
        bool ok = true;
        if (act->opset < 11) {
            if (tko_attr(act, "min")) lo = tko_attr_float(act, "min", 0);
            if (tko_attr(act, "max")) hi = tko_attr_float(act, "max", 0);
        } else {
            if (act->nin > 1 && act->inputs[1] >= 0) ok = ok && tko_fuse_scalar_const(f, act->inputs[1], &lo);
            if (act->nin > 2 && act->inputs[2] >= 0) ok = ok && tko_fuse_scalar_const(f, act->inputs[2], &hi);
        }
        ok = ok && !isnan(lo) && !isnan(hi);   /* tk_conv2d refuses a NaN bound: leave such a Clip alone */
        if (ok) clip[0] = (float)lo, clip[1] = (float)hi, has_clip = true;
        else act = NULL;
    }
    if (act) tail = act, out = act->outputs[0];
    bool cl = out >= 0 && out < f->nuses && channels_last_readers(f, out);
    /* bf16 where the conv is compute-bound: dense, K = C·KH·KW >= 256 products per output, or an
     * image stem (C <= 4: ResNet's 7×7 has K = 147 but 64 outputs per gathered pixel; 2.3 -> 2.0 ms
     * on 1 thread, 1.34 -> 1.08 on 2). The memory-bound ones (depthwise, 1×1 over few channels)
     * only gain the conversions: with them MobileNetV2 took 16.9 ms against 9.9 in f32 (Xeon) */
    const int64_t *ws = tk_tensor_shape(g->values[inputs[1]].constant);
    bool bf16 = f->m->opts.bf16 && tko_attr_int(conv, "group", 1) == 1 && (ws[1] * ws[2] * ws[3] >= 256 || ws[1] <= 4) &&
                tk_tensor_dtype(g->values[inputs[1]].constant) == TK_DTYPE_F32 &&
                (inputs[2] < 0 || (g->values[inputs[2]].constant && tk_tensor_dtype(g->values[inputs[2]].constant) == TK_DTYPE_F32));
    if (tail == conv && !cl && !bf16) return TK_OK;   /* nothing to gain */
    if (bf16) bf16 = bf16_weights(f, conv, inputs);   /* false: inputs unchanged, the conv stays f32 */
    /* the Conv's attributes, and the fused ones */
    int na = 0;
    TkoAttr *attrs = tko_alloc(&f->m->arena, (size_t)(conv->nattrs + 4) * sizeof *attrs);
    if (!attrs) return tkr_error(f->m->ctx, TK_ERR_OUT_OF_MEMORY, "tk_onnx_load: out of memory fusing '%s'", conv->name);
    for (int a = 0; a < conv->nattrs; a++)
        if (conv->attrs[a].type != TKO_ATTR_TENSOR) attrs[na++] = conv->attrs[a];
    attrs[na++] = (TkoAttr){ .name = "relu", .type = TKO_ATTR_INT, .i = relu };
    attrs[na++] = (TkoAttr){ .name = "channels_last", .type = TKO_ATTR_INT, .i = cl };
    if (bf16) attrs[na++] = (TkoAttr){ .name = "bf16", .type = TKO_ATTR_INT, .i = 1 };
    if (has_clip) {
        float *fl = tko_alloc(&f->m->arena, 2 * sizeof *fl);
        if (!fl) return tkr_error(f->m->ctx, TK_ERR_OUT_OF_MEMORY, "tk_onnx_load: out of memory fusing '%s'", conv->name);
        memcpy(fl, clip, sizeof clip);
        attrs[na++] = (TkoAttr){ .name = "clip", .type = TKO_ATTR_FLOATS, .n = 2, .floats = fl };
    }
    if (bn && tail != conv && bn != tail) tko_fuse_kill(f, bn);
    if (tail != conv) tko_fuse_kill(f, conv);
    return tko_fuse_become(f, tail, "FusedConv", inputs, inputs[2] >= 0 ? 3 : 2, attrs, na);
}

static void count_uses(TkoFuse *f)
{
    TkoGraph *g = f->g;
    for (int v = 0; v < g->nvalues; v++) f->uses[v] = 0, f->producer[v] = -1;
    for (int i = 0; i < g->nnodes; i++) {
        const TkoNode *n = &g->nodes[i];
        if (f->dead[i]) continue;   /* fused away: the fused node reads what it needs itself */
        for (int k = 0; k < n->nin; k++)
            if (n->inputs[k] >= 0) f->uses[n->inputs[k]]++;
        for (int k = 0; k < n->nout; k++)
            if (n->outputs[k] >= 0) f->producer[n->outputs[k]] = i;
        for (int a = 0; a < n->nattrs; a++) {   /* a subgraph's reads pin the values it reads */
            const TkoAttr *at = &n->attrs[a];
            TkoGraph *const *sgs = at->type == TKO_ATTR_GRAPHS ? at->graphs : (TkoGraph *const *)&at->g;
            int ns = at->type == TKO_ATTR_GRAPHS ? at->n : at->g ? 1 : 0;
            for (int k = 0; k < ns; k++)
                for (int o = 0; o < sgs[k]->nouter; o++) f->uses[sgs[k]->values[sgs[k]->outer[o]].outer_index] += 2;
        }
    }
    for (int o = 0; o < g->nout; o++) f->uses[g->outputs[o]] += 2;   /* an output is never fused away */
}

/* A FusedConv the loader made bf16 (opts.bf16: attr bf16). */
static bool bf16_conv(const TkoNode *n)
{
    return strcmp(n->domain, "tk") == 0 && strcmp(n->op, "FusedConv") == 0 && tko_attr_int(n, "bf16", 0) != 0;
}

/* opts.bf16, after the rewrites: a bf16 conv whose result only bf16 convs
 * read (as their x) keeps it bf16 (attr bf16_out; the value's inferred type
 * becomes BFLOAT16, so the memory plan sizes it so): its widening and the
 * readers' rounding are skipped, the same numbers (ResNet-18's conv1 -> conv2
 * pairs). Not in graphs with subgraphs (their outer reads are not counted here). */
static tk_status bf16_edges(TkoModel *m, TkoGraph *g)
{
    for (int i = 0; i < g->nnodes; i++)
        for (int a = 0; a < g->nodes[i].nattrs; a++)
            if (g->nodes[i].attrs[a].type == TKO_ATTR_GRAPH || g->nodes[i].attrs[a].type == TKO_ATTR_GRAPHS) return TK_OK;
    for (int i = 0; i < g->nnodes; i++) {
        TkoNode *n = &g->nodes[i];
        int v = n->nout == 1 ? n->outputs[0] : -1;
        if (!bf16_conv(n) || v < 0 || !g->values[v].inf.valid || g->values[v].inf.elem_type != 1) continue;
        bool only_convs = true;
        int readers = 0;
        for (int o = 0; o < g->nout && only_convs; o++) only_convs = g->outputs[o] != v;
        for (int j = 0; j < g->nnodes && only_convs; j++)
            for (int k = 0; k < g->nodes[j].nin && only_convs; k++)
                if (g->nodes[j].inputs[k] == v) {
                    only_convs = k == 0 && bf16_conv(&g->nodes[j]);
                    readers++;
                }
        if (!only_convs || readers == 0) continue;
        TkoAttr *attrs = tko_alloc(&m->arena, (size_t)(n->nattrs + 1) * sizeof *attrs);
        if (!attrs) return tkr_error(m->ctx, TK_ERR_OUT_OF_MEMORY, "tk_onnx_load: out of memory fusing '%s'", n->name);
        memcpy(attrs, n->attrs, (size_t)n->nattrs * sizeof *attrs);
        attrs[n->nattrs] = (TkoAttr){ .name = "bf16_out", .type = TKO_ATTR_INT, .i = 1 };
        n->attrs = attrs;
        n->nattrs++;
        g->values[v].inf.elem_type = 16;   /* TensorProto.BFLOAT16 */
    }
    return TK_OK;
}

tk_status tko_fuse(TkoModel *m, TkoGraph *g)
{
    if (m->opts.no_fuse || g->nnodes == 0) return TK_OK;
    TkoFuse f = { m, g, NULL, NULL, calloc((size_t)g->nnodes, sizeof(bool)), 0 };
    tk_status s = f.dead ? TK_OK : tkr_error(m->ctx, TK_ERR_OUT_OF_MEMORY, "tk_onnx_load: out of memory");
    /* the epilogue pass reads the FusedLinear nodes the linear passes made, the FFN pass the
     * activations the epilogue pass put on them */
    tk_status (*const passes[])(TkoFuse *, int) = { fuse_attention, fuse_gelu, fuse_gelu_tanh, fuse_linear, fuse_gemm, fuse_conv, tko_fuse_linear_epilogue,
                                                    tko_fuse_ffn };
    for (size_t p = 0; !s && p < sizeof passes / sizeof passes[0]; p++) {
        /* per-value counts sized for the values now: a pass may add some (fuse_linear's weight
         * views), which only later passes index */
        int *u = realloc(f.uses, ((size_t)g->nvalues + 1) * sizeof(int)), *pr = realloc(f.producer, ((size_t)g->nvalues + 1) * sizeof(int));
        if (u) f.uses = u;
        if (pr) f.producer = pr;
        if (!u || !pr) {
            s = tkr_error(m->ctx, TK_ERR_OUT_OF_MEMORY, "tk_onnx_load: out of memory");
            break;
        }
        f.nuses = g->nvalues;
        count_uses(&f);
        for (int i = 0; !s && i < g->nnodes; i++)
            if (!f.dead[i]) s = passes[p](&f, i);
    }
    if (!s) {   /* drop the fused-away nodes; a fused node keeps its tail's place, after everything it reads */
        int kept = 0;
        for (int i = 0; i < g->nnodes; i++)
            if (!f.dead[i]) g->nodes[kept++] = g->nodes[i];
            else
                for (int a = 0; a < g->nodes[i].nattrs; a++) tk_tensor_release(g->nodes[i].attrs[a].t), g->nodes[i].attrs[a].t = NULL;
        g->nnodes = kept;
        for (int v = 0; v < g->nvalues; v++) g->values[v].producer = -1;   /* fused-away intermediates have none now */
        for (int i = 0; i < kept; i++)
            for (int o = 0; o < g->nodes[i].nout; o++)
                if (g->nodes[i].outputs[o] >= 0) g->values[g->nodes[i].outputs[o]].producer = i;
        if (m->opts.bf16) s = bf16_edges(m, g);
    }
    free(f.uses), free(f.producer), free(f.dead);
    return s;
}
