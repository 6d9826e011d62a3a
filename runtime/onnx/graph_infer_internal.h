/* graph_infer_internal.h — what the inference pass (graph_infer.c) shares
 * with its rules: graph_infer_rules.c (the table of ops, and the shape
 * functions of the ops that compute) and graph_infer_layout.c (the shape
 * functions of the ops that move or make shapes: Reshape, Slice, Concat,
 * Shape, Range, Pad, Constant, ...). The inference state, the inferred
 * records, one node's context and its accessors (static inline: they are
 * the vocabulary of every shape function), and the rule type. */
#ifndef TK_RUNTIME_ONNX_GRAPH_INFER_INTERNAL_H
#define TK_RUNTIME_ONNX_GRAPH_INFER_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "graph_infer_sym.h"
#include "op.h"
#include "onnx_tensor.h"

#define MAX_VAL 16   /* the longest integer tensor whose elements are tracked */

typedef struct {
    TkoModel *m;
    TkoSymMaker syms;
} Infer;

static inline void *alloc(Infer *c, size_t bytes)
{
    void *p = tko_alloc(&c->m->arena, bytes);
    if (!p) c->syms.oom = true;
    return p;
}

/* ------------------------------------------------------------ inferred records */

static inline bool known_rank(const TkoInfer *t) { return t->ndim >= 0; }

static inline TkoInfer *set_shape(Infer *c, TkoInfer *t, int ndim)
{
    t->ndim = ndim;
    t->dims = ndim > 0 ? alloc(c, (size_t)ndim * sizeof *t->dims) : NULL;
    if (ndim > 0 && !t->dims) t->ndim = -1;
    return t;
}

static inline void set_val(Infer *c, TkoInfer *t, int n)
{
    t->val = alloc(c, (size_t)(n + 1) * sizeof *t->val);
    t->nval = t->val ? n : -1;
}

static inline bool is_int_type(int et) { return et == 2 || et == 3 || et == 4 || et == 5 || et == 6 || et == 7 || et == 12 || et == 13; }

/* The record of a constant tensor: exact, and its elements when it is a small integer one. */
static inline void from_tensor(Infer *c, TkoInfer *t, const tk_tensor *x)
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


/* ------------------------------------------------------------ one node's context */

typedef struct {
    Infer *c;
    TkoGraph *g;
    const TkoNode *n;
    TkoInfer none;           /* an omitted or unknown input */
    TkoInfer scratch;        /* an omitted output */
} Node;

static inline const TkoInfer *in(Node *x, int i)
{
    if (i >= x->n->nin || x->n->inputs[i] < 0) return &x->none;
    return &x->g->values[x->n->inputs[i]].inf;
}

static inline bool has_in(Node *x, int i) { return i < x->n->nin && x->n->inputs[i] >= 0; }

static inline TkoInfer *out(Node *x, int k)
{
    if (k >= x->n->nout || x->n->outputs[k] < 0) {
        x->scratch = (TkoInfer){ 0, -1, NULL, -1, NULL, false, true };
        return &x->scratch;
    }
    return &x->g->values[x->n->outputs[k]].inf;
}

static inline int axis_of(int64_t a, int rank) { return a < 0 ? (int)(a + rank) : (int)a; }

static inline void copy_shape(Infer *c, TkoInfer *o, const TkoInfer *i)
{
    if (!known_rank(i)) return;
    set_shape(c, o, i->ndim);
    for (int d = 0; d < o->ndim; d++) o->dims[d] = i->dims[d];
}

/* The elements of integer input i (a shape, axes, pads) as constants; false when not all known. */
static inline bool const_ints(Node *x, int i, int64_t *v, int *n)
{
    const TkoInfer *t = in(x, i);
    if (t->nval < 0) return false;
    for (int k = 0; k < t->nval; k++)
        if (!tko_sym_is_const(t->val[k], &v[k])) return false;
    *n = t->nval;
    return true;
}

/* axes from the attribute (older opsets) or input i (newer); false when not known. *n = -1: none given. */
static inline bool axes_of(Node *x, int i, int64_t *axes, int *n)
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

/* ------------------------------------------------------------ rules */

/* A shape function: the outputs' shapes (and small integer elements) of
 * node x from its inputs' records; arg tells variants apart. */
typedef void (*ShapeFn)(Node *x, int arg);

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

/* The rule of node n (graph_infer_rules.c's table), NULL for an op without one. */
const Rule *tko_infer_rule_of(const TkoNode *n);

/* The shape functions of graph_infer_layout.c (the table names them). */
void tko_shape_reshape(Node *x, int arg);
void tko_shape_flatten(Node *x, int arg);
void tko_shape_transpose(Node *x, int arg);
void tko_shape_concat(Node *x, int arg);
void tko_shape_split(Node *x, int arg);
void tko_shape_slice(Node *x, int arg);
void tko_shape_squeeze(Node *x, int arg);
void tko_shape_gather(Node *x, int arg);
void tko_shape_shape(Node *x, int arg);
void tko_shape_size(Node *x, int arg);
void tko_shape_from_shape_input(Node *x, int arg);
void tko_shape_range(Node *x, int arg);
void tko_shape_tile(Node *x, int arg);
void tko_shape_pad(Node *x, int arg);
void tko_shape_depth_space(Node *x, int arg);
void tko_shape_constant(Node *x, int arg);

#endif
