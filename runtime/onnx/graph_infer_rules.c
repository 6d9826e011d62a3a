/* graph_infer_rules.c — the inference's rules (graph_infer.c runs them):
 * the table keyed by op name (how the output's element type follows, which
 * input types the op takes, which inputs share one type, the shape function
 * and its variant), and the shape functions of the ops that compute:
 * element-wise (with the integer arithmetic of shape computations),
 * MatMul/Gemm, the windows of conv and pooling, reductions, attention, TopK,
 * the losses, Resize. The ops that move or make shapes have theirs in
 * graph_infer_layout.c. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph_infer_internal.h"

/* ------------------------------------------------------------ shape functions */

static void shape_same(Node *x, int arg)
{
    (void)arg;
    for (int k = 0; k < x->n->nout && k < 1; k++) copy_shape(x->c, out(x, k), in(x, 0));
    if (in(x, 0)->nval >= 0 && (!strcmp(x->n->op, "Identity") || !strcmp(x->n->op, "Cast"))) {
        const TkoInfer *i = in(x, 0);
        TkoInfer *o = out(x, 0);
        if (is_int_type(o->elem_type)) {
            set_val(x->c, o, i->nval);
            for (int k = 0; o->nval >= 0 && k < i->nval; k++) o->val[k] = i->val[k];
        }
    }
}

/* Dropout, BatchNormalization in inference, LayerNormalization: output 0 as input 0; a mask output too. */
static void shape_same_all(Node *x, int arg)
{
    (void)arg;
    copy_shape(x->c, out(x, 0), in(x, 0));
    if (!strcmp(x->n->op, "BatchNormalization") && x->n->nout > 1) out(x, 0)->ndim = -1;   /* training mode: left to the run */
    if (!strcmp(x->n->op, "LayerNormalization"))   /* mean and 1/std: the normalized dims kept as 1, in stash_type */
        for (int k = 1; k < x->n->nout && k < 3; k++) {
            const TkoInfer *d = in(x, 0);
            TkoInfer *o = out(x, k);
            o->elem_type = (int)tko_attr_int(x->n, "stash_type", 1);
            if (!known_rank(d)) continue;
            int axis = axis_of(tko_attr_int(x->n, "axis", -1), d->ndim);
            if (axis < 0 || axis >= d->ndim || !set_shape(x->c, o, d->ndim) || o->ndim < 0) continue;
            for (int e = 0; e < d->ndim; e++) o->dims[e] = e < axis ? d->dims[e] : tko_sym_const(&x->c->syms, 1);
        }
    if (!strcmp(x->n->op, "Dropout") && x->n->nout > 1) {
        out(x, 1)->elem_type = 9;
        copy_shape(x->c, out(x, 1), in(x, 0));
    }
}

/* Numpy broadcasting of every input; elements of small integer operands combined (Add/Sub/Mul/Div). */
static void shape_broadcast(Node *x, int arg)
{
    (void)arg;
    int rank = 0;
    for (int i = 0; i < x->n->nin; i++) {
        if (!has_in(x, i)) continue;
        if (!known_rank(in(x, i))) return;
        if (in(x, i)->ndim > rank) rank = in(x, i)->ndim;
    }
    TkoInfer *o = set_shape(x->c, out(x, 0), rank);
    if (o->ndim < 0) return;
    for (int d = 0; d < rank; d++) {
        const TkoSym *r = NULL;
        bool unknown = false, first_set = false;
        for (int i = 0; i < x->n->nin; i++) {
            if (!has_in(x, i)) continue;
            const TkoInfer *t = in(x, i);
            int dd = d - (rank - t->ndim);
            if (dd < 0) continue;
            const TkoSym *s = t->dims[dd];
            int64_t k;
            if (tko_sym_is_const(s, &k) && k == 1) {   /* broadcasts to anything */
                if (!first_set) r = s, first_set = true;
                continue;
            }
            if (!s) unknown = true;
            else if (!first_set || (tko_sym_is_const(r, &k) && k == 1)) r = s, first_set = true;
            else if (!tko_sym_eq(r, s)) unknown = true;   /* two different sizes: a symbol may be 1 */
        }
        o->dims[d] = unknown ? NULL : r;
    }
    /* elements of shape arithmetic (Shape(x)[0] * 16) */
    const char *op = x->n->op;
    int ar = !strcmp(op, "Add") ? 1 : !strcmp(op, "Sub") ? 2 : !strcmp(op, "Mul") ? 3 : !strcmp(op, "Div") ? 4 : 0;
    const TkoInfer *a = in(x, 0), *b = in(x, 1);
    if (!ar || x->n->nin != 2 || a->nval < 0 || b->nval < 0 || !is_int_type(o->elem_type)) return;
    if (a->nval != b->nval && a->nval != 1 && b->nval != 1) return;
    if ((a->nval == 1 && a->ndim > b->ndim) || (b->nval == 1 && b->ndim > a->ndim)) return;
    int nv = a->nval > b->nval ? a->nval : b->nval;
    set_val(x->c, o, nv);
    for (int k = 0; o->nval >= 0 && k < nv; k++) {
        const TkoSym *p = a->val[a->nval == 1 ? 0 : k], *q = b->val[b->nval == 1 ? 0 : k];
        int64_t pk, qk;
        if (ar == 4 && tko_sym_is_const(p, &pk) && tko_sym_is_const(q, &qk))   /* integer Div truncates */
            o->val[k] = qk && !(pk == INT64_MIN && qk == -1) ? tko_sym_const(&x->c->syms, pk / qk) : NULL;
        else o->val[k] = ar == 1 ? tko_sym_add(&x->c->syms, p, q, 1) : ar == 2 ? tko_sym_add(&x->c->syms, p, q, -1) : ar == 3 ? tko_sym_mul(&x->c->syms, p, q) : tko_sym_div(&x->c->syms, p, q);
    }
}

static void shape_matmul(Node *x, int arg)
{
    (void)arg;
    const TkoInfer *a = in(x, 0), *b = in(x, 1);
    if (!known_rank(a) || !known_rank(b) || a->ndim == 0 || b->ndim == 0) return;
    int ra = a->ndim == 1 ? 2 : a->ndim, rb = b->ndim == 1 ? 2 : b->ndim;
    int batch = (ra > rb ? ra : rb) - 2;
    int rank = batch + 2 - (a->ndim == 1) - (b->ndim == 1);
    TkoInfer *o = set_shape(x->c, out(x, 0), rank);
    if (o->ndim < 0) return;
    for (int d = 0; d < batch; d++) {   /* the batch dims broadcast */
        int da = d - (batch - (ra - 2)), db = d - (batch - (rb - 2));
        const TkoSym *sa = da >= 0 ? a->dims[da] : NULL, *sb = db >= 0 ? b->dims[db] : NULL;
        int64_t k;
        if (da < 0) o->dims[d] = sb;
        else if (db < 0) o->dims[d] = sa;
        else if (tko_sym_is_const(sa, &k) && k == 1) o->dims[d] = sb;
        else if (tko_sym_is_const(sb, &k) && k == 1) o->dims[d] = sa;
        else o->dims[d] = tko_sym_eq(sa, sb) ? sa : NULL;
    }
    int d = batch;
    if (a->ndim > 1) o->dims[d++] = a->dims[a->ndim - 2];
    if (b->ndim > 1) o->dims[d++] = b->dims[b->ndim - 1];
}

static void shape_gemm(Node *x, int arg)
{
    (void)arg;
    const TkoInfer *a = in(x, 0), *b = in(x, 1);
    if (a->ndim != 2 || b->ndim != 2) return;
    TkoInfer *o = set_shape(x->c, out(x, 0), 2);
    if (o->ndim < 0) return;
    o->dims[0] = a->dims[tko_attr_int(x->n, "transA", 0) ? 1 : 0];
    o->dims[1] = b->dims[tko_attr_int(x->n, "transB", 0) ? 0 : 1];
}

/* FusedLinear(x, wt [N, K]): [..., N]. */
static void shape_linear(Node *x, int arg)
{
    (void)arg;
    const TkoInfer *a = in(x, 0), *w = in(x, 1);
    if (!known_rank(a) || w->ndim != 2 || a->ndim < 1) return;
    copy_shape(x->c, out(x, 0), a);
    if (out(x, 0)->ndim == a->ndim) out(x, 0)->dims[a->ndim - 1] = w->dims[0];
}

/* Conv, ConvTranspose and the pools: [N, C, spatial...] with kernel, pads, strides, dilations, auto_pad. */
enum { CONV, CONV_T, POOL, GLOBAL_POOL };
static void shape_window(Node *x, int kind)
{
    const TkoInfer *xi = in(x, 0), *w = in(x, 1);
    if (!known_rank(xi) || xi->ndim < 2) return;
    int sp = xi->ndim - 2;
    TkoInfer *o = set_shape(x->c, out(x, 0), xi->ndim);
    if (o->ndim < 0) return;
    o->dims[0] = xi->dims[0];
    o->dims[1] = xi->dims[1];
    int64_t kernel[8] = { 0 };
    int nk = 0;
    if (kind == GLOBAL_POOL) {
        for (int d = 0; d < sp; d++) o->dims[2 + d] = tko_sym_const(&x->c->syms, 1);
        return;
    }
    if (sp > 8) goto unknown;
    const int64_t *ks = tko_attr_ints(x->n, "kernel_shape", &nk);
    if (kind == CONV || kind == CONV_T) {
        int64_t group = tko_attr_int(x->n, "group", 1);
        if (w->ndim != xi->ndim) goto unknown;
        o->dims[1] = kind == CONV ? w->dims[0] : tko_sym_mul(&x->c->syms, w->dims[1], tko_sym_const(&x->c->syms, group));
        if (!ks) {
            for (int d = 0; d < sp; d++)
                if (!tko_sym_is_const(w->dims[2 + d], &kernel[d])) goto unknown_spatial;
            nk = sp;
        }
    }
    if (ks) {
        if (nk != sp) goto unknown;
        memcpy(kernel, ks, (size_t)sp * sizeof *ks);
    } else if (kind == POOL) goto unknown;
    int n1, n2, n3, n4, n5;
    const int64_t *pads = tko_attr_ints(x->n, "pads", &n1), *strides = tko_attr_ints(x->n, "strides", &n2);
    const int64_t *dil = tko_attr_ints(x->n, "dilations", &n3), *outpad = tko_attr_ints(x->n, "output_padding", &n4);
    const int64_t *oshape = tko_attr_ints(x->n, "output_shape", &n5);
    const char *autopad = tko_attr_string(x->n, "auto_pad", "NOTSET");
    bool ceil_mode = tko_attr_int(x->n, "ceil_mode", 0) != 0;
    if ((pads && n1 != 2 * sp) || (strides && n2 != sp) || (dil && n3 != sp) || (outpad && n4 != sp)) goto unknown_spatial;
    for (int d = 0; d < sp; d++) {
        int64_t s = strides ? strides[d] : 1, dl = dil ? dil[d] : 1, k = kernel[d];
        int64_t pb = pads ? pads[d] : 0, pe = pads ? pads[sp + d] : 0;
        const TkoSym *in_d = xi->dims[2 + d], *r;
        if (s <= 0 || dl <= 0) goto unknown_spatial;
        if (kind == CONV_T) {
            if (oshape) {
                if (n5 != sp) goto unknown_spatial;
                r = tko_sym_const(&x->c->syms, oshape[d]);
            } else if (strcmp(autopad, "SAME_UPPER") == 0 || strcmp(autopad, "SAME_LOWER") == 0) {
                r = tko_sym_mul(&x->c->syms, in_d, tko_sym_const(&x->c->syms, s));
            } else {   /* s*(in-1) + op + (k-1)*d + 1 - pads */
                r = tko_sym_addc(&x->c->syms, tko_sym_mul(&x->c->syms, tko_sym_addc(&x->c->syms, in_d, -1), tko_sym_const(&x->c->syms, s)),
                             (outpad ? outpad[d] : 0) + (k - 1) * dl + 1 - pb - pe);
            }
        } else if (strcmp(autopad, "SAME_UPPER") == 0 || strcmp(autopad, "SAME_LOWER") == 0) {
            r = tko_sym_ceildiv(&x->c->syms, in_d, s);
        } else if (strcmp(autopad, "VALID") == 0) {
            r = tko_sym_addc(&x->c->syms, tko_sym_divc(&x->c->syms, tko_sym_addc(&x->c->syms, in_d, -((k - 1) * dl + 1)), s), 1);
        } else {
            const TkoSym *span = tko_sym_addc(&x->c->syms, in_d, pb + pe - (k - 1) * dl - 1);
            if (!ceil_mode) r = tko_sym_addc(&x->c->syms, tko_sym_divc(&x->c->syms, span, s), 1);
            else {   /* ceil, but the last window must start inside the input or left pad */
                int64_t v, n;
                if (!tko_sym_is_const(span, &v) || !tko_sym_is_const(in_d, &n)) r = NULL;
                else {
                    int64_t o2 = (v + s - 1) / s + 1;
                    if ((o2 - 1) * s >= n + pb) o2--;
                    r = tko_sym_const(&x->c->syms, o2);
                }
            }
        }
        o->dims[2 + d] = r;
    }
    if (kind == POOL && x->n->nout > 1 && x->n->outputs[1] >= 0) {   /* MaxPool's indices */
        out(x, 1)->elem_type = 7;
        copy_shape(x->c, out(x, 1), o);
    }
    return;
unknown_spatial:
    for (int d = 0; d < sp; d++) o->dims[2 + d] = NULL;
    return;
unknown:
    o->ndim = -1;
}

/* Reduce* (arg 1: axes may come as input 1; 0: attribute only), ArgMax/ArgMin (arg 2: one axis). */
static void shape_reduce(Node *x, int arg)
{
    const TkoInfer *d = in(x, 0);
    if (!known_rank(d)) return;
    bool keep = tko_attr_int(x->n, "keepdims", 1) != 0;
    int64_t axes[MAX_VAL];
    int na;
    if (arg == 2) axes[0] = tko_attr_int(x->n, "axis", 0), na = 1;
    else if (!axes_of(x, arg == 1 ? 1 : 99, axes, &na)) {
        if (keep) set_shape(x->c, out(x, 0), d->ndim);
        return;
    }
    bool red[TK_MAX_DIMS + 8] = { 0 };
    if (d->ndim > TK_MAX_DIMS + 8) return;
    if (na <= 0) {
        if (na == 0 && tko_attr_int(x->n, "noop_with_empty_axes", 0)) {
            copy_shape(x->c, out(x, 0), d);
            return;
        }
        for (int k = 0; k < d->ndim; k++) red[k] = true;
    }
    for (int k = 0; k < na; k++) {
        int a = axis_of(axes[k], d->ndim);
        if (a < 0 || a >= d->ndim) return;
        red[a] = true;
    }
    int r = 0;
    for (int k = 0; k < d->ndim; k++) r += keep || !red[k];
    TkoInfer *o = set_shape(x->c, out(x, 0), r);
    r = 0;
    for (int k = 0; o->ndim >= 0 && k < d->ndim; k++)
        if (!red[k]) o->dims[r++] = d->dims[k];
        else if (keep) o->dims[r++] = tko_sym_const(&x->c->syms, 1);
}

/* Attention (opset 23): Y as Q with V's head size; 3-D inputs use the head counts. */
static void shape_attention(Node *x, int arg)
{
    (void)arg;
    const TkoInfer *q = in(x, 0), *v = in(x, 2);
    if (!known_rank(q) || !known_rank(v) || q->ndim != v->ndim || q->ndim < 3) return;
    TkoInfer *o = set_shape(x->c, out(x, 0), q->ndim);
    if (o->ndim < 0) return;
    for (int k = 0; k < q->ndim - 1; k++) o->dims[k] = q->dims[k];
    if (q->ndim == 4 && !strcmp(x->n->op, "Attention")) {   /* present_key / present_value: the past and the new keys, on the sequence axis */
        const TkoInfer *k = in(x, 1);
        for (int j = 1; j <= 2 && j < x->n->nout; j++) {
            const TkoInfer *cur = j == 1 ? k : v, *past = in(x, 3 + j);
            if (cur->ndim != 4 || (has_in(x, 3 + j) && past->ndim != 4)) continue;
            TkoInfer *p = out(x, j);
            p->elem_type = cur->elem_type;
            if (!set_shape(x->c, p, 4) || p->ndim < 0) continue;
            for (int e = 0; e < 4; e++) p->dims[e] = cur->dims[e];
            if (has_in(x, 3 + j)) p->dims[2] = tko_sym_add(&x->c->syms, past->dims[2], cur->dims[2], 1);
        }
    }
    if (q->ndim == 4 || !strcmp(x->n->domain, "tk")) o->dims[q->ndim - 1] = v->dims[v->ndim - 1];
    else {
        int64_t qh = tko_attr_int(x->n, "q_num_heads", 0), kvh = tko_attr_int(x->n, "kv_num_heads", 0);
        o->dims[2] = qh > 0 && kvh > 0 ? tko_sym_mul(&x->c->syms, tko_sym_div(&x->c->syms, v->dims[2], tko_sym_const(&x->c->syms, kvh)), tko_sym_const(&x->c->syms, qh)) : NULL;
    }
}

/* TopK: values and int64 indices, the axis sized k when k is known. */
static void shape_topk(Node *x, int arg)
{
    (void)arg;
    const TkoInfer *d = in(x, 0);
    if (x->n->nout > 1) out(x, 1)->elem_type = 7;
    if (!known_rank(d)) return;
    int axis = axis_of(tko_attr_int(x->n, "axis", -1), d->ndim);
    int64_t k[1];
    int nk;
    bool kk = x->n->opset < 10 ? (k[0] = tko_attr_int(x->n, "k", -1)) >= 0 : const_ints(x, 1, k, &nk) && nk == 1;
    for (int j = 0; j < 2 && j < x->n->nout; j++) {
        TkoInfer *o = set_shape(x->c, out(x, j), d->ndim);
        for (int e = 0; o->ndim >= 0 && e < d->ndim; e++) o->dims[e] = e == axis ? (kk ? tko_sym_const(&x->c->syms, k[0]) : NULL) : d->dims[e];
    }
}

/* Loss ops: reduction 'none' keeps the target's shape (input 1), otherwise a scalar;
 * SoftmaxCrossEntropyLoss's log_prob (output 1) is shaped like the scores. */
static void shape_loss(Node *x, int arg)
{
    (void)arg;
    const char *red = tko_attr_string(x->n, "reduction", "mean");
    if (strcmp(red, "none") == 0) copy_shape(x->c, out(x, 0), in(x, 1));
    else set_shape(x->c, out(x, 0), 0);
    if (x->n->nout > 1) {
        out(x, 1)->elem_type = in(x, 0)->elem_type;
        copy_shape(x->c, out(x, 1), in(x, 0));
    }
}

/* Shaped like input arg: GatherElements (the indices), the scatters (the data), EyeLike. */
static void shape_like_input(Node *x, int arg) { copy_shape(x->c, out(x, 0), in(x, arg)); }

/* NonMaxSuppression: [selected, 3]. */
static void shape_nms(Node *x, int arg)
{
    (void)arg;
    TkoInfer *o = set_shape(x->c, out(x, 0), 2);
    if (o->ndim == 2) o->dims[1] = tko_sym_const(&x->c->syms, 3);
}

/* Resize with known sizes, or constant scales on known dims (floor(size * scale)). */
static void shape_resize(Node *x, int arg)
{
    (void)arg;
    const TkoInfer *d = in(x, 0);
    if (!known_rank(d)) return;
    TkoInfer *o = set_shape(x->c, out(x, 0), d->ndim);
    if (o->ndim < 0) return;
    const char *policy = tko_attr_string(x->n, "keep_aspect_ratio_policy", "stretch");
    const char *mode = tko_attr_string(x->n, "coordinate_transformation_mode", "half_pixel");
    if (tko_attr(x->n, "axes") || strcmp(policy, "stretch") != 0 || strcmp(mode, "tf_crop_and_resize") == 0) return;
    int si = x->n->opset < 11 ? 1 : 2;   /* Resize-10: (X, scales) */
    if (x->n->opset >= 11 && has_in(x, 3) && in(x, 3)->nval == d->ndim) {
        for (int k = 0; k < d->ndim; k++) o->dims[k] = in(x, 3)->val[k];
        return;
    }
    const TkoValue *sv = has_in(x, si) ? &x->g->values[x->n->inputs[si]] : NULL;
    if (!sv || !sv->constant || tk_tensor_numel(sv->constant) != d->ndim || tk_tensor_ndim(sv->constant) != 1) return;
    const tk_tensor *t = sv->constant;
    for (int k = 0; k < d->ndim; k++) {
        double sc = tkr_load_f((const char *)t->storage->data + (t->offset + k * t->strides[0]) * (int64_t)tk_dtype_size(t->dtype), t->dtype);
        int64_t n;
        if (sc == 1.0) o->dims[k] = d->dims[k];
        else if (tko_sym_is_const(d->dims[k], &n)) o->dims[k] = tko_sym_const(&x->c->syms, (int64_t)__builtin_floor((double)n * sc));
    }
}

/* ------------------------------------------------------------ the table */

#define EW_UNARY_FLOAT "Exp,Log,Sqrt,Sin,Cos,Tan,Asin,Acos,Atan,Sinh,Cosh,Asinh,Acosh,Atanh,Sigmoid,Tanh,Erf,Reciprocal,Softplus," \
                       "Softsign,Elu,Selu,HardSigmoid,HardSwish,Gelu,Mish,Celu,ThresholdedRelu,Round,Floor,Ceil"
#define EW_UNARY_ANY "Identity,Relu,Abs,Neg,Sign,LeakyRelu,Clip,Shrink,CumSum,Trilu,ReverseSequence,FusedGelu,Softmax,LogSoftmax,Hardmax," \
                     "LpNormalization,MeanVarianceNormalization,LRN,InstanceNormalization,GroupNormalization,RMSNormalization," \
                     "SkipLayerNormalization,SimplifiedLayerNormalization,BiasGelu,FastGelu,QuickGelu,Swish"
#define EW_BINARY "Add,Sub,Mul,Div,Max,Min,Sum,Mean,Mod,PRelu"

static const Rule RULES[] = {
    { "Constant", "", DT_NONE, 0, NULL, 0, 0, 0, 0, 0, tko_shape_constant, 0 },
    { EW_UNARY_FLOAT, "*", DT_IN, 0, NULL, 0, T_FLOAT, 0, 0, 0, shape_same, 0 },
    { EW_UNARY_ANY, "*", DT_IN, 0, NULL, 0, 0, 0, 0, 0, shape_same, 0 },
    { "IsNaN,IsInf", "", DT_FIXED, 0, NULL, 9, T_FLOAT, 0, 0, 0, shape_same, 0 },
    { "Not", "", DT_FIXED, 0, NULL, 9, T_BOOL, 0, 0, 0, shape_same, 0 },
    { "BitwiseNot", "", DT_IN, 0, NULL, 0, T_INT | T_UINT, 0, 0, 0, shape_same, 0 },
    { "Cast", "", DT_ATTR, 0, "to", 0, 0, 0, 0, 0, shape_same, 0 },
    { "CastLike", "", DT_IN, 1, NULL, 0, 0, 0, 0, 0, shape_same, 0 },
    { "Dropout,BatchNormalization,LayerNormalization", "", DT_IN, 0, NULL, 0, T_FLOAT, 0, 0, 0, shape_same_all, 0 },
    { EW_BINARY, "", DT_IN, 0, NULL, 0, T_NUM, 0, 0, -1, shape_broadcast, 0 },
    { "Pow", "", DT_IN, 0, NULL, 0, T_NUM, 0, 0, 0, shape_broadcast, 0 },
    { "BitShift,BitwiseAnd,BitwiseOr,BitwiseXor", "", DT_IN, 0, NULL, 0, T_INT | T_UINT, 0, 0, 2, shape_broadcast, 0 },
    { "And,Or,Xor", "", DT_FIXED, 0, NULL, 9, T_BOOL, 0, 0, 2, shape_broadcast, 0 },
    { "Equal,Less,Greater,LessOrEqual,GreaterOrEqual", "", DT_FIXED, 0, NULL, 9, 0, 0, 0, 2, shape_broadcast, 0 },
    { "Where", "", DT_IN, 1, NULL, 0, T_BOOL, 0, 1, 2, shape_broadcast, 0 },
    { "MatMul", "", DT_IN, 0, NULL, 0, T_NUM, 0, 0, 2, shape_matmul, 0 },
    { "Gemm", "", DT_IN, 0, NULL, 0, T_NUM, 0, 0, 2, shape_gemm, 0 },
    { "FusedLinear", "tk", DT_IN, 0, NULL, 0, 0, 0, 0, 0, shape_linear, 0 },
    { "Conv", "", DT_IN, 0, NULL, 0, T_FLOAT, 0, 0, 2, shape_window, CONV },
    { "ConvTranspose", "", DT_IN, 0, NULL, 0, T_FLOAT, 0, 0, 2, shape_window, CONV_T },
    { "MaxPool,AveragePool,LpPool", "", DT_IN, 0, NULL, 0, 0, 0, 0, 0, shape_window, POOL },
    { "GlobalAveragePool,GlobalMaxPool,GlobalLpPool", "", DT_IN, 0, NULL, 0, T_FLOAT, 0, 0, 0, shape_window, GLOBAL_POOL },
    { "Reshape", "", DT_IN, 0, NULL, 0, 0, 0, 0, 0, tko_shape_reshape, 0 },
    { "Flatten", "", DT_IN, 0, NULL, 0, 0, 0, 0, 0, tko_shape_flatten, 0 },
    { "Transpose", "", DT_IN, 0, NULL, 0, 0, 0, 0, 0, tko_shape_transpose, 0 },
    { "Concat", "", DT_IN, 0, NULL, 0, 0, 0, 0, -1, tko_shape_concat, 0 },
    { "Split", "", DT_IN, 0, NULL, 0, 0, 0, 0, 0, tko_shape_split, 0 },
    { "Slice", "", DT_IN, 0, NULL, 0, 0, 0, 0, 0, tko_shape_slice, 0 },
    { "Squeeze", "", DT_IN, 0, NULL, 0, 0, 0, 0, 0, tko_shape_squeeze, 0 },
    { "Unsqueeze", "", DT_IN, 0, NULL, 0, 0, 0, 0, 0, tko_shape_squeeze, 1 },
    { "Gather", "", DT_IN, 0, NULL, 0, 0, 0, 0, 0, tko_shape_gather, 0 },
    { "Shape", "", DT_FIXED, 0, NULL, 7, 0, 0, 0, 0, tko_shape_shape, 0 },
    { "Size", "", DT_FIXED, 0, NULL, 7, 0, 0, 0, 0, tko_shape_size, 0 },
    { "Expand", "", DT_IN, 0, NULL, 0, 0, 0, 0, 0, tko_shape_from_shape_input, 1 },
    { "ConstantOfShape", "", DT_NONE, 0, NULL, 0, 0, 0, 0, 0, tko_shape_from_shape_input, 0 },
    { "ReduceSum,ReduceMean,ReduceMax,ReduceMin,ReduceProd,ReduceL1,ReduceL2,ReduceLogSum,ReduceLogSumExp,ReduceSumSquare", "",
      DT_IN, 0, NULL, 0, 0, 0, 0, 0, shape_reduce, 1 },
    { "ArgMax,ArgMin", "", DT_FIXED, 0, NULL, 7, 0, 0, 0, 0, shape_reduce, 2 },
    { "Range", "", DT_IN, 0, NULL, 0, 0, 0, 0, -1, tko_shape_range, 0 },
    { "Tile", "", DT_IN, 0, NULL, 0, 0, 0, 0, 0, tko_shape_tile, 0 },
    { "Pad", "", DT_IN, 0, NULL, 0, 0, 0, 0, 0, tko_shape_pad, 0 },
    { "Attention", "", DT_IN, 0, NULL, 0, T_FLOAT, 0, 0, 0, shape_attention, 0 },
    { "FusedAttention", "tk", DT_IN, 0, NULL, 0, 0, 0, 0, 0, shape_attention, 0 },
    { "TopK", "", DT_IN, 0, NULL, 0, 0, 0, 0, 0, shape_topk, 0 },
    { "EyeLike", "", DT_ATTR, 0, "dtype", -1, 0, 0, 0, 0, shape_like_input, 0 },
    { "RandomNormalLike,RandomUniformLike", "", DT_ATTR, 0, "dtype", -1, 0, 0, 0, 0, shape_like_input, 0 },
    { "NonZero", "", DT_FIXED, 0, NULL, 7, 0, 0, 0, 0, NULL, 0 },
    { "NonMaxSuppression", "", DT_FIXED, 0, NULL, 7, 0, 0, 0, 0, shape_nms, 0 },
    { "NegativeLogLikelihoodLoss,SoftmaxCrossEntropyLoss", "", DT_IN, 0, NULL, 0, T_FLOAT, 0, 0, 0, shape_loss, 0 },
    { "DepthToSpace", "", DT_IN, 0, NULL, 0, 0, 0, 0, 0, tko_shape_depth_space, 0 },
    { "SpaceToDepth", "", DT_IN, 0, NULL, 0, 0, 0, 0, 0, tko_shape_depth_space, 1 },
    { "GatherElements", "", DT_IN, 0, NULL, 0, 0, 0, 0, 0, shape_like_input, 1 },
    { "ScatterND,ScatterElements,Scatter,CumProd", "", DT_IN, 0, NULL, 0, 0, 0, 0, 0, shape_like_input, 0 },
    { "Resize", "", DT_IN, 0, NULL, 0, 0, 0, 0, 0, shape_resize, 0 },
    { "Upsample,GatherND,Compress,GridSample,RoiAlign,Einsum", "", DT_IN, 0, NULL, 0, 0, 0, 0, 0, NULL, 0 },
};

const Rule *tko_infer_rule_of(const TkoNode *n)
{
    for (size_t k = 0; k < sizeof RULES / sizeof RULES[0]; k++) {
        const Rule *r = &RULES[k];
        bool dom = strcmp(r->domain, "*") == 0 ? (!*n->domain || !strcmp(n->domain, "com.microsoft") || !strcmp(n->domain, "tk"))
                                               : strcmp(r->domain, n->domain) == 0;
        if (dom && tko_listed(r->ops, n->op)) return r;
    }
    return NULL;
}
