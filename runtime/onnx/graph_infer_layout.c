/* graph_infer_layout.c — the shape functions of the ops that move or make
 * shapes (graph_infer_rules.c's table names them): Reshape, Flatten,
 * Transpose, Concat, Split, Slice, Squeeze/Unsqueeze, Gather, Shape, Size,
 * Expand/ConstantOfShape, Range, Tile, Pad, DepthToSpace/SpaceToDepth and
 * Constant. Small integer tensors carry their elements as sizes through
 * them, so a shape computed in the graph (Shape -> Gather -> Concat ->
 * Reshape) keeps its symbolic dims. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph_infer_internal.h"

void tko_shape_reshape(Node *x, int arg)
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

void tko_shape_flatten(Node *x, int arg)
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

void tko_shape_transpose(Node *x, int arg)
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

void tko_shape_concat(Node *x, int arg)
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

void tko_shape_split(Node *x, int arg)
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

void tko_shape_slice(Node *x, int arg)
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
void tko_shape_squeeze(Node *x, int unsq)
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

void tko_shape_gather(Node *x, int arg)
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

void tko_shape_shape(Node *x, int arg)
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

void tko_shape_size(Node *x, int arg)
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
void tko_shape_from_shape_input(Node *x, int which)
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

void tko_shape_range(Node *x, int arg)
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
void tko_shape_tile(Node *x, int arg)
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
void tko_shape_pad(Node *x, int arg)
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

/* DepthToSpace (arg 0) and SpaceToDepth (arg 1) on [N, C, H, W]. */
void tko_shape_depth_space(Node *x, int to_depth)
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

/* Constant nodes (before folding): the attribute's tensor. */
void tko_shape_constant(Node *x, int arg)
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
