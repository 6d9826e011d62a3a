/* graph_infer.c — every value's element type and shape before anything
 * runs. A size is a constant, a dim name of the graph inputs ("batch"), or a
 * small expression of them in one canonical form (graph_infer_sym.c), so two
 * sizes are equal exactly when their texts are: "batch*16", "(H+1)/2".
 *
 * The rules are a table keyed by op name (RULES below): how the output's
 * element type follows (an input's, a 'to' / 'dtype' attribute, bool, int64),
 * which input types the op takes, which inputs must share one type, and a
 * shape function per family. An op without a row gets nothing: element type
 * and shape unknown, never wrong. Small integer tensors (shapes being
 * computed: Shape -> Gather -> Concat -> Reshape) carry their elements as
 * sizes too, so a reshape to a computed shape keeps its symbolic dims.
 *
 * What the model's value_info says is checked against what is inferred (a
 * conflict is a load problem naming the node and the value) and fills in
 * what inference could not. Type problems go to graph_check.c's list, so the
 * user gets one message. With opts.check_infer, tko_infer_verify
 * (graph_infer_check.c) compares a run's values with the inference, for tests. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph_infer_sym.h"
#include "op.h"
#include "onnx_tensor.h"

#define MAX_VAL 16   /* the longest integer tensor whose elements are tracked */

typedef struct {
    TkoModel *m;
    TkoSymMaker syms;
} Infer;

static void *alloc(Infer *c, size_t bytes)
{
    void *p = tko_alloc(&c->m->arena, bytes);
    if (!p) c->syms.oom = true;
    return p;
}

static char *dupstr(Infer *c, const char *s)
{
    char *p = tko_strndup(&c->m->arena, s, strlen(s));
    if (!p) c->syms.oom = true;
    return p;
}


/* ------------------------------------------------------------ inferred records */

static bool known_rank(const TkoInfer *t) { return t->ndim >= 0; }

static TkoInfer *set_shape(Infer *c, TkoInfer *t, int ndim)
{
    t->ndim = ndim;
    t->dims = ndim > 0 ? alloc(c, (size_t)ndim * sizeof *t->dims) : NULL;
    if (ndim > 0 && !t->dims) t->ndim = -1;
    return t;
}

static void set_val(Infer *c, TkoInfer *t, int n)
{
    t->val = alloc(c, (size_t)(n + 1) * sizeof *t->val);
    t->nval = t->val ? n : -1;
}

static bool is_int_type(int et) { return et == 2 || et == 3 || et == 4 || et == 5 || et == 6 || et == 7 || et == 12 || et == 13; }

/* The record of a constant tensor: exact, and its elements when it is a small integer one. */
static void from_tensor(Infer *c, TkoInfer *t, const tk_tensor *x)
{
    t->elem_type = tkr_onnx_type_of(tk_tensor_dtype(x));
    set_shape(c, t, tk_tensor_ndim(x));
    for (int d = 0; d < t->ndim; d++) t->dims[d] = tko_sym_const(&c->syms, tk_tensor_shape(x)[d]);
    int64_t n = tk_tensor_numel(x);
    t->nval = -1;
    if (!is_int_type(t->elem_type) || tk_tensor_ndim(x) > 1 || n > MAX_VAL) return;
    set_val(c, t, (int)n);
    int64_t idx = 0;
    for (int k = 0; t->nval >= 0 && k < n; k++, idx++) {
        int64_t off = x->offset + (x->ndim ? idx * x->strides[0] : 0);
        t->val[k] = tko_sym_const(&c->syms, tkr_load_i((const char *)x->storage->data + off * (int64_t)tk_dtype_size(x->dtype), x->dtype));
    }
}

/* The model's declared type as a record (names become sizes). */
static void from_declared(Infer *c, TkoInfer *t, const TkoType *ty)
{
    if (!ty->known) return;
    t->elem_type = ty->elem_type;
    if (ty->ndim < 0) return;
    set_shape(c, t, ty->ndim);
    for (int d = 0; d < t->ndim; d++)
        t->dims[d] = ty->dims[d] >= 0 ? tko_sym_const(&c->syms, ty->dims[d])
                     : ty->dim_names[d] && *ty->dim_names[d] && strcmp(ty->dim_names[d], "?") != 0 ? tko_sym_name(&c->syms, ty->dim_names[d])
                                                                                                : NULL;
}

/* ------------------------------------------------------------ one node's context */

typedef struct {
    Infer *c;
    TkoGraph *g;
    const TkoNode *n;
    TkoInfer none;           /* an omitted or unknown input */
    TkoInfer scratch;        /* an omitted output */
} Node;

static const TkoInfer *in(Node *x, int i)
{
    if (i >= x->n->nin || x->n->inputs[i] < 0) return &x->none;
    return &x->g->values[x->n->inputs[i]].inf;
}

static bool has_in(Node *x, int i) { return i < x->n->nin && x->n->inputs[i] >= 0; }

static TkoInfer *out(Node *x, int k)
{
    if (k >= x->n->nout || x->n->outputs[k] < 0) {
        x->scratch = (TkoInfer){ 0, -1, NULL, -1, NULL, false, true };
        return &x->scratch;
    }
    return &x->g->values[x->n->outputs[k]].inf;
}

static int axis_of(int64_t a, int rank) { return a < 0 ? (int)(a + rank) : (int)a; }

static void copy_shape(Infer *c, TkoInfer *o, const TkoInfer *i)
{
    if (!known_rank(i)) return;
    set_shape(c, o, i->ndim);
    for (int d = 0; d < o->ndim; d++) o->dims[d] = i->dims[d];
}

/* The elements of integer input i (a shape, axes, pads) as constants; false when not all known. */
static bool const_ints(Node *x, int i, int64_t *v, int *n)
{
    const TkoInfer *t = in(x, i);
    if (t->nval < 0) return false;
    for (int k = 0; k < t->nval; k++)
        if (!tko_sym_is_const(t->val[k], &v[k])) return false;
    *n = t->nval;
    return true;
}

/* axes from the attribute (older opsets) or input i (newer); false when not known. *n = -1: none given. */
static bool axes_of(Node *x, int i, int64_t *axes, int *n)
{
    int na;
    const int64_t *a = tko_attr_ints(x->n, "axes", &na);
    if (a) {
        if (na > MAX_VAL) return false;
        memcpy(axes, a, (size_t)na * sizeof *a);
        *n = na;
        return true;
    }
    int64_t len;
    if (has_in(x, i) && in(x, i)->ndim == 1 && tko_sym_is_const(in(x, i)->dims[0], &len) && len == 0) return *n = 0, true;   /* empty: the default */
    if (has_in(x, i)) return const_ints(x, i, axes, n);
    *n = -1;
    return true;
}

/* ------------------------------------------------------------ shape functions */

typedef void (*ShapeFn)(Node *x, int arg);

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

static void shape_reshape(Node *x, int arg)
{
    (void)arg;
    const TkoInfer *d = in(x, 0), *s = in(x, 1);
    int64_t r;
    if (s->nval < 0) {
        if (s->ndim == 1 && tko_sym_is_const(s->dims[0], &r) && r <= TK_MAX_DIMS) set_shape(x->c, out(x, 0), (int)r);   /* the rank: the shape's length */
        return;
    }
    int n = s->nval;
    bool allowzero = tko_attr_int(x->n, "allowzero", 0) != 0;
    TkoInfer *o = set_shape(x->c, out(x, 0), n);
    if (o->ndim < 0) return;
    int infer_at = -1;
    const TkoSym *known = tko_sym_const(&x->c->syms, 1);
    for (int k = 0; k < n; k++) {
        int64_t v;
        const TkoSym *e = s->val[k];
        if (tko_sym_is_const(e, &v) && v == -1) {
            infer_at = k;
            continue;
        }
        if (tko_sym_is_const(e, &v) && v == 0 && !allowzero) e = known_rank(d) && k < d->ndim ? d->dims[k] : NULL;
        o->dims[k] = e;
        known = tko_sym_mul(&x->c->syms, known, e);
    }
    if (infer_at >= 0) {
        const TkoSym *total = known_rank(d) ? tko_sym_const(&x->c->syms, 1) : NULL;
        for (int k = 0; total && k < d->ndim; k++) total = tko_sym_mul(&x->c->syms, total, d->dims[k]);
        o->dims[infer_at] = tko_sym_div(&x->c->syms, total, known);
    }
}

static void shape_flatten(Node *x, int arg)
{
    (void)arg;
    const TkoInfer *d = in(x, 0);
    if (!known_rank(d)) return;
    int axis = axis_of(tko_attr_int(x->n, "axis", 1), d->ndim);
    if (axis < 0 || axis > d->ndim) return;
    TkoInfer *o = set_shape(x->c, out(x, 0), 2);
    if (o->ndim < 0) return;
    o->dims[0] = o->dims[1] = tko_sym_const(&x->c->syms, 1);
    for (int k = 0; k < d->ndim; k++) o->dims[k < axis ? 0 : 1] = tko_sym_mul(&x->c->syms, o->dims[k < axis ? 0 : 1], d->dims[k]);
}

static void shape_transpose(Node *x, int arg)
{
    (void)arg;
    const TkoInfer *d = in(x, 0);
    if (!known_rank(d)) return;
    int np;
    const int64_t *perm = tko_attr_ints(x->n, "perm", &np);
    if (perm && np != d->ndim) return;
    TkoInfer *o = set_shape(x->c, out(x, 0), d->ndim);
    for (int k = 0; k < o->ndim; k++) {
        int64_t p = perm ? perm[k] : d->ndim - 1 - k;
        o->dims[k] = p >= 0 && p < d->ndim ? d->dims[p] : NULL;
    }
}

static void shape_concat(Node *x, int arg)
{
    (void)arg;
    const TkoInfer *f = in(x, 0);
    if (!known_rank(f)) return;
    int rank = f->ndim;
    int axis = axis_of(tko_attr_int(x->n, "axis", 0), rank);
    if (axis < 0 || axis >= rank) return;
    TkoInfer *o = set_shape(x->c, out(x, 0), rank);
    if (o->ndim < 0) return;
    for (int d = 0; d < rank; d++) o->dims[d] = d == axis ? tko_sym_const(&x->c->syms, 0) : NULL;
    bool vals = rank == 1;
    int nv = 0;
    for (int i = 0; i < x->n->nin; i++) {
        const TkoInfer *t = in(x, i);
        if (t->ndim != rank) {
            o->ndim = -1;
            return;
        }
        for (int d = 0; d < rank; d++)
            if (d == axis) o->dims[d] = tko_sym_add(&x->c->syms, o->dims[d], t->dims[d], 1);
            else if (!o->dims[d]) o->dims[d] = t->dims[d];
        vals &= t->nval >= 0;
        if (vals) nv += t->nval;
    }
    if (!vals || nv > MAX_VAL || !is_int_type(o->elem_type)) return;
    set_val(x->c, o, nv);
    nv = 0;
    for (int i = 0; o->nval >= 0 && i < x->n->nin; i++)
        for (int k = 0; k < in(x, i)->nval; k++) o->val[nv++] = in(x, i)->val[k];
}

static void shape_split(Node *x, int arg)
{
    (void)arg;
    const TkoInfer *d = in(x, 0);
    if (!known_rank(d)) return;
    int axis = axis_of(tko_attr_int(x->n, "axis", 0), d->ndim);
    if (axis < 0 || axis >= d->ndim) return;
    int64_t sizes[MAX_VAL];
    int ns = -1;
    const int64_t *sa = tko_attr_ints(x->n, "split", &ns);
    if (sa) {
        if (ns > MAX_VAL) return;
        memcpy(sizes, sa, (size_t)ns * sizeof *sa);
    } else if (has_in(x, 1)) {
        if (!const_ints(x, 1, sizes, &ns)) ns = -2;   /* sizes given but not known */
    } else ns = -1;   /* equal parts */
    int nout = x->n->nout;
    for (int k = 0; k < nout; k++) {
        TkoInfer *o = set_shape(x->c, out(x, k), d->ndim);
        if (o->ndim < 0) continue;
        for (int e = 0; e < d->ndim; e++) o->dims[e] = d->dims[e];
        int64_t total;
        if (ns >= 0) o->dims[axis] = ns == nout ? tko_sym_const(&x->c->syms, sizes[k]) : NULL;
        else if (ns == -1 && tko_sym_is_const(d->dims[axis], &total)) {   /* equal parts, the last smaller */
            int64_t nos = tko_attr_int(x->n, "num_outputs", nout), part = (total + nos - 1) / nos;
            int64_t size = k < total / part ? part : (k == total / part ? total - part * k : 0);
            o->dims[axis] = nos == nout && part > 0 ? tko_sym_const(&x->c->syms, size) : NULL;
        } else if (ns == -1 && !tko_attr(x->n, "num_outputs")) o->dims[axis] = tko_sym_div(&x->c->syms, d->dims[axis], tko_sym_const(&x->c->syms, nout));
        else o->dims[axis] = NULL;
    }
}

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

static void shape_slice(Node *x, int arg)
{
    (void)arg;
    const TkoInfer *d = in(x, 0);
    if (!known_rank(d)) return;
    int64_t starts[MAX_VAL], ends[MAX_VAL], axes[MAX_VAL], steps[MAX_VAL];
    int n1, n2, n3 = -1, n4 = -1;
    if (x->n->opset < 10) {
        const int64_t *s = tko_attr_ints(x->n, "starts", &n1), *e = tko_attr_ints(x->n, "ends", &n2), *a = tko_attr_ints(x->n, "axes", &n3);
        if (!s || !e || n1 > MAX_VAL || n1 != n2 || (a && n3 != n1)) return;
        memcpy(starts, s, (size_t)n1 * 8), memcpy(ends, e, (size_t)n2 * 8);
        if (a) memcpy(axes, a, (size_t)n3 * 8);
        else n3 = -1;
    } else {
        if (!const_ints(x, 1, starts, &n1) || !const_ints(x, 2, ends, &n2) || n1 != n2) goto rank_only;
        if (has_in(x, 3) && (!const_ints(x, 3, axes, &n3) || n3 != n1)) goto rank_only;
        if (has_in(x, 4) && (!const_ints(x, 4, steps, &n4) || n4 != n1)) goto rank_only;
    }
    TkoInfer *o = set_shape(x->c, out(x, 0), d->ndim);
    if (o->ndim < 0) return;
    for (int k = 0; k < d->ndim; k++) o->dims[k] = d->dims[k];
    for (int k = 0; k < n1; k++) {
        int a = n3 >= 0 ? axis_of(axes[k], d->ndim) : k;
        int64_t st = n4 >= 0 ? steps[k] : 1, size;
        if (a < 0 || a >= d->ndim || st == 0) {
            o->ndim = -1;
            return;
        }
        if (!tko_sym_is_const(d->dims[a], &size)) {
            /* x[a:] with a >= 0 of a symbolic size: size - a; anything else unknown */
            o->dims[a] = st == 1 && starts[k] >= 0 && ends[k] >= INT32_MAX ? tko_sym_addc(&x->c->syms, d->dims[a], -starts[k])
                         : st == 1 && starts[k] == 0 && ends[k] < 0 && ends[k] > INT32_MIN ? tko_sym_addc(&x->c->syms, d->dims[a], ends[k])
                                                                                             : NULL;
            continue;
        }
        int64_t s0 = starts[k] < 0 ? starts[k] + size : starts[k], e0 = ends[k] < 0 ? ends[k] + size : ends[k], len;
        if (st > 0) {
            s0 = clamp64(s0, 0, size), e0 = clamp64(e0, 0, size);
            len = e0 > s0 ? (e0 - s0 + st - 1) / st : 0;
        } else {
            s0 = clamp64(s0, 0, size - 1), e0 = clamp64(e0, -1, size - 1);
            len = s0 > e0 ? (s0 - e0 + (-st) - 1) / (-st) : 0;
        }
        o->dims[a] = tko_sym_const(&x->c->syms, len);
    }
    /* elements of a sliced shape (Shape(x)[1:3]) */
    const TkoInfer *v = in(x, 0);
    if (v->nval >= 0 && d->ndim == 1 && n1 == 1 && (n4 < 0 || steps[0] == 1)) {
        int64_t s0 = starts[0] < 0 ? starts[0] + v->nval : starts[0], e0 = ends[0] < 0 ? ends[0] + v->nval : ends[0];
        s0 = clamp64(s0, 0, v->nval), e0 = clamp64(e0, 0, v->nval);
        int nv = e0 > s0 ? (int)(e0 - s0) : 0;
        set_val(x->c, o, nv);
        for (int k = 0; o->nval >= 0 && k < nv; k++) o->val[k] = v->val[s0 + k];
    }
    return;
rank_only:
    set_shape(x->c, out(x, 0), d->ndim);
}

/* Squeeze (arg 0) and Unsqueeze (arg 1). */
static void shape_squeeze(Node *x, int unsq)
{
    const TkoInfer *d = in(x, 0);
    int64_t axes[MAX_VAL];
    int na;
    if (!known_rank(d) || d->ndim > TK_MAX_DIMS || !axes_of(x, 1, axes, &na)) return;
    bool drop[TK_MAX_DIMS + 8] = { 0 };
    if (!unsq) {
        if (na < 0) {   /* every size-1 dim: known only when every size is */
            for (int k = 0; k < d->ndim; k++) {
                int64_t v;
                if (!tko_sym_is_const(d->dims[k], &v)) return;
                drop[k] = v == 1;
            }
        } else
            for (int k = 0; k < na; k++) {
                int a = axis_of(axes[k], d->ndim);
                if (a < 0 || a >= d->ndim) return;
                drop[a] = true;
            }
        int r = 0;
        for (int k = 0; k < d->ndim; k++) r += !drop[k];
        TkoInfer *o = set_shape(x->c, out(x, 0), r);
        r = 0;
        for (int k = 0; o->ndim >= 0 && k < d->ndim; k++)
            if (!drop[k]) o->dims[r++] = d->dims[k];
        if (d->nval == 1 && r == 0) {
            set_val(x->c, o, 1);
            if (o->nval >= 0) o->val[0] = d->val[0];
        }
        return;
    }
    if (na < 0) return;
    int r = d->ndim + na;
    if (r > TK_MAX_DIMS + 8) return;
    for (int k = 0; k < na; k++) {
        int a = axis_of(axes[k], r);
        if (a < 0 || a >= r) return;
        drop[a] = true;   /* here: a new dim */
    }
    TkoInfer *o = set_shape(x->c, out(x, 0), r);
    for (int k = 0, j = 0; o->ndim >= 0 && k < r; k++) o->dims[k] = drop[k] ? tko_sym_const(&x->c->syms, 1) : d->dims[j++];
    if (d->nval >= 0 && d->ndim <= 1 && r == 1) {
        set_val(x->c, o, d->nval);
        for (int k = 0; o->nval >= 0 && k < d->nval; k++) o->val[k] = d->val[k];
    }
}

static void shape_gather(Node *x, int arg)
{
    (void)arg;
    const TkoInfer *d = in(x, 0), *ix = in(x, 1);
    if (!known_rank(d) || !known_rank(ix)) return;
    int axis = axis_of(tko_attr_int(x->n, "axis", 0), d->ndim);
    if (axis < 0 || axis >= d->ndim) return;
    TkoInfer *o = set_shape(x->c, out(x, 0), d->ndim - 1 + ix->ndim);
    if (o->ndim < 0) return;
    int r = 0;
    for (int k = 0; k < axis; k++) o->dims[r++] = d->dims[k];
    for (int k = 0; k < ix->ndim; k++) o->dims[r++] = ix->dims[k];
    for (int k = axis + 1; k < d->ndim; k++) o->dims[r++] = d->dims[k];
    /* Shape(x)[i]: an element of a tracked shape */
    int64_t idx[MAX_VAL];
    int ni;
    if (d->nval >= 0 && d->ndim == 1 && const_ints(x, 1, idx, &ni)) {
        set_val(x->c, o, ni);
        for (int k = 0; o->nval >= 0 && k < ni; k++) {
            int64_t j = idx[k] < 0 ? idx[k] + d->nval : idx[k];
            o->val[k] = j >= 0 && j < d->nval ? d->val[j] : NULL;
        }
    }
}

static void shape_shape(Node *x, int arg)
{
    (void)arg;
    const TkoInfer *d = in(x, 0);
    if (!known_rank(d)) return;
    int64_t r = d->ndim, start = tko_attr_int(x->n, "start", 0), end = tko_attr_int(x->n, "end", r);
    start = clamp64(start < 0 ? start + r : start, 0, r), end = clamp64(end < 0 ? end + r : end, 0, r);
    int n = end > start ? (int)(end - start) : 0;
    TkoInfer *o = set_shape(x->c, out(x, 0), 1);
    if (o->ndim < 0) return;
    o->dims[0] = tko_sym_const(&x->c->syms, n);
    if (n > MAX_VAL) return;
    set_val(x->c, o, n);
    for (int k = 0; o->nval >= 0 && k < n; k++) o->val[k] = d->dims[start + k];
}

static void shape_size(Node *x, int arg)
{
    (void)arg;
    const TkoInfer *d = in(x, 0);
    TkoInfer *o = set_shape(x->c, out(x, 0), 0);
    if (!known_rank(d)) return;
    const TkoSym *n = tko_sym_const(&x->c->syms, 1);
    for (int k = 0; k < d->ndim; k++) n = tko_sym_mul(&x->c->syms, n, d->dims[k]);
    set_val(x->c, o, 1);
    if (o->nval >= 0) o->val[0] = n;
}

/* Expand (broadcast of input 0 with the shape input 1), ConstantOfShape (the shape input 0). */
static void shape_from_shape_input(Node *x, int which)
{
    const TkoInfer *s = in(x, which);
    if (s->nval < 0) return;
    if (which == 0) {
        TkoInfer *o = set_shape(x->c, out(x, 0), s->nval);
        for (int k = 0; o->ndim >= 0 && k < s->nval; k++) o->dims[k] = s->val[k];
        return;
    }
    const TkoInfer *d = in(x, 0);
    if (!known_rank(d)) return;
    int rank = d->ndim > s->nval ? d->ndim : s->nval;
    TkoInfer *o = set_shape(x->c, out(x, 0), rank);
    for (int k = 0; o->ndim >= 0 && k < rank; k++) {
        int a = k - (rank - d->ndim), b = k - (rank - s->nval);
        const TkoSym *p = a >= 0 ? d->dims[a] : NULL, *q = b >= 0 ? s->val[b] : NULL;
        int64_t v;
        if (a < 0) o->dims[k] = q;
        else if (b < 0) o->dims[k] = p;
        else if (tko_sym_is_const(p, &v) && v == 1) o->dims[k] = q;
        else if (tko_sym_is_const(q, &v) && v == 1) o->dims[k] = p;
        else o->dims[k] = tko_sym_eq(p, q) ? p : NULL;
    }
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

static void shape_range(Node *x, int arg)
{
    (void)arg;
    double v[3];
    for (int i = 0; i < 3; i++) {
        const TkoValue *val = has_in(x, i) ? &x->g->values[x->n->inputs[i]] : NULL;
        if (!val || !val->constant || tk_tensor_numel(val->constant) != 1) {
            set_shape(x->c, out(x, 0), 1);
            return;
        }
        const tk_tensor *t = val->constant;
        v[i] = tkr_load_f((const char *)t->storage->data + t->offset * (int64_t)tk_dtype_size(t->dtype), t->dtype);
    }
    TkoInfer *o = set_shape(x->c, out(x, 0), 1);
    if (o->ndim < 0 || v[2] == 0) return;
    double n = __builtin_ceil((v[1] - v[0]) / v[2]);
    o->dims[0] = tko_sym_const(&x->c->syms, n > 0 ? (int64_t)n : 0);
}

/* Tile with constant repeats. */
static void shape_tile(Node *x, int arg)
{
    (void)arg;
    const TkoInfer *d = in(x, 0);
    int64_t rep[MAX_VAL];
    int nr;
    if (!known_rank(d)) return;
    if (!const_ints(x, 1, rep, &nr) || nr != d->ndim) {
        set_shape(x->c, out(x, 0), d->ndim);
        return;
    }
    TkoInfer *o = set_shape(x->c, out(x, 0), d->ndim);
    for (int k = 0; o->ndim >= 0 && k < d->ndim; k++) o->dims[k] = tko_sym_mul(&x->c->syms, d->dims[k], tko_sym_const(&x->c->syms, rep[k]));
}

/* Pad with constant pads (input 1, or the attribute before opset 11), axes optional. */
static void shape_pad(Node *x, int arg)
{
    (void)arg;
    const TkoInfer *d = in(x, 0);
    if (!known_rank(d)) return;
    int64_t pads[2 * MAX_VAL], axes[MAX_VAL];
    int np, na = -1;
    const int64_t *pa = tko_attr_ints(x->n, "pads", &np);
    if (pa && np <= 2 * MAX_VAL) memcpy(pads, pa, (size_t)np * 8);
    else if (pa || !has_in(x, 1) || !const_ints(x, 1, pads, &np)) np = -1;
    if (has_in(x, 3) && !const_ints(x, 3, axes, &na)) np = -1;
    TkoInfer *o = set_shape(x->c, out(x, 0), d->ndim);
    if (o->ndim < 0) return;
    for (int k = 0; k < d->ndim; k++) o->dims[k] = np >= 0 ? d->dims[k] : NULL;
    if (np < 0) return;
    int n = na >= 0 ? na : d->ndim;
    if (np != 2 * n) {
        for (int k = 0; k < d->ndim; k++) o->dims[k] = NULL;
        return;
    }
    for (int k = 0; k < n; k++) {
        int a = na >= 0 ? axis_of(axes[k], d->ndim) : k;
        if (a < 0 || a >= d->ndim) return;
        o->dims[a] = tko_sym_addc(&x->c->syms, o->dims[a], pads[k] + pads[n + k]);
    }
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

/* DepthToSpace (arg 0) and SpaceToDepth (arg 1) on [N, C, H, W]. */
static void shape_depth_space(Node *x, int to_depth)
{
    const TkoInfer *d = in(x, 0);
    int64_t b = tko_attr_int(x->n, "blocksize", 0);
    if (d->ndim != 4 || b <= 0) return;
    TkoInfer *o = set_shape(x->c, out(x, 0), 4);
    if (o->ndim < 0) return;
    const TkoSym *bb = tko_sym_const(&x->c->syms, b * b), *b1 = tko_sym_const(&x->c->syms, b);
    o->dims[0] = d->dims[0];
    o->dims[1] = to_depth ? tko_sym_mul(&x->c->syms, d->dims[1], bb) : tko_sym_div(&x->c->syms, d->dims[1], bb);
    for (int k = 2; k < 4; k++) o->dims[k] = to_depth ? tko_sym_div(&x->c->syms, d->dims[k], b1) : tko_sym_mul(&x->c->syms, d->dims[k], b1);
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

/* Constant nodes (before folding): the attribute's tensor. */
static void shape_constant(Node *x, int arg)
{
    (void)arg;
    for (int a = 0; a < x->n->nattrs; a++)
        if (x->n->attrs[a].t) {
            from_tensor(x->c, out(x, 0), x->n->attrs[a].t);
            return;
        }
    const TkoAttr *at;
    TkoInfer *o = out(x, 0);
    if ((at = tko_attr(x->n, "value_int"))) o->elem_type = 7, set_shape(x->c, o, 0);
    else if ((at = tko_attr(x->n, "value_float"))) o->elem_type = 1, set_shape(x->c, o, 0);
    else if ((at = tko_attr(x->n, "value_ints"))) {
        o->elem_type = 7;
        set_shape(x->c, o, 1);
        if (o->ndim == 1) o->dims[0] = tko_sym_const(&x->c->syms, at->n);
        if (at->n <= MAX_VAL) {
            set_val(x->c, o, at->n);
            for (int k = 0; o->nval >= 0 && k < at->n; k++) o->val[k] = tko_sym_const(&x->c->syms, at->ints[k]);
        }
        return;
    } else if ((at = tko_attr(x->n, "value_floats"))) {
        o->elem_type = 1;
        set_shape(x->c, o, 1);
        if (o->ndim == 1) o->dims[0] = tko_sym_const(&x->c->syms, at->n);
    }
    if (at && at->type == TKO_ATTR_INT) {
        set_val(x->c, o, 1);
        if (o->nval >= 0) o->val[0] = tko_sym_const(&x->c->syms, at->i);
    }
}

/* ------------------------------------------------------------ the rules */

/* Element type sets, as bits of TensorProto.DataType. */
#define T_(t) (1u << (t))
#define T_FLOAT (T_(1) | T_(10) | T_(11) | T_(16))
#define T_INT (T_(3) | T_(5) | T_(6) | T_(7))
#define T_UINT (T_(2) | T_(4) | T_(12) | T_(13))
#define T_NUM (T_FLOAT | T_INT | T_UINT)
#define T_BOOL T_(9)
#define T_IDX (T_(6) | T_(7))

typedef enum {
    DT_NONE,       /* not determined here */
    DT_IN,         /* input arg's type */
    DT_ATTR,       /* the attribute named by `attr` (default: attribute's default `dflt`) */
    DT_FIXED,      /* `dflt` */
} DtRule;

typedef struct {
    const char *ops;        /* comma-separated op names */
    const char *domain;     /* "" ai.onnx, "tk" the fused nodes, "*" any */
    DtRule dt;
    int dt_arg;             /* DT_IN: the input */
    const char *attr;       /* DT_ATTR: its name */
    int dflt;               /* DT_ATTR: the default; DT_FIXED: the type */
    uint32_t accept;        /* input `checked`'s types (0: any) */
    int checked;            /* which input `accept` is about */
    int same_from, same_n;  /* inputs [same_from, same_from + same_n) share one type (same_n -1: all from same_from) */
    ShapeFn shape;
    int arg;
} Rule;

#define EW_UNARY_FLOAT "Exp,Log,Sqrt,Sin,Cos,Tan,Asin,Acos,Atan,Sinh,Cosh,Asinh,Acosh,Atanh,Sigmoid,Tanh,Erf,Reciprocal,Softplus," \
                       "Softsign,Elu,Selu,HardSigmoid,HardSwish,Gelu,Mish,Celu,ThresholdedRelu,Round,Floor,Ceil"
#define EW_UNARY_ANY "Identity,Relu,Abs,Neg,Sign,LeakyRelu,Clip,Shrink,CumSum,Trilu,ReverseSequence,FusedGelu,Softmax,LogSoftmax,Hardmax," \
                     "LpNormalization,MeanVarianceNormalization,LRN,InstanceNormalization,GroupNormalization,RMSNormalization," \
                     "SkipLayerNormalization,SimplifiedLayerNormalization,BiasGelu,FastGelu,QuickGelu,Swish"
#define EW_BINARY "Add,Sub,Mul,Div,Max,Min,Sum,Mean,Mod,PRelu"

static const Rule RULES[] = {
    { "Constant", "", DT_NONE, 0, NULL, 0, 0, 0, 0, 0, shape_constant, 0 },
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
    { "Reshape", "", DT_IN, 0, NULL, 0, 0, 0, 0, 0, shape_reshape, 0 },
    { "Flatten", "", DT_IN, 0, NULL, 0, 0, 0, 0, 0, shape_flatten, 0 },
    { "Transpose", "", DT_IN, 0, NULL, 0, 0, 0, 0, 0, shape_transpose, 0 },
    { "Concat", "", DT_IN, 0, NULL, 0, 0, 0, 0, -1, shape_concat, 0 },
    { "Split", "", DT_IN, 0, NULL, 0, 0, 0, 0, 0, shape_split, 0 },
    { "Slice", "", DT_IN, 0, NULL, 0, 0, 0, 0, 0, shape_slice, 0 },
    { "Squeeze", "", DT_IN, 0, NULL, 0, 0, 0, 0, 0, shape_squeeze, 0 },
    { "Unsqueeze", "", DT_IN, 0, NULL, 0, 0, 0, 0, 0, shape_squeeze, 1 },
    { "Gather", "", DT_IN, 0, NULL, 0, 0, 0, 0, 0, shape_gather, 0 },
    { "Shape", "", DT_FIXED, 0, NULL, 7, 0, 0, 0, 0, shape_shape, 0 },
    { "Size", "", DT_FIXED, 0, NULL, 7, 0, 0, 0, 0, shape_size, 0 },
    { "Expand", "", DT_IN, 0, NULL, 0, 0, 0, 0, 0, shape_from_shape_input, 1 },
    { "ConstantOfShape", "", DT_NONE, 0, NULL, 0, 0, 0, 0, 0, shape_from_shape_input, 0 },
    { "ReduceSum,ReduceMean,ReduceMax,ReduceMin,ReduceProd,ReduceL1,ReduceL2,ReduceLogSum,ReduceLogSumExp,ReduceSumSquare", "",
      DT_IN, 0, NULL, 0, 0, 0, 0, 0, shape_reduce, 1 },
    { "ArgMax,ArgMin", "", DT_FIXED, 0, NULL, 7, 0, 0, 0, 0, shape_reduce, 2 },
    { "Range", "", DT_IN, 0, NULL, 0, 0, 0, 0, -1, shape_range, 0 },
    { "Tile", "", DT_IN, 0, NULL, 0, 0, 0, 0, 0, shape_tile, 0 },
    { "Pad", "", DT_IN, 0, NULL, 0, 0, 0, 0, 0, shape_pad, 0 },
    { "Attention", "", DT_IN, 0, NULL, 0, T_FLOAT, 0, 0, 0, shape_attention, 0 },
    { "FusedAttention", "tk", DT_IN, 0, NULL, 0, 0, 0, 0, 0, shape_attention, 0 },
    { "TopK", "", DT_IN, 0, NULL, 0, 0, 0, 0, 0, shape_topk, 0 },
    { "EyeLike", "", DT_ATTR, 0, "dtype", -1, 0, 0, 0, 0, shape_like_input, 0 },
    { "RandomNormalLike,RandomUniformLike", "", DT_ATTR, 0, "dtype", -1, 0, 0, 0, 0, shape_like_input, 0 },
    { "NonZero", "", DT_FIXED, 0, NULL, 7, 0, 0, 0, 0, NULL, 0 },
    { "NonMaxSuppression", "", DT_FIXED, 0, NULL, 7, 0, 0, 0, 0, shape_nms, 0 },
    { "NegativeLogLikelihoodLoss,SoftmaxCrossEntropyLoss", "", DT_IN, 0, NULL, 0, T_FLOAT, 0, 0, 0, shape_loss, 0 },
    { "DepthToSpace", "", DT_IN, 0, NULL, 0, 0, 0, 0, 0, shape_depth_space, 0 },
    { "SpaceToDepth", "", DT_IN, 0, NULL, 0, 0, 0, 0, 0, shape_depth_space, 1 },
    { "GatherElements", "", DT_IN, 0, NULL, 0, 0, 0, 0, 0, shape_like_input, 1 },
    { "ScatterND,ScatterElements,Scatter,CumProd", "", DT_IN, 0, NULL, 0, 0, 0, 0, 0, shape_like_input, 0 },
    { "Resize", "", DT_IN, 0, NULL, 0, 0, 0, 0, 0, shape_resize, 0 },
    { "Upsample,GatherND,Compress,GridSample,RoiAlign,Einsum", "", DT_IN, 0, NULL, 0, 0, 0, 0, 0, NULL, 0 },
};

static const Rule *rule_of(const TkoNode *n)
{
    for (size_t k = 0; k < sizeof RULES / sizeof RULES[0]; k++) {
        const Rule *r = &RULES[k];
        bool dom = strcmp(r->domain, "*") == 0 ? (!*n->domain || !strcmp(n->domain, "com.microsoft") || !strcmp(n->domain, "tk"))
                                               : strcmp(r->domain, n->domain) == 0;
        if (dom && tko_listed(r->ops, n->op)) return r;
    }
    return NULL;
}

static const char *type_name(int et) { return tkr_onnx_type_name(et); }

static bool value_is_tensor(const TkoValue *v) { return !v->type.kind || strcmp(v->type.kind, "tensor") == 0; }

/* A node computing shape numbers that inference knows exactly (Shape of a
 * tensor of known size, arithmetic on it) is replaced by its output as a
 * constant (true: drop the node), so folding again runs what reads it. Only
 * when some input is not constant (otherwise graph_fold.c runs the node). */
static bool make_constant(Infer *c, TkoGraph *g, const TkoNode *n)
{
    bool all_const_in = true;
    for (int i = 0; i < n->nin; i++) all_const_in &= n->inputs[i] < 0 || g->values[n->inputs[i]].constant != NULL;
    if (all_const_in || n->nout != 1 || n->outputs[0] < 0) return false;
    for (int a = 0; a < n->nattrs; a++)
        if (n->attrs[a].g || n->attrs[a].type == TKO_ATTR_GRAPHS) return false;
    TkoValue *val = &g->values[n->outputs[0]];
    const TkoInfer *t = &val->inf;
    int64_t v[MAX_VAL], len = 1;
    if (val->constant || t->elem_type != 7 || t->nval < 0 || t->ndim > 1 || t->ndim < 0 || t->declared) return false;
    if (t->ndim == 1 && (!tko_sym_is_const(t->dims[0], &len) || len != t->nval)) return false;
    if (t->ndim == 0 && t->nval != 1) return false;
    for (int k = 0; k < t->nval; k++)
        if (!tko_sym_is_const(t->val[k], &v[k])) return false;
    tk_tensor *x;
    if (tk_from_data(c->m->ctx, v, TK_DTYPE_I64, t->ndim, (int64_t[]){ t->nval }, &x) != TK_OK) {
        c->syms.oom = true;
        return false;
    }
    val->constant = x;
    return true;
}

/* Infers node i's outputs; its type problems go to the model's list. */
static void infer_node(Infer *c, TkoGraph *g, const TkoNode *n)
{
    Node x = { c, g, n, { 0, -1, NULL, -1, NULL, false, true }, { 0, -1, NULL, -1, NULL, false, true } };
    for (int k = 0; k < n->nout; k++)
        if (n->outputs[k] >= 0 && !g->values[n->outputs[k]].constant) g->values[n->outputs[k]].inf = x.none;
    const Rule *r = rule_of(n);   /* a sequence input has no element type: its outputs stay unknown */
    if (r) {
        /* the op's input types */
        int checked = r->checked;
        int et = has_in(&x, checked) ? in(&x, checked)->elem_type : 0;
        if (r->accept && et && !(r->accept & (et < 32 ? T_(et) : 0)))
            tko_problem(c->m, "node '%s': op %s does not take input %d '%s' of type %s", n->name, n->op, checked,
                        g->values[n->inputs[checked]].name, type_name(et));
        int last = r->same_n < 0 ? n->nin : r->same_from + r->same_n;
        int first_t = 0, first_i = -1;
        for (int i = r->same_from; r->same_n && i < last && i < n->nin; i++) {
            int t = has_in(&x, i) ? in(&x, i)->elem_type : 0;
            if (!t) continue;
            if (!first_t) first_t = t, first_i = i;
            else if (t != first_t) {
                tko_problem(c->m, "node '%s': op %s takes inputs of one type; '%s' is %s, '%s' is %s", n->name, n->op,
                            g->values[n->inputs[first_i]].name, type_name(first_t), g->values[n->inputs[i]].name, type_name(t));
                break;
            }
        }
        int dt = 0;
        if (r->dt == DT_IN) dt = in(&x, r->dt_arg)->elem_type;
        else if (r->dt == DT_FIXED) dt = r->dflt;
        else if (r->dt == DT_ATTR) {
            int64_t v = tko_attr_int(n, r->attr, r->dflt);
            dt = v > 0 ? (int)v : r->dflt == -1 ? in(&x, 0)->elem_type : 0;
        }
        if (!strcmp(n->op, "ConstantOfShape")) {
            const TkoAttr *at = tko_attr(n, "value");
            dt = at && at->t ? tkr_onnx_type_of(tk_tensor_dtype(at->t)) : 1;
        }
        bool all = !strcmp(n->op, "Split");   /* other outputs: the shape function says */
        for (int k = 0; k < (all ? n->nout : 1); k++) out(&x, k)->elem_type = dt;
        if (r->shape) r->shape(&x, r->arg);
        bool taint = false;   /* what follows from value_info is not derived either */
        for (int i = 0; i < n->nin; i++) taint |= has_in(&x, i) && in(&x, i)->declared;
        for (int k = 0; taint && k < n->nout; k++) out(&x, k)->declared = true;
    }
    /* what the runtime cannot hold (unless said already: of an input, by the op's own check of
     * its type attribute, or of a graph output by graph_check.c), and what the model says */
    bool said = r && r->dt == DT_ATTR;
    for (int i = 0; i < n->nin; i++) said |= has_in(&x, i) && in(&x, i)->elem_type && tkr_onnx_dtype(in(&x, i)->elem_type) < 0;
    for (int o = 0; o < g->nout; o++)
        for (int k = 0; k < n->nout; k++) said |= n->outputs[k] == g->outputs[o];
    for (int k = 0; k < n->nout; k++) {
        int v = n->outputs[k];
        if (v < 0) continue;
        TkoValue *val = &g->values[v];
        TkoInfer *o = &val->inf;
        if (val->constant) continue;
        if (o->elem_type && tkr_onnx_dtype(o->elem_type) < 0 && !said)
            tko_problem(c->m, "node '%s': op %s makes '%s' of type %s, which the runtime does not have", n->name, n->op, val->name,
                        type_name(o->elem_type));
        if (!val->type.known || !value_is_tensor(val)) continue;
        const TkoType *ty = &val->type;
        if (o->elem_type && ty->elem_type && o->elem_type != ty->elem_type) {
            tko_problem(c->m, "node '%s': op %s makes '%s' of type %s, the model says %s", n->name, n->op, val->name,
                        type_name(o->elem_type), type_name(ty->elem_type));
            continue;
        }
        if (!o->elem_type) o->elem_type = ty->elem_type, o->declared = true;
        if (ty->ndim < 0) continue;
        if (known_rank(o) && o->ndim != ty->ndim) {
            tko_problem(c->m, "node '%s': op %s makes '%s' of rank %d, the model says %d", n->name, n->op, val->name, o->ndim, ty->ndim);
            continue;
        }
        TkoInfer decl = { 0, -1, NULL, -1, NULL, false, true };
        from_declared(c, &decl, ty);
        if (!known_rank(o)) {
            int nv = o->nval;
            const TkoSym **vv = o->val;
            int et = o->elem_type;
            *o = decl;
            o->elem_type = et;
            o->nval = nv, o->val = vv;
            o->declared = true;
            continue;
        }
        for (int d = 0; d < o->ndim && decl.ndim == o->ndim; d++) {
            int64_t a, b;
            if (tko_sym_is_const(o->dims[d], &a) && tko_sym_is_const(decl.dims[d], &b) && a != b) {
                char sh[64];
                tko_problem(c->m, "node '%s': op %s makes '%s' with dim %d = %s, the model says %lld", n->name, n->op, val->name, d,
                            tko_sym_str(o->dims[d], sh, sizeof sh), (long long)b);
                break;
            }
            if (!o->dims[d] && decl.dims[d]) o->dims[d] = decl.dims[d], o->declared = true;
        }
    }
}

/* An If's outputs: what both branches make, where they agree (elem type, rank, each dim). */
static void merge_branches(Infer *c, TkoGraph *g, const TkoNode *n)
{
    const TkoAttr *ta = tko_attr(n, "then_branch"), *ea = tko_attr(n, "else_branch");
    if (!ta || !ea || !ta->g || !ea->g || ta->g->nout != n->nout || ea->g->nout != n->nout) return;
    for (int k = 0; k < n->nout; k++) {
        int v = n->outputs[k];
        if (v < 0 || g->values[v].constant) continue;
        const TkoInfer *t = &ta->g->values[ta->g->outputs[k]].inf, *e = &ea->g->values[ea->g->outputs[k]].inf;
        TkoInfer *o = &g->values[v].inf;
        if (o->elem_type || known_rank(o) || !t->valid || !e->valid || !t->elem_type || t->elem_type != e->elem_type) continue;
        o->elem_type = t->elem_type;
        o->declared = t->declared || e->declared;
        if (!known_rank(t) || t->ndim != e->ndim || !set_shape(c, o, t->ndim) || o->ndim < 0) continue;
        for (int d = 0; d < o->ndim; d++) o->dims[d] = tko_sym_eq(t->dims[d], e->dims[d]) ? t->dims[d] : NULL;
    }
}

static tk_status infer_graph(Infer *c, TkoGraph *g)
{
    TkoModel *m = c->m;
    for (int v = 0; v < g->nvalues; v++) {
        TkoValue *val = &g->values[v];
        val->inf = (TkoInfer){ 0, -1, NULL, -1, NULL, false, true };
        if (val->constant) from_tensor(c, &val->inf, val->constant);
        else if (val->is_outer && g->parent) val->inf = g->parent->values[val->outer_index].inf;
    }
    for (int i = 0; i < g->nin; i++) {
        TkoValue *val = &g->values[g->inputs[i]];
        if (val->constant || !value_is_tensor(val)) continue;
        if (!g->parent) {
            from_declared(c, &val->inf, &val->type);
            for (int d = 0; d < val->inf.ndim; d++)   /* an unnamed free dim ("?", Paddle's) is its own size: "x.2" */
                if (!val->inf.dims[d]) {
                    char name[256];
                    snprintf(name, sizeof name, "%s.%d", val->name, d);
                    const char *keep = dupstr(c, name);
                    val->inf.dims[d] = keep ? tko_sym_name(&c->syms, keep) : NULL;
                }
        } else val->inf.elem_type = val->type.known ? val->type.elem_type : 0;   /* a loop-carried value may change shape */
    }
    for (int i = 0; i < g->nnodes; i++) {
        TkoNode *n = &g->nodes[i];
        infer_node(c, g, n);
        for (int a = 0; a < n->nattrs; a++) {
            tk_status s;
            if (n->attrs[a].g && (s = infer_graph(c, n->attrs[a].g))) return s;
            for (int k = 0; k < n->attrs[a].n && n->attrs[a].type == TKO_ATTR_GRAPHS; k++)
                if ((s = infer_graph(c, n->attrs[a].graphs[k]))) return s;
        }
        if (!strcmp(n->op, "If") && !*n->domain) merge_branches(c, g, n);
    }
    if (c->syms.oom) return tkr_error(m->ctx, TK_ERR_OUT_OF_MEMORY, "tk_onnx_load: out of memory inferring types");
    return TK_OK;
}

/* How many values nodes make, and of those how many are fully derived, for the dump. */
static void count_inferred(TkoModel *m, const TkoGraph *g)
{
    m->infer_values = m->infer_full = 0;
    for (int v = 0; v < g->nvalues; v++) {
        const TkoInfer *t = &g->values[v].inf;
        if (g->values[v].constant || g->values[v].producer < 0) continue;   /* what nodes make */
        if (!value_is_tensor(&g->values[v])) continue;
        m->infer_values++;
        bool full = t->elem_type && known_rank(t) && !t->declared;
        for (int d = 0; full && d < t->ndim; d++) full = t->dims[d] != NULL;
        m->infer_full += full;
    }
}

tk_status tko_infer_graph(TkoModel *m, TkoGraph *g)
{
    Infer c = { m, { &m->arena, false, { 0 } } };
    tk_status s = infer_graph(&c, g);
    if (s) return s;
    m->inferred = true;
    count_inferred(m, g);
    return TK_OK;
}

/* ------------------------------------------------------------ dead nodes */

/* Nodes whose outputs inference knows as constants are dropped (their outputs
 * become constants), then, from the last node back, nodes none of whose
 * outputs a live node, a subgraph or the graph's outputs read. */
tk_status tko_remove_dead(TkoModel *m, TkoGraph *g)
{
    static const char *const effects[] = { "RandomNormal", "RandomUniform", "RandomNormalLike", "RandomUniformLike", "Multinomial",
                                           "Bernoulli" };
    /* from the last node back: a node is live when a later live node, a subgraph or the graph's outputs read one of its outputs */
    int *reads = calloc((size_t)g->nvalues + 1, sizeof *reads);
    bool *dead = calloc((size_t)g->nnodes + 1, sizeof *dead);
    if (!reads || !dead) {
        free(reads), free(dead);
        return tkr_error(m->ctx, TK_ERR_OUT_OF_MEMORY, "tk_onnx_load: out of memory");
    }
    Infer c = { m, { &m->arena, false, { 0 } } };
    for (int i = 0; i < g->nnodes; i++) dead[i] = make_constant(&c, g, &g->nodes[i]);
    if (c.syms.oom) {
        free(reads), free(dead);
        return tkr_error(m->ctx, TK_ERR_OUT_OF_MEMORY, "tk_onnx_load: out of memory");
    }
    for (int o = 0; o < g->nout; o++) reads[g->outputs[o]]++;
    for (int i = g->nnodes - 1; i >= 0; i--) {
        const TkoNode *n = &g->nodes[i];
        if (dead[i]) continue;   /* now a constant */
        bool needed = false;
        for (int k = 0; k < n->nout; k++) {
            int v = n->outputs[k];
            if (v >= 0 && reads[v] && !g->values[v].constant) needed = true;
        }
        for (size_t e = 0; e < sizeof effects / sizeof effects[0]; e++) needed |= strcmp(n->op, effects[e]) == 0;
        if (!needed) {
            dead[i] = true;
            continue;
        }
        for (int k = 0; k < n->nin; k++)
            if (n->inputs[k] >= 0) reads[n->inputs[k]]++;
        for (int a = 0; a < n->nattrs; a++) {   /* what subgraphs read from this graph */
            const TkoAttr *at = &n->attrs[a];
            for (int k = 0; at->g && k < at->g->nouter; k++) reads[at->g->values[at->g->outer[k]].outer_index]++;
            for (int s = 0; s < at->n && at->type == TKO_ATTR_GRAPHS; s++)
                for (int k = 0; k < at->graphs[s]->nouter; k++) reads[at->graphs[s]->values[at->graphs[s]->outer[k]].outer_index]++;
        }
    }
    int kept = 0;
    for (int i = 0; i < g->nnodes; i++)
        if (!dead[i]) g->nodes[kept++] = g->nodes[i];
        else
            for (int k = 0; k < g->nodes[i].nout; k++)
                if (g->nodes[i].outputs[k] >= 0) g->values[g->nodes[i].outputs[k]].producer = -1;
    g->nnodes = kept;
    for (int i = 0; i < kept; i++)
        for (int o = 0; o < g->nodes[i].nout; o++)
            if (g->nodes[i].outputs[o] >= 0) g->values[g->nodes[i].outputs[o]].producer = i;
    free(reads), free(dead);
    if (g == m->graph) count_inferred(m, g);
    return TK_OK;
}
