/* graph_sort.c — nodes put in an order where each runs after the nodes
 * whose outputs it reads (ONNX requires sorted graphs, but exporters and
 * hand-edited files do not always keep to it). A node with subgraphs also
 * waits for the values its subgraphs read from this graph. Kahn's algorithm,
 * taking ready nodes in file order so a sorted graph keeps its order; nodes
 * left over form a cycle, refused naming one of them. Subgraphs are sorted
 * too. Then liveness: each value's last reader, so the executor frees
 * intermediates as soon as nothing needs them. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "onnx_ir.h"

/* Calls fn for each value of g a node reads: its inputs, and what its
 * subgraphs (at any depth) take from g. */
static void node_reads(const TkoGraph *g, const TkoNode *n, void (*fn)(int v, void *arg), void *arg);

static void subgraph_reads(const TkoGraph *g, const TkoGraph *sg, void (*fn)(int v, void *arg), void *arg)
{
    for (int k = 0; k < sg->nouter; k++) fn(sg->values[sg->outer[k]].outer_index, arg);   /* indices in g, sg's parent */
    (void)g;
}

static void node_reads(const TkoGraph *g, const TkoNode *n, void (*fn)(int v, void *arg), void *arg)
{
    for (int i = 0; i < n->nin; i++)
        if (n->inputs[i] >= 0) fn(n->inputs[i], arg);
    for (int a = 0; a < n->nattrs; a++) {
        const TkoAttr *at = &n->attrs[a];
        if (at->g) subgraph_reads(g, at->g, fn, arg);
        for (int k = 0; k < at->n && at->type == TKO_ATTR_GRAPHS; k++) subgraph_reads(g, at->graphs[k], fn, arg);
    }
}

typedef struct {
    const TkoGraph *g;
    int *pending;       /* per node: producers not yet placed */
    int node;
    int **users;        /* per value: the nodes reading it */
    int *nusers;
    bool count_only;
} Deps;

static void count_dep(int v, void *arg)
{
    Deps *d = arg;
    if (d->g->values[v].producer >= 0) {
        if (d->count_only) d->nusers[v]++;
        else {
            d->users[v][d->nusers[v]++] = d->node;
            d->pending[d->node]++;
        }
    }
}

tk_status tko_sort_graph(TkoModel *m, TkoGraph *g)
{
    int nn = g->nnodes, nv = g->nvalues;
    for (int i = 0; i < nn; i++)   /* subgraphs first */
        for (int a = 0; a < g->nodes[i].nattrs; a++) {
            TkoAttr *at = &g->nodes[i].attrs[a];
            tk_status s;
            if (at->g && (s = tko_sort_graph(m, at->g))) return s;
            for (int k = 0; k < at->n && at->type == TKO_ATTR_GRAPHS; k++)
                if ((s = tko_sort_graph(m, at->graphs[k]))) return s;
        }
    if (nn == 0) return TK_OK;
    int *pending = calloc((size_t)nn, sizeof *pending), *nusers = calloc((size_t)nv, sizeof *nusers);
    int **users = calloc((size_t)nv, sizeof *users), *order = malloc((size_t)nn * sizeof *order);
    int *queue = malloc((size_t)nn * sizeof *queue);
    tk_status s = TK_OK;
    if (!pending || !nusers || !users || !order || !queue) {
        s = tkr_error(m->ctx, TK_ERR_OUT_OF_MEMORY, "tk_onnx_load: out of memory sorting the graph");
        goto done;
    }
    Deps d = { g, pending, 0, users, nusers, true };
    for (int i = 0; i < nn; i++) d.node = i, node_reads(g, &g->nodes[i], count_dep, &d);
    for (int v = 0; v < nv; v++)
        if (nusers[v] && !(users[v] = malloc((size_t)nusers[v] * sizeof(int)))) {
            s = tkr_error(m->ctx, TK_ERR_OUT_OF_MEMORY, "tk_onnx_load: out of memory sorting the graph");
            goto done;
        }
    memset(nusers, 0, (size_t)nv * sizeof *nusers);
    d.count_only = false;
    for (int i = 0; i < nn; i++) d.node = i, node_reads(g, &g->nodes[i], count_dep, &d);
    /* a min-ordered ready set: nodes become ready in any order, but the file order wins ties */
    int nq = 0, placed = 0;
    for (int i = 0; i < nn; i++)
        if (!pending[i]) queue[nq++] = i;
    while (nq) {
        int best = 0;   /* the smallest index ready: O(n^2) worst case, linear for sorted graphs */
        for (int k = 1; k < nq; k++)
            if (queue[k] < queue[best]) best = k;
        int i = queue[best];
        queue[best] = queue[--nq];
        order[placed++] = i;
        const TkoNode *n = &g->nodes[i];
        for (int o = 0; o < n->nout; o++) {
            int v = n->outputs[o];
            if (v < 0) continue;
            for (int u = 0; u < nusers[v]; u++)
                if (--pending[users[v][u]] == 0) queue[nq++] = users[v][u];
        }
    }
    if (placed < nn) {
        int stuck = 0;
        while (!pending[stuck]) stuck++;
        s = tkr_error(m->ctx, TK_ERR_IO, "tk_onnx_load: '%s': the graph%s%s has a cycle through node '%s' (%s)", m->path,
                      *g->name ? " " : "", g->name, g->nodes[stuck].name, g->nodes[stuck].op);
        goto done;
    }
    TkoNode *sorted = tko_alloc(&m->arena, (size_t)nn * sizeof *sorted);
    if (!sorted) {
        s = tkr_error(m->ctx, TK_ERR_OUT_OF_MEMORY, "tk_onnx_load: out of memory sorting the graph");
        goto done;
    }
    for (int k = 0; k < nn; k++) sorted[k] = g->nodes[order[k]];
    g->nodes = sorted;
    for (int k = 0; k < nn; k++)
        for (int o = 0; o < sorted[k].nout; o++)
            if (sorted[k].outputs[o] >= 0) g->values[sorted[k].outputs[o]].producer = k;
done:
    if (users)
        for (int v = 0; v < nv; v++) free(users[v]);
    free(users), free(nusers), free(pending), free(order), free(queue);
    return s;
}

/* ------------------------------------------------------------ liveness */

typedef struct {
    TkoGraph *g;
    int node;
} Live;

static void note_use(int v, void *arg)
{
    Live *l = arg;
    if (l->g->values[v].last_use < l->node) l->g->values[v].last_use = l->node;
}

tk_status tko_liveness(TkoModel *m, TkoGraph *g)
{
    for (int v = 0; v < g->nvalues; v++) g->values[v].last_use = -1;
    Live l = { g, 0 };
    for (int i = 0; i < g->nnodes; i++) {
        l.node = i;
        node_reads(g, &g->nodes[i], note_use, &l);
        g->nodes[i].nfrees = 0;
        for (int a = 0; a < g->nodes[i].nattrs; a++) {
            TkoAttr *at = &g->nodes[i].attrs[a];
            tk_status s;
            if (at->g && (s = tko_liveness(m, at->g))) return s;
            for (int k = 0; k < at->n && at->type == TKO_ATTR_GRAPHS; k++)
                if ((s = tko_liveness(m, at->graphs[k]))) return s;
        }
    }
    for (int o = 0; o < g->nout; o++) g->values[g->outputs[o]].last_use = g->nnodes;   /* outputs live to the end */
    /* each node's free list: what it read last, and its outputs nobody reads */
    for (int v = 0; v < g->nvalues; v++) {
        int at = g->values[v].last_use;
        if (at < 0 && g->values[v].producer >= 0) at = g->values[v].producer;
        if (at >= 0 && at < g->nnodes) g->nodes[at].nfrees++;
    }
    for (int i = 0; i < g->nnodes; i++) {
        g->nodes[i].frees = tko_alloc(&m->arena, (size_t)(g->nodes[i].nfrees + 1) * sizeof(int));
        if (!g->nodes[i].frees) return tkr_error(m->ctx, TK_ERR_OUT_OF_MEMORY, "tk_onnx_load: out of memory");
        g->nodes[i].nfrees = 0;
    }
    for (int v = 0; v < g->nvalues; v++) {
        int at = g->values[v].last_use;
        if (at < 0 && g->values[v].producer >= 0) at = g->values[v].producer;
        if (at >= 0 && at < g->nnodes) g->nodes[at].frees[g->nodes[at].nfrees++] = v;
    }
    return TK_OK;
}
