/* graph_infer.c — every value's element type and shape before anything
 * runs. A size is a constant, a dim name of the graph inputs ("batch"), or a
 * small expression of them in one canonical form (graph_infer_sym.c), so two
 * sizes are equal exactly when their texts are: "batch*16", "(H+1)/2".
 *
 * The rules are a table keyed by op name (graph_infer_rules.c, with the
 * shape functions there and in graph_infer_layout.c): how the output's
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

#include "graph_infer_internal.h"

static char *dupstr(Infer *c, const char *s)
{
    char *p = tko_strndup(&c->m->arena, s, strlen(s));
    if (!p) c->syms.oom = true;
    return p;
}

/* ------------------------------------------------------------ declared types */

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

/* ------------------------------------------------------------ the pass */

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
    const Rule *r = tko_infer_rule_of(n);   /* a sequence input has no element type: its outputs stay unknown */
    if (r) {
        /* the op's input types */
        int checked = r->checked;
        int et = has_in(&x, checked) ? in(&x, checked)->elem_type : 0;
        /* a malformed file's elem_type may be any int32: only 1..31 name a bit of `accept` */
        if (r->accept && et && !(r->accept & (et > 0 && et < 32 ? T_(et) : 0)))
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
        else {
            for (int k = 0; k < g->nodes[i].nout; k++)
                if (g->nodes[i].outputs[k] >= 0) g->values[g->nodes[i].outputs[k]].producer = -1;
            tko_node_release(&g->nodes[i]);   /* its tensor attributes and subgraphs (a dead If's branches leaked) */
        }
    g->nnodes = kept;
    for (int i = 0; i < kept; i++)
        for (int o = 0; o < g->nodes[i].nout; o++)
            if (g->nodes[i].outputs[o] >= 0) g->values[g->nodes[i].outputs[o]].producer = i;
    free(reads), free(dead);
    if (g == m->graph) count_inferred(m, g);
    return TK_OK;
}
