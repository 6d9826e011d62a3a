/* graph_plan_run.c — the executor's side of the memory plan: before a node
 * of the main graph, the calling thread is armed with its planned outputs'
 * sizes and places (alloc.c hands the op's first allocation of each size
 * out of the arena; a temporary that takes one is freed within the node, and
 * the output then comes from the allocator: both are safe). After the node,
 * what the op did is checked against the plan:
 *   - a block handed out from the arena and still held must be held by the
 *     output it was planned for, and by nothing else (a weight layout made
 *     on first use, say, would keep it past its planned life);
 *   - an output in the arena must be that planned place, or, from a node
 *     planned as aliasing, memory of one of its inputs.
 * A surprise stops placing for the rest of the run (the arena is released:
 * its memory stays while anything placed in it is held, and nothing new is
 * written into it), and teaches the planner about the node (plan_learned),
 * so the next run's plan treats it — and every node of its op — as aliasing. */
#include <stdlib.h>
#include <string.h>

#include "graph_plan.h"
#include "op.h"

static bool main_graph_planned(const TkoModel *m, const TkoGraph *g) { return m->run_plan && m->tensor_arena && g == m->graph; }

void tko_plan_arm(TkoModel *m, const TkoGraph *g, int node, TkoPlacing *pl)
{
    pl->n = 0;
    if (!main_graph_planned(m, g)) return;
    const TkoPlan *p = m->run_plan;
    const TkoNode *n = &g->nodes[node];
    for (int k = 0; k < n->nout && pl->n < TKR_ARENA_MAX_ARMED; k++) {
        int v = n->outputs[k];
        if (v < 0 || p->offset[v] < 0) continue;
        pl->value[pl->n] = v;
        pl->bytes[pl->n] = p->bytes[v];
        pl->offset[pl->n] = (size_t)p->offset[v];
        pl->n++;
    }
    if (pl->n) tkr_arena_arm(m->tensor_arena, pl->n, pl->bytes, pl->offset);
}

void tko_plan_disarm(TkoModel *m, TkoPlacing *pl)
{
    if (pl->n && m->tensor_arena) tkr_arena_disarm(m->tensor_arena, NULL, NULL);
    pl->n = 0;
}

static tk_tensor *output_tensor(const TkoNode *n, tk_tensor *const *vals, int k)
{
    return n->outputs[k] >= 0 ? vals[n->outputs[k]] : NULL;
}

/* Is storage st held by the node's output slots and by nothing else? */
static bool held_by_outputs_alone(const TkoNode *n, tk_tensor *const *vals, TkrStorage *st)
{
    long tensors = 0;
    for (int k = 0; k < n->nout; k++) {
        tk_tensor *t = output_tensor(n, vals, k);
        if (!t || t->storage != st) continue;
        long slots = 0;
        bool first = true;
        for (int j = 0; j < n->nout; j++)
            if (output_tensor(n, vals, j) == t) {
                if (j < k) first = false;
                slots++;
            }
        if (!first) continue;   /* one tensor in two outputs: counted once */
        tensors++;
        if (atomic_load(&t->refs) != slots) return false;
    }
    return tensors > 0 && atomic_load(&st->refs) == tensors;
}

static bool shares_an_input(tk_tensor *const *in, int nin, const tk_tensor *t)
{
    for (int j = 0; j < nin; j++)
        if (in[j] && in[j]->storage == t->storage) return true;
    return false;
}

/* The node taught us something: remember it, and leave the arena for the rest of the run. */
static void surprise(TkoModel *m, int node, uint8_t learn)
{
    if (!m->plan_learned) m->plan_learned = calloc((size_t)m->graph->nnodes + 1, 1);
    if (m->plan_learned) {
        const TkoNode *n = &m->graph->nodes[node];
        uint8_t was = m->plan_learned[node];
        /* an escape once is a cache filled on first use; twice, the node keeps memory every run */
        if (learn == TKO_LEARN_ESCAPED && (was & TKO_LEARN_ESCAPED)) learn = TKO_LEARN_ALIAS;
        m->plan_learned[node] = was | learn;
        /* an op that returned an input's memory here may anywhere: its every node, so one run teaches all */
        for (int j = 0; learn == TKO_LEARN_ALIAS && j < m->graph->nnodes; j++) {
            const TkoNode *o = &m->graph->nodes[j];
            if (strcmp(o->op, n->op) == 0 && strcmp(o->domain, n->domain) == 0) m->plan_learned[j] |= TKO_LEARN_ALIAS;
        }
    }
    m->mem.plan_misses++;
    tkr_arena_release(m->tensor_arena);   /* what is placed in it keeps it until released */
    m->tensor_arena = NULL;
    m->run_plan = NULL;
    if (learn & TKO_LEARN_ALIAS) tko_plans_free(m);   /* replanned on the next run */
}

void tko_plan_check(TkoModel *m, const TkoGraph *g, int node, TkoPlacing *pl, tk_tensor *const *in, int nin, tk_tensor *const *vals)
{
    if (!main_graph_planned(m, g)) return;
    const TkoPlan *p = m->run_plan;
    const TkoNode *n = &g->nodes[node];
    bool taken[TKR_ARENA_MAX_ARMED], live[TKR_ARENA_MAX_ARMED];
    if (pl->n) tkr_arena_disarm(m->tensor_arena, taken, live);
    char *base = tkr_arena_base(m->tensor_arena);
    for (int e = 0; e < pl->n; e++) {
        if (!taken[e] || !live[e]) continue;   /* never handed out, or a temporary already freed */
        tk_tensor *t = vals[pl->value[e]];
        if (!t || (char *)t->storage->data != base + pl->offset[e] || !held_by_outputs_alone(n, vals, t->storage)) {
            surprise(m, node, TKO_LEARN_ESCAPED);
            return;
        }
    }
    for (int k = 0; k < n->nout; k++) {
        int v = n->outputs[k];
        tk_tensor *t = output_tensor(n, vals, k);
        if (!t || !tkr_arena_contains(m->tensor_arena, t->storage->data)) continue;
        bool planned_here = p->offset[v] >= 0 && (char *)t->storage->data == base + p->offset[v];
        if (!planned_here && !(p->may_alias[node] && shares_an_input(in, nin, t))) {
            surprise(m, node, TKO_LEARN_ALIAS);
            return;
        }
    }
}
