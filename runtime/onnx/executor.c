/* executor.c — runs a prepared graph: nodes in order, each reading its
 * inputs from the value slots and writing its outputs there; a value is
 * released right after its last reader (graph_sort.c computed which), so
 * peak memory follows the graph's live set, not its size. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op.h"

#define MAX_NODE_IO 64

static void release_slot(tk_tensor **vals, int v)
{
    tk_tensor_release(vals[v]);
    vals[v] = NULL;
}

tk_status tko_execute(TkoModel *m, TkoGraph *g, tk_tensor **vals)
{
    tk_context *ctx = m->ctx;
    tk_status s = TK_OK;
    for (int v = 0; v < g->nvalues; v++)   /* bound values nobody reads */
        if (vals[v] && g->values[v].last_use < 0 && g->values[v].producer < 0) release_slot(vals, v);
    for (int i = 0; i < g->nnodes && !s; i++) {
        const TkoNode *n = &g->nodes[i];
        if (n->nin > MAX_NODE_IO || n->nout > MAX_NODE_IO) {
            s = tkr_error(ctx, TK_ERR_UNSUPPORTED, "node '%s' (%s) has more than %d inputs or outputs", n->name, n->op, MAX_NODE_IO);
            break;
        }
        tk_tensor *in[MAX_NODE_IO], *out[MAX_NODE_IO] = { 0 };
        for (int k = 0; k < n->nin; k++) {
            int v = n->inputs[k];
            in[k] = v >= 0 ? vals[v] : NULL;
            if (v >= 0 && !in[k])
                s = tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "node '%s' (%s): input %d '%s' has no value (an optional output no node produced)",
                              n->name, n->op, k, g->values[v].name);
        }
        if (s) break;
        TkoOpCtx oc = { ctx, m, g, n, in, n->nin, out, n->nout, vals };
        double t0 = ctx->profile ? tkr_now() : 0;
        s = n->def->run(&oc);
        if (ctx->profile && !s) {
            char label[160];
            snprintf(label, sizeof label, "%s '%s'", n->op, n->name);
            tkr_profile_record(ctx, "node", label, tkr_now() - t0);
        }
        for (int k = n->nout; k < MAX_NODE_IO; k++) tk_tensor_release(out[k]);   /* an op that wrote past its outputs */
        for (int k = 0; k < n->nout; k++) {
            int v = n->outputs[k];
            if (s || v < 0) tk_tensor_release(out[k]);
            else {
                tk_tensor_release(vals[v]);
                vals[v] = out[k];
            }
        }
        if (s) break;
        for (int k = 0; k < n->nfrees; k++) release_slot(vals, n->frees[k]);   /* read for the last time, or never */
    }
    if (s)
        for (int v = 0; v < g->nvalues; v++)
            if (vals[v]) release_slot(vals, v);
    return s;
}

tk_status tko_run_subgraph(TkoOpCtx *oc, TkoGraph *sg, tk_tensor *const *inputs, int nin, tk_tensor **outputs)
{
    if (nin != sg->nin)
        return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "subgraph '%s' takes %d inputs, given %d", sg->name, sg->nin, nin);
    if (!oc->vals) return tko_fail(oc, TK_ERR_INTERNAL, "a subgraph run without the enclosing graph's values");
    tk_tensor **vals = calloc((size_t)sg->nvalues + 1, sizeof *vals);
    if (!vals) return tko_fail(oc, TK_ERR_OUT_OF_MEMORY, "out of memory");
    for (int v = 0; v < sg->nvalues; v++)
        if (sg->values[v].constant) vals[v] = tk_tensor_retain(sg->values[v].constant);
    for (int k = 0; k < sg->nouter; k++) {
        int v = sg->outer[k];
        tk_tensor *t = oc->vals[sg->values[v].outer_index];
        vals[v] = t ? tk_tensor_retain(t) : NULL;
    }
    for (int i = 0; i < nin; i++) {
        tk_tensor_release(vals[sg->inputs[i]]);
        vals[sg->inputs[i]] = inputs[i] ? tk_tensor_retain(inputs[i]) : NULL;
    }
    tk_status s = tko_execute(oc->model, sg, vals);
    for (int o = 0; o < sg->nout; o++) outputs[o] = NULL;
    for (int o = 0; !s && o < sg->nout; o++) {
        tk_tensor *t = vals[sg->outputs[o]];
        if (!t) s = tko_fail(oc, TK_ERR_INTERNAL, "subgraph output '%s' was not computed", sg->values[sg->outputs[o]].name);
        else outputs[o] = tk_tensor_retain(t);
    }
    for (int v = 0; v < sg->nvalues; v++) tk_tensor_release(vals[v]);
    free(vals);
    if (s)
        for (int o = 0; o < sg->nout; o++) tk_tensor_release(outputs[o]), outputs[o] = NULL;
    return s;
}
