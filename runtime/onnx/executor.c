/* executor.c — runs a prepared graph: nodes in order, each reading its
 * inputs from the value slots and writing its outputs there; a value is
 * released right after its last reader (graph_sort.c computed which), so
 * peak memory follows the graph's live set, not its size. With a memory
 * plan (graph_plan.c), a node of the main graph makes its planned outputs
 * at their places in the arena (graph_plan_run.c arms and checks). A slot holds a
 * tensor, or a sequence / empty optional (TkoSeq) in the parallel seqs
 * array. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph_plan.h"
#include "op.h"

#define MAX_NODE_IO 64

static void release_slot(tk_tensor **vals, TkoSeq **seqs, int v)
{
    tk_tensor_release(vals[v]);
    vals[v] = NULL;
    tko_seq_release(seqs[v]);
    seqs[v] = NULL;
}

tk_status tko_execute(TkoModel *m, TkoGraph *g, tk_tensor **vals, TkoSeq **seqs)
{
    tk_context *ctx = m->ctx;
    tk_status s = TK_OK;
    for (int v = 0; v < g->nvalues; v++)   /* bound values nobody reads */
        if ((vals[v] || seqs[v]) && g->values[v].last_use < 0 && g->values[v].producer < 0) release_slot(vals, seqs, v);
    if (m->opts.check_infer) s = tko_infer_verify(m, g, -1, vals);
    for (int i = 0; i < g->nnodes && !s; i++) {
        const TkoNode *n = &g->nodes[i];
        if (n->nin > MAX_NODE_IO || n->nout > MAX_NODE_IO) {
            s = tkr_error(ctx, TK_ERR_UNSUPPORTED, "node '%s' (%s) has more than %d inputs or outputs", n->name, n->op, MAX_NODE_IO);
            break;
        }
        tk_tensor *in[MAX_NODE_IO], *out[MAX_NODE_IO] = { 0 };
        TkoSeq *seq_in[MAX_NODE_IO], *seq_out[MAX_NODE_IO] = { 0 };
        for (int k = 0; k < n->nin; k++) {
            int v = n->inputs[k];
            in[k] = v >= 0 ? vals[v] : NULL;
            seq_in[k] = v >= 0 ? seqs[v] : NULL;
            if (v >= 0 && !in[k] && !seq_in[k])
                s = tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "node '%s' (%s): input %d '%s' has no value (an optional output no node produced)",
                              n->name, n->op, k, g->values[v].name);
            else if (seq_in[k] && !n->def->values)
                s = tkr_error(ctx, TK_ERR_UNSUPPORTED, "node '%s' (%s): input %d '%s' is a %s, the op takes tensors", n->name, n->op, k,
                              g->values[v].name, seq_in[k]->none ? "empty optional" : "sequence");
        }
        if (s) break;
        TkoOpCtx oc = { ctx, m, g, n, in, n->nin, out, n->nout, vals, seq_in, seq_out, seqs };
        double t0 = ctx->profile ? tkr_now() : 0;
        TkoPlacing placing;
        tko_plan_arm(m, g, i, &placing);
        s = n->def->run(&oc);
        if (s) tko_plan_disarm(m, &placing);
        if (ctx->profile && !s) {
            char label[160];
            snprintf(label, sizeof label, "%s '%s'", n->op, n->name);
            tkr_profile_record(ctx, "node", label, tkr_now() - t0);
        }
        for (int k = n->nout; k < MAX_NODE_IO; k++) {   /* an op that wrote past its outputs */
            tk_tensor_release(out[k]);
            tko_seq_release(seq_out[k]);
        }
        for (int k = 0; k < n->nout; k++) {
            int v = n->outputs[k];
            if (s || v < 0) {
                tk_tensor_release(out[k]);
                tko_seq_release(seq_out[k]);
            } else {
                release_slot(vals, seqs, v);
                vals[v] = out[k];
                seqs[v] = seq_out[k];
            }
        }
        if (!s) tko_plan_check(m, g, i, &placing, in, n->nin, vals);
        if (!s && m->opts.check_infer) s = tko_infer_verify(m, g, i, vals);   /* debug: inferred vs made */
        if (s) break;
        for (int k = 0; k < n->nfrees; k++) release_slot(vals, seqs, n->frees[k]);   /* read for the last time, or never */
    }
    if (s)
        for (int v = 0; v < g->nvalues; v++) release_slot(vals, seqs, v);
    return s;
}

tk_status tko_run_subgraph(TkoOpCtx *oc, TkoGraph *sg, tk_tensor *const *inputs, TkoSeq *const *seq_inputs, int nin,
                           tk_tensor **outputs, TkoSeq **seq_outputs)
{
    for (int o = 0; o < sg->nout; o++) {
        outputs[o] = NULL;
        if (seq_outputs) seq_outputs[o] = NULL;
    }
    if (nin != sg->nin)
        return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "subgraph '%s' takes %d inputs, given %d", sg->name, sg->nin, nin);
    if (!oc->vals) return tko_fail(oc, TK_ERR_INTERNAL, "a subgraph run without the enclosing graph's values");
    tk_tensor **vals = calloc((size_t)sg->nvalues + 1, sizeof *vals);
    TkoSeq **seqs = calloc((size_t)sg->nvalues + 1, sizeof *seqs);
    if (!vals || !seqs) {
        free(vals), free(seqs);
        return tko_fail(oc, TK_ERR_OUT_OF_MEMORY, "out of memory");
    }
    for (int v = 0; v < sg->nvalues; v++)
        if (sg->values[v].constant) vals[v] = tk_tensor_retain(sg->values[v].constant);
    for (int k = 0; k < sg->nouter; k++) {
        int v = sg->outer[k], ov = sg->values[v].outer_index;
        vals[v] = oc->vals[ov] ? tk_tensor_retain(oc->vals[ov]) : NULL;
        seqs[v] = oc->seqs && oc->seqs[ov] ? tko_seq_retain(oc->seqs[ov]) : NULL;
    }
    for (int i = 0; i < nin; i++) {
        int v = sg->inputs[i];
        tk_tensor_release(vals[v]);
        vals[v] = inputs && inputs[i] ? tk_tensor_retain(inputs[i]) : NULL;
        seqs[v] = seq_inputs && seq_inputs[i] ? tko_seq_retain(seq_inputs[i]) : NULL;
    }
    tk_status s = tko_execute(oc->model, sg, vals, seqs);
    for (int o = 0; !s && o < sg->nout; o++) {
        int v = sg->outputs[o];
        if (vals[v]) outputs[o] = tk_tensor_retain(vals[v]);
        else if (seqs[v] && seq_outputs) seq_outputs[o] = tko_seq_retain(seqs[v]);
        else if (seqs[v]) s = tko_fail(oc, TK_ERR_UNSUPPORTED, "subgraph output '%s' is a sequence where a tensor is needed", sg->values[v].name);
        else s = tko_fail(oc, TK_ERR_INTERNAL, "subgraph output '%s' was not computed", sg->values[v].name);
    }
    for (int v = 0; v < sg->nvalues; v++) {
        tk_tensor_release(vals[v]);
        tko_seq_release(seqs[v]);
    }
    free(vals), free(seqs);
    if (s)
        for (int o = 0; o < sg->nout; o++) {
            tk_tensor_release(outputs[o]), outputs[o] = NULL;
            if (seq_outputs) tko_seq_release(seq_outputs[o]), seq_outputs[o] = NULL;
        }
    return s;
}

/* ------------------------------------------------------------ sequences */

TkoSeq *tko_seq_new(bool none)
{
    TkoSeq *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    __atomic_store_n(&s->refs, 1, __ATOMIC_RELAXED);
    s->none = none;
    return s;
}

TkoSeq *tko_seq_retain(TkoSeq *s)
{
    if (s) __atomic_add_fetch(&s->refs, 1, __ATOMIC_RELAXED);
    return s;
}

void tko_seq_release(TkoSeq *s)
{
    if (!s || __atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL) != 0) return;
    for (int i = 0; i < s->n; i++) tk_tensor_release(s->items[i]);
    free(s->items);
    free(s);
}

bool tko_seq_insert(TkoSeq *s, int at, tk_tensor *t)
{
    if (at < 0 || at > s->n) return false;
    if (s->n == s->cap) {
        int cap = s->cap ? 2 * s->cap : 8;
        tk_tensor **items = realloc(s->items, (size_t)cap * sizeof *items);
        if (!items) return false;
        s->items = items, s->cap = cap;
    }
    memmove(s->items + at + 1, s->items + at, (size_t)(s->n - at) * sizeof *s->items);
    s->items[at] = tk_tensor_retain(t);
    s->n++;
    return true;
}
