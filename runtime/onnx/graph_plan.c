/* graph_plan.c — the memory plan: for one binding of the main graph's dim
 * names, every intermediate whose size inference knows gets a place in one
 * arena, chosen by liveness so that values never live at once share memory.
 *
 * A value lives from its producer to its last reader (graph_sort.c). An op
 * may return an input, or a view of it (Reshape, Transpose, Identity, a
 * Gemm that adds nothing): such an output is not placed, and the values it
 * may share memory with form one group living until the group's last
 * reader. Which ops make fresh outputs is a list (fresh_ops); any other op
 * is taken to alias. Nothing of a group that reaches a graph output, a
 * subgraph, or an op on sequences is planned: that memory leaves the run.
 * The executor checks every run against the plan (a node that surprises it
 * is planned as aliasing from then on: plan_learned).
 *
 * Placement: largest first, each into the smallest free gap (64-byte
 * aligned) among the placed values whose lives overlap its own, or on top. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph_infer_sym.h"
#include "graph_plan.h"
#include "op.h"

/* Ops whose every output is new memory, never an input or a view of one
 * (read in ops/: they allocate through tk_* kernels, and a dtype fix-up
 * only converts). A missing op only costs memory: it is taken to alias. */
static const char fresh_ops[] =
    "Conv,ConvTranspose,MatMul,Gemm,Add,Sub,Mul,Div,Pow,Relu,LeakyRelu,Elu,Selu,Sigmoid,HardSigmoid,HardSwish,Tanh,Erf,"
    "Sqrt,Exp,Log,Neg,Abs,Reciprocal,Floor,Ceil,Round,Sin,Cos,Clip,Where,Equal,Less,LessOrEqual,Greater,GreaterOrEqual,"
    "Softmax,LogSoftmax,BatchNormalization,LayerNormalization,InstanceNormalization,MaxPool,AveragePool,"
    "GlobalAveragePool,GlobalMaxPool,FusedConv,FusedLinear,FusedAttention,FusedGelu";

#define TKO_PLAN_MAX_CACHED 16   /* plans kept per model */

static bool op_is_fresh(const TkoModel *m, const TkoNode *n)
{
    if (m->plan_assume_fresh && tko_listed(m->plan_assume_fresh, n->op)) return true;
    return (n->domain[0] == 0 || strcmp(n->domain, "tk") == 0) && tko_listed(fresh_ops, n->op);
}

/* A node whose outputs are memory of ops we cannot see through: subgraphs, sequences. */
static bool op_is_opaque(const TkoNode *n)
{
    if (n->def && n->def->values) return true;
    for (int a = 0; a < n->nattrs; a++)
        if (n->attrs[a].type == TKO_ATTR_GRAPH || n->attrs[a].type == TKO_ATTR_GRAPHS) return true;
    return false;
}

/* ------------------------------------------------------------ groups of values that may share memory */

static int find(int *parent, int v)
{
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
}

static void unite(int *parent, int a, int b)
{
    a = find(parent, a), b = find(parent, b);
    if (a != b) parent[a < b ? b : a] = a < b ? a : b;   /* the smaller root: the same groups on every run */
}

/* Marks the main-graph values that subgraphs of g (at any depth) read as outer values. */
static void mark_outer_reads(const TkoGraph *main, const TkoGraph *g, bool *pinned)
{
    for (int i = 0; i < g->nnodes; i++)
        for (int a = 0; a < g->nodes[i].nattrs; a++) {
            const TkoAttr *at = &g->nodes[i].attrs[a];
            int nsub = at->type == TKO_ATTR_GRAPH ? (at->g != NULL) : at->type == TKO_ATTR_GRAPHS ? at->n : 0;
            for (int k = 0; k < nsub; k++) {
                const TkoGraph *sg = at->type == TKO_ATTR_GRAPH ? at->g : at->graphs[k];
                for (int o = 0; o < sg->nouter; o++) {   /* follow the outer chain up to the main graph */
                    const TkoGraph *up = sg->parent;
                    int idx = sg->values[sg->outer[o]].outer_index;
                    while (up && up != main && up->values[idx].is_outer) idx = up->values[idx].outer_index, up = up->parent;
                    if (up == main) pinned[idx] = true;
                }
                mark_outer_reads(main, sg, pinned);
            }
        }
}

/* ------------------------------------------------------------ the binding */

typedef struct {
    int n;
    const char *names[TKO_PLAN_MAX_SYMS];
    int64_t sizes[TKO_PLAN_MAX_SYMS];
} Binding;

/* The dim names of the main graph's inputs bound to the sizes of this run's tensors. */
static void bind(const TkoGraph *g, tk_tensor *const *vals, Binding *b)
{
    b->n = 0;
    for (int i = 0; i < g->nin; i++) {
        const TkoValue *val = &g->values[g->inputs[i]];
        const tk_tensor *t = vals[g->inputs[i]];
        if (!t || !val->inf.valid || val->inf.ndim != tk_tensor_ndim(t)) continue;
        for (int d = 0; d < val->inf.ndim; d++) {
            const char *name = tko_sym_bare_name(val->inf.dims[d]);
            if (!name) continue;
            int k = 0;
            while (k < b->n && strcmp(b->names[k], name) != 0) k++;
            if (k == b->n && k < TKO_PLAN_MAX_SYMS) b->names[k] = name, b->sizes[k] = tk_tensor_shape(t)[d], b->n++;
        }
    }
}

static bool bound_size(void *arg, const char *name, int64_t *size)
{
    const Binding *b = arg;
    for (int k = 0; k < b->n; k++)
        if (strcmp(b->names[k], name) == 0) return *size = b->sizes[k], true;
    return false;
}

static bool same_binding(const TkoPlan *p, const Binding *b)
{
    if (p->nsyms != b->n) return false;
    for (int k = 0; k < b->n; k++)   /* bind() lists names in the same order on every run */
        if (strcmp(p->sym_names[k], b->names[k]) != 0 || p->sym_sizes[k] != b->sizes[k]) return false;
    return true;
}

/* The value's size in bytes under the binding; 0 when inference does not know it (or it is empty). */
static size_t value_bytes(const TkoValue *val, const Binding *b)
{
    const TkoInfer *inf = &val->inf;
    if (!inf->valid || !inf->elem_type || inf->ndim < 0) return 0;
    int dt = tkr_onnx_dtype(inf->elem_type);
    if (dt < 0) return 0;
    uint64_t bytes = tk_dtype_size((tk_dtype)dt);
    for (int d = 0; d < inf->ndim; d++) {
        int64_t size;
        if (!inf->dims[d] || !tko_sym_eval(inf->dims[d], bound_size, (void *)b, &size) || size < 0) return 0;
        if (size && bytes > ((uint64_t)1 << 48) / (uint64_t)size) return 0;   /* absurd: leave it to the allocator */
        bytes *= (uint64_t)size;
    }
    return (size_t)bytes;
}

/* ------------------------------------------------------------ placement */

typedef struct {
    int value;
    int start, end;          /* nodes: producer .. the group's last reader */
    size_t bytes;
    int64_t offset;
} Item;

static int by_size_desc(const void *a, const void *b)
{
    const Item *x = a, *y = b;
    if (x->bytes != y->bytes) return x->bytes > y->bytes ? -1 : 1;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    return x->value < y->value ? -1 : x->value > y->value;
}

static int by_offset(const void *a, const void *b)
{
    const Item *x = *(const Item *const *)a, *y = *(const Item *const *)b;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static size_t align_up(size_t x) { return (x + TKO_PLAN_ALIGN - 1) / TKO_PLAN_ALIGN * TKO_PLAN_ALIGN; }

/* Places items[0..n) (sorted largest first); the arena's size. scratch: n pointers. */
static size_t place(Item *items, int n, Item **scratch)
{
    size_t top = 0;
    for (int i = 0; i < n; i++) {
        Item *x = &items[i];
        int nover = 0;
        for (int j = 0; j < i; j++)
            if (items[j].start <= x->end && x->start <= items[j].end) scratch[nover++] = &items[j];
        qsort(scratch, (size_t)nover, sizeof *scratch, by_offset);
        size_t cursor = 0, best = SIZE_MAX, best_gap = SIZE_MAX;
        for (int j = 0; j < nover; j++) {
            size_t at = (size_t)scratch[j]->offset;
            if (at > cursor && at - cursor >= x->bytes && at - cursor < best_gap) best = cursor, best_gap = at - cursor;
            size_t end = align_up(at + scratch[j]->bytes);
            if (end > cursor) cursor = end;
        }
        x->offset = (int64_t)(best != SIZE_MAX ? best : cursor);
        if ((size_t)x->offset + x->bytes > top) top = (size_t)x->offset + x->bytes;
    }
    return align_up(top);
}

/* ------------------------------------------------------------ making a plan */

static void plan_free(TkoPlan *p)
{
    if (!p) return;
    free(p->offset);
    free(p->bytes);
    free(p->may_alias);
    free(p);
}

void tko_plans_free(TkoModel *m)
{
    for (TkoPlan *p = m->plans, *next; p; p = next) {
        next = p->next;
        plan_free(p);
    }
    m->plans = NULL;
    m->nplans = 0;
}

static void dump_plan(TkoModel *m, const TkoPlan *p, const Item *items, int n)
{
    FILE *f = m->opts.dump_file ? m->opts.dump_file : stderr;
    const TkoGraph *g = m->graph;
    fprintf(f, "## plan");
    for (int k = 0; k < p->nsyms; k++) fprintf(f, "%s%s=%lld", k ? ", " : " (", p->sym_names[k], (long long)p->sym_sizes[k]);
    fprintf(f, "%s: arena %zu bytes for %d values of %zu bytes (most live at once %zu)\n", p->nsyms ? ")" : "", p->arena_bytes,
            p->nplanned, p->planned_bytes, p->live_peak);
    for (int i = 0; i < n; i++)
        fprintf(f, "%%%s: %zu bytes at %lld, nodes %d..%d\n", g->values[items[i].value].name, items[i].bytes, (long long)items[i].offset,
                items[i].start, items[i].end);
    for (int i = 0; i < g->nnodes; i++)
        if (p->may_alias[i] && !op_is_opaque(&g->nodes[i]))
            fprintf(f, "  may alias: %s '%s'%s\n", g->nodes[i].op, g->nodes[i].name,
                    m->plan_learned && m->plan_learned[i] & TKO_LEARN_ALIAS ? " (learned at run)" : "");
}

/* Fills p (its binding set) for the main graph; false when out of memory. */
static bool make_plan(TkoModel *m, TkoPlan *p, const Binding *b)
{
    const TkoGraph *g = m->graph;
    int nv = g->nvalues, nn = g->nnodes;
    p->offset = malloc(((size_t)nv + 1) * sizeof *p->offset);
    p->bytes = calloc((size_t)nv + 1, sizeof *p->bytes);
    p->may_alias = calloc((size_t)nn + 1, sizeof *p->may_alias);
    int *parent = malloc(((size_t)nv + 1) * sizeof *parent), *group_end = malloc(((size_t)nv + 1) * sizeof *group_end);
    bool *pinned = calloc((size_t)nv + 1, sizeof *pinned), *fresh = calloc((size_t)nv + 1, sizeof *fresh);
    Item *items = malloc(((size_t)nv + 1) * sizeof *items);
    Item **scratch = malloc(((size_t)nv + 1) * sizeof *scratch);
    bool ok = p->offset && p->bytes && p->may_alias && parent && group_end && pinned && fresh && items && scratch;
    if (ok) {
        for (int v = 0; v < nv; v++) parent[v] = v, p->offset[v] = -1;
        for (int o = 0; o < g->nout; o++) pinned[g->outputs[o]] = true;   /* outputs go to the caller */
        mark_outer_reads(g, g, pinned);
        for (int i = 0; i < nn; i++) {
            const TkoNode *n = &g->nodes[i];
            bool opaque = op_is_opaque(n), learned = m->plan_learned && (m->plan_learned[i] & TKO_LEARN_ALIAS);
            p->may_alias[i] = opaque || learned || !op_is_fresh(m, n);
            for (int k = 0; k < n->nout; k++) {
                int v = n->outputs[k];
                if (v < 0) continue;
                fresh[v] = !p->may_alias[i];
                if (opaque) pinned[v] = true;
                for (int j = 0; p->may_alias[i] && j < n->nin; j++)
                    if (n->inputs[j] >= 0) unite(parent, v, n->inputs[j]);
            }
            for (int j = 0; opaque && j < n->nin; j++)
                if (n->inputs[j] >= 0) pinned[n->inputs[j]] = true;
        }
        /* a group lives to its last reader, and is pinned when any member is */
        for (int v = 0; v < nv; v++) group_end[v] = -1;
        for (int v = 0; v < nv; v++) {
            int r = find(parent, v), end = g->values[v].last_use >= 0 ? g->values[v].last_use : g->values[v].producer;
            if (end > group_end[r]) group_end[r] = end;
            if (pinned[v]) pinned[r] = true;
        }
        int n = 0;
        for (int v = 0; v < nv; v++) {
            const TkoValue *val = &g->values[v];
            int r = find(parent, v);
            if (val->producer < 0 || val->constant || !fresh[v] || pinned[r]) continue;
            size_t bytes = value_bytes(val, b);
            if (!bytes) continue;
            items[n++] = (Item){ v, val->producer, group_end[r] < val->producer ? val->producer : group_end[r], bytes, 0 };
        }
        qsort(items, (size_t)n, sizeof *items, by_size_desc);
        p->arena_bytes = place(items, n, scratch);
        p->nplanned = n;
        for (int i = 0; i < n; i++) {
            p->offset[items[i].value] = items[i].offset;
            p->bytes[items[i].value] = items[i].bytes;
            p->planned_bytes += items[i].bytes;
        }
        for (int at = 0; at < nn; at++) {   /* the largest live set: a bound no placement can beat */
            size_t live = 0;
            for (int i = 0; i < n; i++)
                if (items[i].start <= at && at <= items[i].end) live += items[i].bytes;
            if (live > p->live_peak) p->live_peak = live;
        }
        if (tko_dump_wants(m, "plan")) dump_plan(m, p, items, n);
    }
    free(parent), free(group_end), free(pinned), free(fresh), free(items), free(scratch);
    return ok;
}

tk_status tko_plan_for_run(TkoModel *m, tk_tensor *const *vals, const TkoPlan **out)
{
    *out = NULL;
    Binding b;
    bind(m->graph, vals, &b);
    for (TkoPlan **at = &m->plans; *at; at = &(*at)->next)
        if (same_binding(*at, &b)) {
            TkoPlan *p = *at;   /* to the front: the binding of the next run is likeliest the same */
            *at = p->next, p->next = m->plans, m->plans = p;
            *out = p->nplanned ? p : NULL;
            return TK_OK;
        }
    TkoPlan *p = calloc(1, sizeof *p);
    if (!p) return tkr_error(m->ctx, TK_ERR_OUT_OF_MEMORY, "tk_model_run: out of memory for a memory plan");
    p->nsyms = b.n;
    memcpy(p->sym_names, b.names, sizeof b.names);
    memcpy(p->sym_sizes, b.sizes, sizeof b.sizes);
    if (!make_plan(m, p, &b)) {
        plan_free(p);
        return tkr_error(m->ctx, TK_ERR_OUT_OF_MEMORY, "tk_model_run: out of memory for a memory plan of %d values", m->graph->nvalues);
    }
    p->next = m->plans, m->plans = p, m->nplans++;
    if (m->nplans > TKO_PLAN_MAX_CACHED) {   /* a model fed ever new sizes: the least recently used goes */
        TkoPlan *q = m->plans;
        for (int k = 1; k < TKO_PLAN_MAX_CACHED; k++) q = q->next;
        plan_free(q->next);
        q->next = NULL;
        m->nplans = TKO_PLAN_MAX_CACHED;
    }
    *out = p->nplanned ? p : NULL;
    return TK_OK;
}
