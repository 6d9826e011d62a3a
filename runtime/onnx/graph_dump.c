/* graph_dump.c — the prepared graph as text, one node per line, for
 * `tkrun --dump` and for reading what folding and fusion did:
 *
 *   input  %x: FLOAT[N, 3]
 *   const  %w: f32[3, 4]
 *   %y = MatMul(%x, %w)            # node 'mm'
 *   output %y
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "onnx_ir.h"
#include "onnx_tensor.h"

typedef struct {
    char *s;
    size_t len, cap;
    bool oom;
} Buf;

static void put(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(Buf *b, const char *fmt, ...)
{
    if (b->oom) return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if (b->len + (size_t)n + 1 > b->cap) {
        size_t cap = 2 * b->cap + (size_t)n + 256;
        char *s = realloc(b->s, cap);
        if (!s) {
            b->oom = true;
            return;
        }
        b->s = s, b->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

static void put_type(Buf *b, const TkoType *t)
{
    if (!t->known) {
        put(b, "%s", t->kind ? t->kind : "?");
        return;
    }
    put(b, "%s", tkr_onnx_type_name(t->elem_type));
    if (t->ndim < 0) return;
    put(b, "[");
    for (int d = 0; d < t->ndim; d++)
        if (t->dims[d] >= 0) put(b, d ? ", %lld" : "%lld", (long long)t->dims[d]);
        else put(b, d ? ", %s" : "%s", t->dim_names[d] ? t->dim_names[d] : "?");
    put(b, "]");
}

/* An inferred type: "FLOAT[batch, 16]", "FLOAT" (rank unknown), "?" (nothing known). */
static void put_inferred(Buf *b, const TkoInfer *t)
{
    char sh[96];
    if (!t->valid) {   /* made after inference */
        put(b, "?");
        return;
    }
    put(b, "%s", t->elem_type ? tkr_onnx_type_name(t->elem_type) : "?");
    if (t->ndim < 0) return;
    put(b, "[");
    for (int d = 0; d < t->ndim; d++) put(b, d ? ", %s" : "%s", tko_sym_str(t->dims[d], sh, sizeof sh));
    put(b, "]");
    if (t->declared) put(b, " (value_info)");
}

static void dump_graph(Buf *b, const TkoGraph *g, int indent, bool inferred)
{
    char shp[160];
    for (int i = 0; i < g->nin; i++) {
        put(b, "%*sinput  %%%s: ", indent, "", g->values[g->inputs[i]].name);
        put_type(b, &g->values[g->inputs[i]].type);
        put(b, "\n");
    }
    for (int v = 0; v < g->nvalues; v++)
        if (g->values[v].constant) {
            const tk_tensor *t = g->values[v].constant;
            put(b, "%*sconst  %%%s: %s%s\n", indent, "", g->values[v].name, tk_dtype_name(tk_tensor_dtype(t)),
                tkr_shape_str(tk_tensor_ndim(t), tk_tensor_shape(t), shp, sizeof shp));
        }
    for (int i = 0; i < g->nnodes; i++) {
        const TkoNode *n = &g->nodes[i];
        put(b, "%*s", indent, "");
        for (int o = 0; o < n->nout; o++) put(b, "%s%%%s", o ? ", " : "", n->outputs[o] >= 0 ? g->values[n->outputs[o]].name : "");
        put(b, " = %s%s%s(", n->domain, *n->domain ? "." : "", n->op);
        for (int k = 0; k < n->nin; k++) put(b, "%s%%%s", k ? ", " : "", n->inputs[k] >= 0 ? g->values[n->inputs[k]].name : "");
        put(b, ")");
        for (int a = 0; a < n->nattrs; a++) {
            const TkoAttr *at = &n->attrs[a];
            put(b, a ? ", %s=" : " {%s=", at->name);
            switch (at->type) {
            case TKO_ATTR_INT: put(b, "%lld", (long long)at->i); break;
            case TKO_ATTR_FLOAT: put(b, "%g", at->f); break;
            case TKO_ATTR_STRING: put(b, "'%s'", at->s); break;
            case TKO_ATTR_INTS:
                put(b, "[");
                for (int k = 0; k < at->n; k++) put(b, k ? ", %lld" : "%lld", (long long)at->ints[k]);
                put(b, "]");
                break;
            case TKO_ATTR_FLOATS:
                put(b, "[");
                for (int k = 0; k < at->n; k++) put(b, k ? ", %g" : "%g", at->floats[k]);
                put(b, "]");
                break;
            case TKO_ATTR_TENSOR: put(b, "tensor"); break;
            case TKO_ATTR_GRAPH: put(b, "graph"); break;
            default: put(b, "(type %d)", at->type); break;
            }
            if (a == n->nattrs - 1) put(b, "}");
        }
        put(b, "   # node '%s'", n->name);
        for (int o = 0; inferred && o < n->nout; o++)   /* what inference says the node makes */
            if (n->outputs[o] >= 0) {
                put(b, o ? ", " : " -> ");
                put_inferred(b, &g->values[n->outputs[o]].inf);
            }
        put(b, "\n");
        for (int a = 0; a < n->nattrs; a++) {
            if (n->attrs[a].g) {
                put(b, "%*s  subgraph %s:\n", indent, "", n->attrs[a].name);
                dump_graph(b, n->attrs[a].g, indent + 4, inferred);
            }
            for (int k = 0; k < n->attrs[a].n && n->attrs[a].type == TKO_ATTR_GRAPHS; k++) {
                put(b, "%*s  subgraph %s[%d]:\n", indent, "", n->attrs[a].name, k);
                dump_graph(b, n->attrs[a].graphs[k], indent + 4, inferred);
            }
        }
    }
    for (int o = 0; o < g->nout; o++) put(b, "%*soutput %%%s\n", indent, "", g->values[g->outputs[o]].name);
}

const char *tk_model_dump(tk_model *m)
{
    if (!m) return NULL;
    free(m->dump);
    Buf b = { 0 };
    put(&b, "# %s: IR version %lld, opsets", m->path, (long long)m->ir_version);
    for (int i = 0; i < m->nopsets; i++) put(&b, " %s:%lld", *m->opsets[i].domain ? m->opsets[i].domain : "ai.onnx", (long long)m->opsets[i].version);
    put(&b, "\n");
    dump_graph(&b, m->graph, 0, m->inferred);
    if (b.oom) {
        free(b.s);
        b.s = NULL;
    }
    m->dump = b.s;
    return m->dump ? m->dump : "(out of memory)";
}

/* Every value of the main graph with its inferred type, for `tkrun --dump=infer`:
 *
 *   %y: FLOAT[batch, 16]      (made by node 'mm')
 */
const char *tko_dump_inferred(TkoModel *m)
{
    free(m->dump);
    Buf b = { 0 };
    const TkoGraph *g = m->graph;
    put(&b, "# inferred: %d of %d values made by nodes fully derived (type and every dim)\n", m->infer_full, m->infer_values);
    for (int v = 0; v < g->nvalues; v++) {
        const TkoValue *val = &g->values[v];
        bool input = false;
        for (int i = 0; i < g->nin; i++) input |= g->inputs[i] == v;
        if (!input && val->producer < 0 && !val->constant) continue;   /* read by nobody, made by nobody */
        put(&b, "%%%s: ", val->name);
        put_inferred(&b, &val->inf);
        if (val->inf.nval >= 0) {   /* a shape being computed */
            char sh[96];
            put(&b, " = (");
            for (int k = 0; k < val->inf.nval; k++) put(&b, k ? ", %s" : "%s", tko_sym_str(val->inf.val[k], sh, sizeof sh));
            put(&b, ")");
        }
        if (input) put(&b, "   (input)\n");
        else if (val->constant) put(&b, "   (constant)\n");
        else put(&b, "   (node '%s')\n", g->nodes[val->producer].name);
    }
    if (b.oom) {
        free(b.s);
        b.s = NULL;
    }
    m->dump = b.s;
    return m->dump ? m->dump : "(out of memory)";
}
