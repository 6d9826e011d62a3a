/* graph_fuse_ffn.c — rewrites on the FusedLinear nodes graph_fuse.c made:
 *
 *   epilogues  FusedLinear -> Relu | Gelu (ONNX, com.microsoft Gelu / FastGelu, the
 *              FusedGelu of the erf and tanh expansions) | Sigmoid | Tanh | y·sigmoid(y)
 *              [-> Add(·, r)], and FusedLinear -> Add(·, r): one FusedLinear with
 *              attrs act (TkoAct) and a 4th input r. op_fused.c runs the activation
 *              and the residual in the gemm kernel's epilogue where it has one, else
 *              in place on the linear's fresh result: no full-size intermediate.
 *
 *   FFN        FusedLinear(x, W1, b1, act relu | gelu) -> FusedLinear(·, W2, b2) [+ r]
 *              FusedLinear(x, W1, silu) ⊙ FusedLinear(x, W3) -> FusedLinear(·, W2) [+ r]
 *              (SwiGLU, no biases) -> FusedFfn: tk_ffn, the [T, F] hidden never
 *              in memory, the weights [D, F] / [F, D] marked (packed once).
 *              Only where each intermediate has this one reader, W2 maps F back
 *              to D, the weights are f32 or bf16, and (tk_onnx_opts.fuse_ffn)
 *              the mode allows it: AUTO only where the kernels' 256-wide tiles
 *              are at least half filled (see tk_onnx_ffn_mode). */
#include <stdio.h>
#include <string.h>

#include "graph_fuse.h"
#include "tk/nn.h"
#include "tk/ops.h"
#include "tk/shape.h"

/* The activation node n applies to its first input, or TKO_ACT_NONE. */
static TkoAct act_of(const TkoNode *n)
{
    if (n->nin < 1 || n->nout != 1) return TKO_ACT_NONE;
    if (!*n->domain) {
        if (strcmp(n->op, "Relu") == 0) return TKO_ACT_RELU;
        if (strcmp(n->op, "Sigmoid") == 0) return TKO_ACT_SIGMOID;
        if (strcmp(n->op, "Tanh") == 0) return TKO_ACT_TANH;
        if (strcmp(n->op, "Gelu") == 0) {
            const char *a = tko_attr_string(n, "approximate", "none");
            return strcmp(a, "tanh") == 0 ? TKO_ACT_GELU_TANH : strcmp(a, "none") == 0 ? TKO_ACT_GELU_ERF : TKO_ACT_NONE;
        }
    } else if (strcmp(n->domain, "com.microsoft") == 0) {
        if (strcmp(n->op, "Gelu") == 0 && n->nin == 1) return TKO_ACT_GELU_ERF;
        if (strcmp(n->op, "FastGelu") == 0 && (n->nin == 1 || n->inputs[1] < 0)) return TKO_ACT_GELU_TANH;   /* no bias input */
    } else if (strcmp(n->domain, "tk") == 0 && strcmp(n->op, "FusedGelu") == 0)
        return tko_attr_int(n, "tanh", 0) ? TKO_ACT_GELU_TANH : TKO_ACT_GELU_ERF;
    return TKO_ACT_NONE;
}

/* Up to max live nodes after node i that read v; how many there are in all. */
static int readers(const TkoFuse *f, int i, int v, TkoNode **out, int max)
{
    int n = 0;
    for (int j = i + 1; j < f->g->nnodes; j++) {
        TkoNode *r = &f->g->nodes[j];
        if (f->dead[j]) continue;
        bool reads = false;
        for (int k = 0; k < r->nin; k++) reads |= r->inputs[k] == v;
        if (reads && n < max) out[n] = r;
        n += reads;
    }
    return n;
}

static bool is_default_op(const TkoNode *n, const char *op, int nin)
{
    return !*n->domain && strcmp(n->op, op) == 0 && n->nin == nin && n->nout == 1 && n->outputs[0] >= 0;
}

static TkoAttr *act_attr(TkoFuse *f, TkoAct act)
{
    TkoAttr *a = tko_alloc(&f->m->arena, sizeof *a);
    if (a) *a = (TkoAttr){ .name = "act", .type = TKO_ATTR_INT, .i = act };
    return a;
}

/* FusedLinear -> activation [-> Add residual], or FusedLinear -> Add residual. */
tk_status tko_fuse_linear_epilogue(TkoFuse *f, int i)
{
    TkoGraph *g = f->g;
    TkoNode *lin = &g->nodes[i];
    if (strcmp(lin->domain, "tk") != 0 || strcmp(lin->op, "FusedLinear") != 0 || lin->nin > 3 || lin->nout != 1) return TK_OK;
    if (tko_attr_int(lin, "act", TKO_ACT_NONE) != TKO_ACT_NONE) return TK_OK;   /* done already */
    int y = lin->outputs[0];
    if (y < 0 || y >= f->nuses) return TK_OK;
    TkoNode *rd[2], *act_node = NULL, *sig = NULL;
    TkoAct act = TKO_ACT_NONE;
    int nr = readers(f, i, y, rd, 2);
    if (f->uses[y] == 1 && nr == 1 && rd[0]->inputs[0] == y && (act = act_of(rd[0])) != TKO_ACT_NONE) act_node = rd[0];
    else if (f->uses[y] == 2 && nr == 2) {   /* y·sigmoid(y): Sigmoid(y) read only by a later Mul(y, ·) */
        TkoNode *sg = is_default_op(rd[0], "Sigmoid", 1) ? rd[0] : is_default_op(rd[1], "Sigmoid", 1) ? rd[1] : NULL;
        TkoNode *mul = sg == rd[0] ? rd[1] : rd[0];
        int s = sg ? sg->outputs[0] : -1;
        if (sg && s < f->nuses && f->uses[s] == 1 && is_default_op(mul, "Mul", 2) && tko_fuse_other_input(mul, y) == s && mul > sg)
            act = TKO_ACT_SILU, act_node = mul, sig = sg;
    }
    TkoNode *tail = act_node ? act_node : lin, *add = NULL;
    int t = tail->outputs[0], res = -1;
    /* the residual: Add(t, r) the one reader of t, r another value */
    if (t >= 0 && t < f->nuses && f->uses[t] == 1 && readers(f, (int)(tail - g->nodes), t, &add, 1) == 1 && is_default_op(add, "Add", 2)) {
        int r = tko_fuse_other_input(add, t);
        if (r >= 0 && r != t) res = r, tail = add;
    }
    if (tail == lin) return TK_OK;
    int inputs[4] = { lin->inputs[0], lin->inputs[1], lin->nin > 2 ? lin->inputs[2] : -1, res };
    TkoAttr *attrs = act_attr(f, act);
    if (!attrs) return tkr_error(f->m->ctx, TK_ERR_OUT_OF_MEMORY, "tk_onnx_load: out of memory fusing '%s'", tail->name);
    tko_fuse_kill(f, lin);
    if (sig) tko_fuse_kill(f, sig);
    if (act_node && act_node != tail) tko_fuse_kill(f, act_node);
    return tko_fuse_become(f, tail, "FusedLinear", inputs, res >= 0 ? 4 : inputs[2] >= 0 ? 3 : 2, attrs, 1);
}

/* ------------------------------------------------------------ FFN */

/* The FusedLinear making v with this activation, no residual, v read once. */
static TkoNode *linear_making(const TkoFuse *f, int v, TkoAct act)
{
    TkoNode *n = tko_fuse_producer_tk(f, v, "FusedLinear");
    if (!n || f->uses[v] != 1 || n->nin > 3 || tko_attr_int(n, "act", TKO_ACT_NONE) != act) return NULL;
    return n;
}

static bool has_bias(const TkoNode *lin) { return lin->nin > 2 && lin->inputs[2] >= 0; }

/* The constant of a FusedLinear weight value ([N, K]), if 2-D f32 or bf16. */
static tk_tensor *linear_weight_of(const TkoFuse *f, const TkoNode *lin)
{
    tk_tensor *w = lin->inputs[1] >= 0 ? f->g->values[lin->inputs[1]].constant : NULL;
    if (!w || tk_tensor_ndim(w) != 2) return NULL;
    tk_dtype dt = tk_tensor_dtype(w);
    return dt == TK_DTYPE_F32 || dt == TK_DTYPE_BF16 ? w : NULL;
}

/* The value holding FusedLinear weight wt [N, K] as tk_ffn wants it: [K, N]
 * contiguous (a view of the MatMul's own W where that is one), marked: packed
 * once on the first run. Shared by every FFN reading the same weight. */
static tk_status ffn_weight(TkoFuse *f, int wt_value, int *out)
{
    TkoGraph *g = f->g;
    char name[160];
    snprintf(name, sizeof name, "%s__ffn_weight", g->values[wt_value].name);
    int v = tko_value(&f->m->arena, g, name, true);
    if (v < 0) return tkr_error(f->m->ctx, TK_ERR_OUT_OF_MEMORY, "tk_onnx_load: out of memory");
    if (!g->values[v].constant) {
        tk_tensor *t = NULL, *c = NULL;
        tk_status s = tk_transpose(f->m->ctx, g->values[wt_value].constant, 0, 1, &t);
        if (!s) s = tk_contiguous(f->m->ctx, t, &c);
        if (!s) s = tk_mark_weight(f->m->ctx, c);
        tk_tensor_release(t);
        if (s) {
            tk_tensor_release(c);
            return s;
        }
        g->values[v].constant = c;
    }
    *out = v;
    return TK_OK;
}

/* AUTO's test: the ffn kernels pad D and F to 256 (their K steps, hidden
 * chunks and accumulator tiles); past twice the work two linears on the gemm
 * kernels' smaller tiles do less. */
static bool tiles_filled(int64_t d, int64_t f)
{
    double pd = (double)((d + 255) / 256 * 256), pf = (double)((f + 255) / 256 * 256);
    return pd * pf <= 2.0 * (double)d * (double)f;
}

/* FusedLinear(h, W2, [b2], [r]) whose h is an FFN's hidden activation -> FusedFfn. */
tk_status tko_fuse_ffn(TkoFuse *f, int i)
{
    TkoGraph *g = f->g;
    TkoNode *l2 = &g->nodes[i];
    if (f->m->opts.fuse_ffn == TK_ONNX_FFN_NEVER) return TK_OK;
    if (strcmp(l2->domain, "tk") != 0 || strcmp(l2->op, "FusedLinear") != 0 || tko_attr_int(l2, "act", TKO_ACT_NONE) != TKO_ACT_NONE)
        return TK_OK;
    int h = l2->inputs[0];
    if (h < 0 || h >= f->nuses) return TK_OK;
    /* the first product(s): a bias FFN's one linear, or SwiGLU's silu linear ⊙ plain linear */
    TkoNode *l1 = NULL, *l3 = NULL, *mul = NULL;
    tk_ffn_activation fa = TK_FFN_SWIGLU;
    static const struct {
        TkoAct act;
        tk_ffn_activation ffn;
    } bias_acts[] = { { TKO_ACT_RELU, TK_FFN_RELU }, { TKO_ACT_GELU_TANH, TK_FFN_GELU_TANH }, { TKO_ACT_GELU_ERF, TK_FFN_GELU_ERF } };
    for (size_t k = 0; k < sizeof bias_acts / sizeof *bias_acts && !l1; k++)
        if ((l1 = linear_making(f, h, bias_acts[k].act))) fa = bias_acts[k].ffn;
    if (!l1) {
        const TkoNode *m = tko_fuse_producer(f, h, "Mul");
        if (!m || f->uses[h] != 1 || m->nin != 2) return TK_OK;
        for (int k = 0; k < 2 && !l1; k++)
            if ((l1 = linear_making(f, m->inputs[k], TKO_ACT_SILU))) l3 = linear_making(f, m->inputs[1 - k], TKO_ACT_NONE);
        if (!l1 || !l3 || l1->inputs[0] != l3->inputs[0] || has_bias(l1) || has_bias(l3) || has_bias(l2)) return TK_OK;
        mul = &g->nodes[f->producer[h]];
    }
    /* shapes: W1 [F, D] (and W3), W2 [D, F] as the linears hold them, one dtype */
    tk_tensor *w1 = linear_weight_of(f, l1), *w2 = linear_weight_of(f, l2), *w3 = l3 ? linear_weight_of(f, l3) : NULL;
    if (!w1 || !w2 || (l3 && !w3)) return TK_OK;
    const int64_t *s1 = tk_tensor_shape(w1), *s2 = tk_tensor_shape(w2);
    int64_t ff = s1[0], d = s1[1];
    if (s2[0] != d || s2[1] != ff || tk_tensor_dtype(w2) != tk_tensor_dtype(w1)) return TK_OK;
    if (w3 && (tk_tensor_shape(w3)[0] != ff || tk_tensor_shape(w3)[1] != d || tk_tensor_dtype(w3) != tk_tensor_dtype(w1))) return TK_OK;
    if (f->m->opts.fuse_ffn == TK_ONNX_FFN_AUTO && !tiles_filled(d, ff)) return TK_OK;
    /* FusedFfn(x, w1, w3, w2, b1, b2, r), the weights [in, out] */
    int inputs[7] = { l1->inputs[0], -1, -1, -1, has_bias(l1) ? l1->inputs[2] : -1, has_bias(l2) ? l2->inputs[2] : -1,
                      l2->nin > 3 ? l2->inputs[3] : -1 };
    tk_status s = ffn_weight(f, l1->inputs[1], &inputs[1]);
    if (!s && l3) s = ffn_weight(f, l3->inputs[1], &inputs[2]);
    if (!s) s = ffn_weight(f, l2->inputs[1], &inputs[3]);
    if (s) return s;
    TkoAttr *attrs = tko_alloc(&f->m->arena, sizeof *attrs);
    if (!attrs) return tkr_error(f->m->ctx, TK_ERR_OUT_OF_MEMORY, "tk_onnx_load: out of memory fusing '%s'", l2->name);
    *attrs = (TkoAttr){ .name = "activation", .type = TKO_ATTR_INT, .i = fa };
    tko_fuse_kill(f, l1);
    if (l3) tko_fuse_kill(f, l3);
    if (mul) tko_fuse_kill(f, mul);
    int nin = 7;
    while (nin > 4 && inputs[nin - 1] < 0) nin--;
    return tko_fuse_become(f, l2, "FusedFfn", inputs, nin, attrs, 1);
}
