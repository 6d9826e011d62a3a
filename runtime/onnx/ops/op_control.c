/* op_control.c — If, Loop and Scan: subgraphs run by the executor
 * (tko_run_subgraph), reading the enclosing graph's values as they are.
 * Loop and Scan stack their per-iteration scan outputs at the end. */
#include <stdlib.h>
#include <string.h>

#include "op.h"
#include "tk/shape.h"

static TkoGraph *graph_attr(const TkoNode *n, const char *name)
{
    const TkoAttr *a = tko_attr(n, name);
    return a && a->type == TKO_ATTR_GRAPH ? a->g : NULL;
}

static bool truth(TkoOpCtx *oc, const tk_tensor *t, tk_status *s)
{
    if (tk_tensor_numel(t) != 1) {
        *s = tko_fail(oc, TK_ERR_SHAPE, "the condition has %lld elements, not one", (long long)tk_tensor_numel(t));
        return false;
    }
    double v = 0;
    int64_t idx[TK_MAX_DIMS] = { 0 };
    *s = tko_wrap(oc, tk_item(oc->ctx, t, idx, &v));
    return v != 0;
}

static tk_status run_if(TkoOpCtx *oc)
{
    tk_status s;
    bool c = truth(oc, oc->in[0], &s);
    if (s) return s;
    TkoGraph *g = graph_attr(oc->node, c ? "then_branch" : "else_branch");
    if (g->nout != oc->nout)
        return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "the %s branch has %d outputs, the node %d", c ? "then" : "else", g->nout, oc->nout);
    return tko_run_subgraph(oc, g, NULL, NULL, 0, oc->out, oc->seq_out);
}

static const char *check_if(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    if (!graph_attr(n, "then_branch") || !graph_attr(n, "else_branch")) {
        snprintf(why, len, "then_branch and else_branch must both be graphs");
        return why;
    }
    return NULL;
}

/* Per-iteration scan outputs, stacked at the end along a new axis. */
typedef struct {
    tk_tensor **items;
    int64_t n, cap;
} Stack;

static bool push(Stack *st, tk_tensor *t)
{
    if (st->n == st->cap) {
        int64_t cap = st->cap ? 2 * st->cap : 16;
        tk_tensor **items = realloc(st->items, (size_t)cap * sizeof *items);
        if (!items) return false;
        st->items = items, st->cap = cap;
    }
    st->items[st->n++] = t;
    return true;
}

static void stack_free(Stack *st)
{
    for (int64_t i = 0; i < st->n; i++) tk_tensor_release(st->items[i]);
    free(st->items);
}

/* Stacks along `axis`; reversed when reverse is set. An empty stack has no
 * shape to take: an error (ONNX leaves it to the body's declared type). */
static tk_status stack_out(TkoOpCtx *oc, Stack *st, int axis, bool reverse, tk_tensor **out)
{
    if (st->n == 0) return tko_fail(oc, TK_ERR_UNSUPPORTED, "a scan output of zero iterations (its shape is unknown)");
    if (st->n > 1 << 30) return tko_fail(oc, TK_ERR_OUT_OF_MEMORY, "too many iterations to stack");
    if (reverse)
        for (int64_t i = 0; i < st->n / 2; i++) {
            tk_tensor *t = st->items[i];
            st->items[i] = st->items[st->n - 1 - i];
            st->items[st->n - 1 - i] = t;
        }
    return tko_wrap(oc, tk_stack(oc->ctx, (const tk_tensor *const *)st->items, (int)st->n, axis, out));
}

static tk_status run_loop(TkoOpCtx *oc)
{
    TkoGraph *body = graph_attr(oc->node, "body");
    int ncarried = oc->nin - 2, nscan = body->nout - 1 - ncarried;
    if (nscan < 0 || body->nin != 2 + ncarried || oc->nout != ncarried + nscan)
        return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "the body takes %d inputs and gives %d outputs for %d loop-carried values",
                        body->nin, body->nout, ncarried);
    int64_t max_trips = INT64_MAX;
    tk_status s = TK_OK;
    if (oc->in[0]) {
        double v;
        if ((s = tko_input_scalar(oc, 0, &v))) return s;
        max_trips = (int64_t)v;
    }
    bool cond = true;
    if (oc->in[1]) {
        cond = truth(oc, oc->in[1], &s);
        if (s) return s;
    }
    tk_tensor **state = calloc((size_t)(body->nin + body->nout) + 1, sizeof *state);
    TkoSeq **sstate = calloc((size_t)(body->nin + body->nout) + 1, sizeof *sstate);   /* carried sequences */
    Stack *scans = calloc((size_t)nscan + 1, sizeof *scans);
    if (!state || !sstate || !scans) {
        free(state), free(sstate), free(scans);
        return tko_fail(oc, TK_ERR_OUT_OF_MEMORY, "out of memory");
    }
    tk_tensor **bin = state, **bout = state + body->nin;
    TkoSeq **sbin = sstate, **sbout = sstate + body->nin;
    for (int k = 0; k < ncarried; k++) {
        bin[2 + k] = oc->in[2 + k] ? tk_tensor_retain(oc->in[2 + k]) : NULL;
        sbin[2 + k] = oc->seq_in && oc->seq_in[2 + k] ? tko_seq_retain(oc->seq_in[2 + k]) : NULL;
    }
    for (int64_t it = 0; !s && cond && it < max_trips; it++) {
        bool c = cond;
        if ((s = tko_wrap(oc, tk_from_data(oc->ctx, &it, TK_DTYPE_I64, 0, NULL, &bin[0])))) break;
        if ((s = tko_wrap(oc, tk_from_data(oc->ctx, &c, TK_DTYPE_BOOL, 0, NULL, &bin[1])))) break;
        s = tko_run_subgraph(oc, body, bin, sbin, body->nin, bout, sbout);
        for (int k = 0; k < body->nin; k++) tk_tensor_release(bin[k]), bin[k] = NULL, tko_seq_release(sbin[k]), sbin[k] = NULL;
        if (s) break;
        if (!bout[0]) {
            s = tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "the body's condition output is not a tensor");
            break;
        }
        cond = truth(oc, bout[0], &s);
        tk_tensor_release(bout[0]);
        bout[0] = NULL;
        for (int k = 0; k < ncarried; k++) bin[2 + k] = bout[1 + k], bout[1 + k] = NULL, sbin[2 + k] = sbout[1 + k], sbout[1 + k] = NULL;
        for (int k = 0; !s && k < nscan; k++) {
            if (!push(&scans[k], bout[1 + ncarried + k])) s = tko_fail(oc, TK_ERR_OUT_OF_MEMORY, "out of memory");
            else bout[1 + ncarried + k] = NULL;
        }
    }
    for (int k = 0; !s && k < ncarried; k++) {
        oc->out[k] = bin[2 + k], bin[2 + k] = NULL;
        if (oc->seq_out) oc->seq_out[k] = sbin[2 + k], sbin[2 + k] = NULL;
    }
    for (int k = 0; !s && k < nscan; k++) s = stack_out(oc, &scans[k], 0, false, &oc->out[ncarried + k]);
    for (int k = 0; k < body->nin + body->nout; k++) tk_tensor_release(state[k]), tko_seq_release(sstate[k]);
    for (int k = 0; k < nscan; k++) stack_free(&scans[k]);
    free(state), free(sstate), free(scans);
    return s;
}

static const char *check_body(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    if (!graph_attr(n, "body")) {
        snprintf(why, len, "the body attribute must be a graph");
        return why;
    }
    return NULL;
}

/* Scan (opset 9+): inputs are N states then M scan inputs, sliced along
 * their scan axes (optionally from the end) one step per iteration. */
static tk_status run_scan(TkoOpCtx *oc)
{
    const TkoNode *n = oc->node;
    TkoGraph *body = graph_attr(n, "body");
    int m_in = (int)tko_attr_int(n, "num_scan_inputs", 0), nstate = oc->nin - m_in, k_out = body->nout - nstate;
    int c_axes, c_dirs, c_oaxes, c_odirs;
    const int64_t *axes = tko_attr_ints(n, "scan_input_axes", &c_axes), *dirs = tko_attr_ints(n, "scan_input_directions", &c_dirs);
    const int64_t *oaxes = tko_attr_ints(n, "scan_output_axes", &c_oaxes), *odirs = tko_attr_ints(n, "scan_output_directions", &c_odirs);
    if (m_in < 1 || nstate < 0 || k_out < 0 || body->nin != nstate + m_in || oc->nout != nstate + k_out)
        return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "%d inputs with num_scan_inputs %d do not fit a body of %d inputs and %d outputs",
                        oc->nin, m_in, body->nin, body->nout);
    int64_t len = -1;
    int axis_of[64];
    if (m_in > 64) return tko_fail(oc, TK_ERR_UNSUPPORTED, "more than 64 scan inputs");
    tk_status s = TK_OK;
    for (int j = 0; j < m_in; j++) {
        const tk_tensor *x = oc->in[nstate + j];
        if ((s = tko_axis(oc, j < c_axes ? axes[j] : 0, tk_tensor_ndim(x), &axis_of[j]))) return s;
        int64_t l = tk_tensor_shape(x)[axis_of[j]];
        if (len >= 0 && l != len) return tko_fail(oc, TK_ERR_SHAPE, "scan inputs of lengths %lld and %lld", (long long)len, (long long)l);
        len = l;
    }
    tk_tensor **bin = calloc((size_t)(body->nin + body->nout) + 1, sizeof *bin), **bout = bin ? bin + body->nin : NULL;
    Stack *scans = calloc((size_t)k_out + 1, sizeof *scans);
    if (!bin || !scans) {
        free(bin), free(scans);
        return tko_fail(oc, TK_ERR_OUT_OF_MEMORY, "out of memory");
    }
    for (int k = 0; k < nstate; k++) bin[k] = tk_tensor_retain(oc->in[k]);
    for (int64_t it = 0; !s && it < len; it++) {
        for (int j = 0; !s && j < m_in; j++) {
            int64_t at = (j < c_dirs && dirs[j]) ? len - 1 - it : it;
            s = tko_wrap(oc, tk_select(oc->ctx, oc->in[nstate + j], axis_of[j], at, &bin[nstate + j]));
        }
        if (!s) s = tko_run_subgraph(oc, body, bin, NULL, body->nin, bout, NULL);
        for (int k = 0; k < body->nin; k++) tk_tensor_release(bin[k]), bin[k] = NULL;
        if (s) break;
        for (int k = 0; k < nstate; k++) bin[k] = bout[k], bout[k] = NULL;
        for (int k = 0; !s && k < k_out; k++) {
            if (!push(&scans[k], bout[nstate + k])) s = tko_fail(oc, TK_ERR_OUT_OF_MEMORY, "out of memory");
            else bout[nstate + k] = NULL;
        }
    }
    for (int k = 0; !s && k < nstate; k++) oc->out[k] = bin[k], bin[k] = NULL;
    for (int k = 0; !s && k < k_out; k++) {
        int axis = 0;
        if (scans[k].n) {
            int rank = tk_tensor_ndim(scans[k].items[0]) + 1;
            if ((s = tko_axis(oc, k < c_oaxes ? oaxes[k] : 0, rank, &axis))) break;
        }
        s = stack_out(oc, &scans[k], axis, k < c_odirs && odirs[k], &oc->out[nstate + k]);
    }
    for (int k = 0; k < body->nin + body->nout; k++) tk_tensor_release(bin[k]);
    for (int k = 0; k < k_out; k++) stack_free(&scans[k]);
    free(bin), free(scans);
    return s;
}

static const TkoOpDef defs[] = {
    VALDEF("If", 1, TKO_ANY, "then_branch,else_branch", run_if, check_if, 1, 1, 0),
    VALDEF("Loop", 1, TKO_ANY, "body", run_loop, check_body, 2, -1, 0),
    OPDEF("Scan", 9, TKO_ANY, "body,num_scan_inputs,scan_input_axes,scan_input_directions,scan_output_axes,scan_output_directions",
          run_scan, check_body, 1, -1, 0),
};

TKO_FAMILY_OF(tko_ops_control, defs);
