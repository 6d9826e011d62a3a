/* graph_fold.c — constant folding: a node whose inputs are all constants
 * (initializers, Constant nodes, earlier folds) runs once at load and its
 * outputs become constants; the node leaves the graph. This removes the
 * shape arithmetic exporters write (Shape -> Gather -> Concat -> Reshape on
 * constant shapes) and every Constant node from the run. Nodes with
 * subgraphs and random ops are left alone. */
#include <stdlib.h>
#include <string.h>

#include "op.h"

static bool foldable(const TkoNode *n)
{
    static const char *const random_ops[] = { "RandomNormal", "RandomUniform", "RandomNormalLike", "RandomUniformLike",
                                              "Multinomial", "Bernoulli", "Dropout" };
    for (size_t k = 0; k < sizeof random_ops / sizeof random_ops[0]; k++)
        if (strcmp(n->op, random_ops[k]) == 0) return false;
    for (int a = 0; a < n->nattrs; a++)
        if (n->attrs[a].g || n->attrs[a].type == TKO_ATTR_GRAPHS) return false;
    return n->nout > 0;
}

tk_status tko_fold_constants(TkoModel *m, TkoGraph *g)
{
    bool *folded = calloc((size_t)g->nnodes + 1, sizeof *folded);
    if (!folded) return tkr_error(m->ctx, TK_ERR_OUT_OF_MEMORY, "tk_onnx_load: out of memory");
    tk_status s = TK_OK;
    for (int i = 0; i < g->nnodes && !s; i++) {
        TkoNode *n = &g->nodes[i];
        bool all_const = foldable(n) && n->nin <= 64 && n->nout <= 64;
        for (int k = 0; all_const && k < n->nin; k++) all_const = n->inputs[k] < 0 || g->values[n->inputs[k]].constant;
        if (!all_const) continue;
        tk_tensor *in[64], *out[64] = { 0 };
        TkoSeq *seq_in[64] = { 0 }, *seq_out[64] = { 0 };
        for (int k = 0; k < n->nin; k++) in[k] = n->inputs[k] < 0 ? NULL : g->values[n->inputs[k]].constant;
        TkoOpCtx oc = { m->ctx, m, g, n, in, n->nin, out, n->nout, NULL, seq_in, seq_out, NULL };
        s = n->def->run(&oc);
        bool made_seq = false;   /* a sequence is not a constant: the node stays */
        for (int k = 0; k < 64; k++) made_seq |= seq_out[k] != NULL, tko_seq_release(seq_out[k]);
        for (int k = n->nout; k < 64; k++) tk_tensor_release(out[k]);   /* an op that wrote past its outputs */
        if (s || made_seq) {   /* an error at load names the node: the run would fail the same way */
            for (int k = 0; k < n->nout; k++) tk_tensor_release(out[k]);
            if (s) break;
            continue;
        }
        folded[i] = true;
        for (int k = 0; k < n->nout; k++) {
            int v = n->outputs[k];
            if (v < 0 || !out[k]) {
                tk_tensor_release(out[k]);
                continue;
            }
            g->values[v].constant = out[k];
            g->values[v].producer = -1;
        }
        for (int a = 0; a < n->nattrs; a++) {   /* the node leaves the graph: its tensors go (outputs hold their own references) */
            tk_tensor_release(n->attrs[a].t);
            n->attrs[a].t = NULL;
        }
    }
    if (!s) {
        int kept = 0;
        for (int i = 0; i < g->nnodes; i++)
            if (!folded[i]) g->nodes[kept++] = g->nodes[i];
        g->nnodes = kept;
        for (int i = 0; i < kept; i++)   /* producers moved */
            for (int o = 0; o < g->nodes[i].nout; o++)
                if (g->nodes[i].outputs[o] >= 0) g->values[g->nodes[i].outputs[o]].producer = i;
    }
    free(folded);
    return s;
}
