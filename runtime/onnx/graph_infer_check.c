/* graph_infer_check.c — with tk_onnx_opts.check_infer, every value a run
 * makes is compared with what graph_infer.c inferred for it before the run:
 * its element type, and each dim whose size the run's inputs bind (a dim
 * name's size comes from the graph inputs of this run). A disagreement is an
 * error naming the node, the value and both shapes: a bug in an inference
 * rule, which the tests look for over whole suites. */
#include <string.h>

#include "graph_infer_sym.h"
#include "op.h"
#include "onnx_tensor.h"

/* A dim name's size in this run (bound from the inputs by tko_infer_verify). */
static bool bound_size(void *arg, const char *name, int64_t *size)
{
    const TkoModel *m = arg;
    for (int j = 0; j < m->infer_nsyms; j++)
        if (strcmp(m->infer_sym_names[j], name) == 0) return *size = m->infer_sym_sizes[j], true;
    return false;
}

static tk_status verify_value(TkoModel *m, const TkoNode *n, const TkoValue *val, const tk_tensor *t)
{
    const TkoInfer *inf = &val->inf;
    if (!inf->valid) return TK_OK;
    const char *who = n ? n->name : "(graph input)";
    const char *op = n ? n->op : "input";
    char want[256], got[160], sh[64];
    if (inf->elem_type && tkr_onnx_type_of(tk_tensor_dtype(t)) != inf->elem_type)
        return tkr_error(m->ctx, TK_ERR_INTERNAL, "inference check: node '%s' (%s) made '%s' of type %s, inferred %s", who, op, val->name,
                         tk_dtype_name(tk_tensor_dtype(t)), tkr_onnx_type_name(inf->elem_type));
    if (inf->ndim < 0) return TK_OK;   /* rank unknown */
    size_t at = 0;
    tko_sym_append(want, sizeof want, &at, "[");
    for (int d = 0; d < inf->ndim; d++) tko_sym_append(want, sizeof want, &at, d ? ", %s" : "%s", tko_sym_str(inf->dims[d], sh, sizeof sh));
    tko_sym_append(want, sizeof want, &at, "]");
    tkr_shape_str(tk_tensor_ndim(t), tk_tensor_shape(t), got, sizeof got);
    bool bad = tk_tensor_ndim(t) != inf->ndim;
    for (int d = 0; !bad && d < inf->ndim; d++) {
        int64_t v;
        if (inf->dims[d] && tko_sym_eval(inf->dims[d], bound_size, m, &v)) bad = v != tk_tensor_shape(t)[d];
    }
    if (bad)
        return tkr_error(m->ctx, TK_ERR_INTERNAL, "inference check: node '%s' (%s) made '%s' of shape %s, inferred %s", who, op, val->name,
                         got, want);
    return TK_OK;
}

tk_status tko_infer_verify(TkoModel *m, TkoGraph *g, int node, tk_tensor *const *vals)
{
    if (!m->inferred) return TK_OK;
    if (node < 0) {
        if (g->parent) return TK_OK;
        m->infer_nsyms = 0;   /* a new run: bind the inputs' dim names */
        for (int i = 0; i < g->nin; i++) {
            const TkoValue *val = &g->values[g->inputs[i]];
            const tk_tensor *t = vals[g->inputs[i]];
            if (!t || val->inf.ndim != tk_tensor_ndim(t)) continue;
            for (int d = 0; d < val->inf.ndim; d++) {
                const char *name = tko_sym_bare_name(val->inf.dims[d]);
                if (!name) continue;
                int k = 0;
                while (k < m->infer_nsyms && strcmp(m->infer_sym_names[k], name) != 0) k++;
                if (k == m->infer_nsyms && k < (int)(sizeof m->infer_sym_names / sizeof m->infer_sym_names[0])) {
                    m->infer_sym_names[k] = name;
                    m->infer_sym_sizes[k] = tk_tensor_shape(t)[d];
                    m->infer_nsyms++;
                }
            }
        }
        for (int i = 0; i < g->nin; i++)
            if (vals[g->inputs[i]]) {
                tk_status s = verify_value(m, NULL, &g->values[g->inputs[i]], vals[g->inputs[i]]);
                if (s) return s;
            }
        return TK_OK;
    }
    const TkoNode *n = &g->nodes[node];
    for (int k = 0; k < n->nout; k++) {
        int v = n->outputs[k];
        if (v < 0 || !vals[v]) continue;
        tk_status s = verify_value(m, n, &g->values[v], vals[v]);
        if (s) return s;
    }
    return TK_OK;
}
