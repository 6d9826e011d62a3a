/* model_api.c — tk/onnx.h: loading runs the passes as straight calls
 * (read, sort, check, infer, fold, infer, dead nodes, fuse, liveness, metadata), running binds the inputs,
 * checks their shapes against the model, finds the memory plan for their
 * sizes (graph_plan.c: made on the first run with them) and hands the graph
 * to the executor. */
#include <stdlib.h>
#include <string.h>

#include "graph_plan.h"
#include "op.h"
#include "onnx_tensor.h"
#include "tk/shape.h"

#define OP "tk_onnx_load"
#define MAX_SYMBOLS 128   /* distinct symbolic dims checked for agreement across inputs */

static void destroy_graph(TkoGraph *g)
{
    if (!g) return;
    for (int v = 0; v < g->nvalues; v++) tk_tensor_release(g->values[v].constant);
    for (int i = 0; i < g->nnodes; i++) tko_node_release(&g->nodes[i]);
}

void tko_node_release(TkoNode *n)
{
    for (int a = 0; a < n->nattrs; a++) {
        TkoAttr *at = &n->attrs[a];
        tk_tensor_release(at->t);
        destroy_graph(at->g);
        for (int k = 0; k < at->ngraphs && at->graphs; k++) destroy_graph(at->graphs[k]);
        at->t = NULL, at->g = NULL, at->ngraphs = 0;
    }
}

void tko_model_destroy(TkoModel *m)
{
    if (!m) return;
    tkr_arena_release(m->tensor_arena);
    tko_plans_free(m);
    free(m->plan_learned);
    destroy_graph(m->graph);
    for (int i = 0; i < m->n_ext; i++) {
        tkr_file_map_release(m->ext_maps[i]);
        free(m->ext_names[i]);
    }
    free(m->ext_maps);
    free(m->ext_names);
    tkr_file_map_release(m->map);
    free(m->dir);
    free(m->dump);
    free(m->problems);
    tko_arena_free(&m->arena);
    free(m);
}

void tk_model_free(tk_model *m) { tko_model_destroy(m); }

static tk_status make_info(TkoModel *m)
{
    TkoGraph *g = m->graph;
    m->in_info = tko_alloc(&m->arena, (size_t)(g->nin + 1) * sizeof *m->in_info);
    m->out_info = tko_alloc(&m->arena, (size_t)(g->nout + 1) * sizeof *m->out_info);
    if (!m->in_info || !m->out_info) return tkr_error(m->ctx, TK_ERR_OUT_OF_MEMORY, OP ": out of memory");
    for (int io = 0; io < 2; io++) {
        int n = io ? g->nout : g->nin;
        for (int i = 0; i < n; i++) {
            const TkoValue *v = &g->values[io ? g->outputs[i] : g->inputs[i]];
            tk_value_info *info = io ? &m->out_info[i] : &m->in_info[i];
            info->name = v->name;
            int dt = v->type.known ? tkr_onnx_dtype(v->type.elem_type) : -1;
            info->known_dtype = dt >= 0;
            info->dtype = dt >= 0 ? (tk_dtype)dt : TK_DTYPE_F32;
            info->ndim = v->type.known ? v->type.ndim : -1;
            info->dims = v->type.dims;
            info->dim_names = (const char *const *)v->type.dim_names;
            info->kind = v->type.kind ? v->type.kind : "tensor";
        }
    }
    return TK_OK;
}

bool tko_dump_wants(const TkoModel *m, const char *pass)
{
    const char *want = m->opts.dump;
    if (!want) return false;
    return strcmp(want, "all") == 0 || tko_listed(want, pass);
}

/* Prints the graph after `pass` when the options ask for it (tkrun --dump). */
static void dump_after(TkoModel *m, const char *pass)
{
    if (!tko_dump_wants(m, pass)) return;
    FILE *f = m->opts.dump_file ? m->opts.dump_file : stderr;
    fprintf(f, "## after %s\n%s", pass, tk_model_dump(m));
    if (strcmp(pass, "infer") == 0) fprintf(f, "## inferred types\n%s", tko_dump_inferred(m));
}

/* The passes, in order. */
static tk_status load(tk_context *ctx, TkoModel *m, const uint8_t *buf, size_t len)
{
    tk_status s;
    if ((s = tko_read_model(m, buf, len))) return s;
    dump_after(m, "read");
    if ((s = tko_sort_graph(m, m->graph))) return s;
    dump_after(m, "sort");
    /* check and a first inference (types of what folding will run) report their problems together */
    if ((s = tko_check_graph(m)) || (s = tko_infer_graph(m, m->graph)) || (s = tko_report_problems(m))) return s;
    if ((s = tko_fold_constants(m, m->graph))) return s;
    dump_after(m, "fold");
    /* again on the folded graph: shapes that depended on folded values */
    if ((s = tko_infer_graph(m, m->graph)) || (s = tko_report_problems(m))) return s;
    /* shapes inference knows become constants; what reads them folds; what nobody reads goes */
    if ((s = tko_remove_dead(m, m->graph)) || (s = tko_fold_constants(m, m->graph)) || (s = tko_remove_dead(m, m->graph))) return s;
    dump_after(m, "infer");
    if ((s = tko_mark_weights(m, m->graph))) return s;
    if ((s = tko_fuse(m, m->graph))) return s;
    dump_after(m, "fuse");
    if ((s = tko_liveness(m, m->graph))) return s;
    /* the memory plan (graph_plan.c) needs the symbolic dims' sizes: made by a run, per binding (use_plan) */
    if ((s = make_info(m))) return s;
    return tkr_ok(ctx);
}

static TkoModel *new_model(tk_context *ctx, const char *name, const tk_onnx_opts *opts)
{
    TkoModel *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->ctx = ctx;
    if (opts) m->opts = *opts;
    if (!(m->path = tko_strndup(&m->arena, name, strlen(name)))) {
        free(m);
        return NULL;
    }
    return m;
}

tk_status tk_onnx_load(tk_context *ctx, const char *path, const tk_onnx_opts *opts, tk_model **out)
{
    if (!ctx || !out) return TK_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (!path) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, OP ": path is NULL");
    TkoModel *m = new_model(ctx, path, opts);
    if (!m) return tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, OP ": out of memory");
    const char *slash = strrchr(path, '/');
    m->dir = slash ? strndup(path, (size_t)(slash - path)) : strdup(".");
    if (!m->dir) {
        tko_model_destroy(m);
        return tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, OP ": out of memory");
    }
    tk_status s = tkr_file_map(ctx, OP, path, &m->map);
    if (!s) s = load(ctx, m, m->map->data, m->map->len);
    if (s) {
        tko_model_destroy(m);
        return s;
    }
    *out = m;
    return TK_OK;
}

tk_status tk_onnx_load_bytes(tk_context *ctx, const void *data, size_t len, const char *name, const tk_onnx_opts *opts,
                             tk_model **out)
{
    if (!ctx || !out) return TK_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (!data && len) return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, OP ": data is NULL");
    TkoModel *m = new_model(ctx, name ? name : "(memory)", opts);
    if (!m) return tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, OP ": out of memory");
    tk_status s = load(ctx, m, data, len);   /* no mapping: initializers are copied */
    if (s) {
        tko_model_destroy(m);
        return s;
    }
    *out = m;
    return TK_OK;
}

int tk_model_num_inputs(const tk_model *m) { return m ? m->graph->nin : 0; }
int tk_model_num_outputs(const tk_model *m) { return m ? m->graph->nout : 0; }

tk_status tk_model_input(const tk_model *m, int i, tk_value_info *info)
{
    if (!m || !info) return TK_ERR_INVALID_ARGUMENT;
    if (i < 0 || i >= m->graph->nin)
        return tkr_error(m->ctx, TK_ERR_INDEX, "tk_model_input: index %d, the model has %d inputs", i, m->graph->nin);
    *info = m->in_info[i];
    return TK_OK;
}

tk_status tk_model_output(const tk_model *m, int i, tk_value_info *info)
{
    if (!m || !info) return TK_ERR_INVALID_ARGUMENT;
    if (i < 0 || i >= m->graph->nout)
        return tkr_error(m->ctx, TK_ERR_INDEX, "tk_model_output: index %d, the model has %d outputs", i, m->graph->nout);
    *info = m->out_info[i];
    return TK_OK;
}

/* ------------------------------------------------------------ running */

typedef struct {
    const char *name;
    int64_t size;
} Binding;

/* Checks an input against the model's declared type; symbolic dims bind to
 * sizes, the same symbol to the same size everywhere. */
static tk_status check_input(TkoModel *m, int i, const tk_tensor *t, Binding *syms, int *nsyms)
{
    const tk_value_info *info = &m->in_info[i];
    const char *op = "tk_model_run";
    if (!t) return tkr_error(m->ctx, TK_ERR_INVALID_ARGUMENT, "%s: input %d '%s' is NULL", op, i, info->name);
    if (info->known_dtype && tk_tensor_dtype(t) != info->dtype)
        return tkr_error(m->ctx, TK_ERR_DTYPE, "%s: input '%s' must be %s, it is %s", op, info->name, tk_dtype_name(info->dtype),
                         tk_dtype_name(tk_tensor_dtype(t)));
    if (info->ndim < 0) return TK_OK;
    char want[256], got[160];
    int n = 0;
    n += snprintf(want + n, sizeof want - (size_t)n, "[");
    for (int d = 0; d < info->ndim && n < (int)sizeof want - 32; d++)
        n += info->dims[d] >= 0 ? snprintf(want + n, sizeof want - (size_t)n, d ? ", %lld" : "%lld", (long long)info->dims[d])
                                : snprintf(want + n, sizeof want - (size_t)n, d ? ", %s" : "%s",
                                           info->dim_names[d] ? info->dim_names[d] : "?");
    snprintf(want + n, sizeof want - (size_t)n, "]");
    tkr_shape_str(tk_tensor_ndim(t), tk_tensor_shape(t), got, sizeof got);
    if (tk_tensor_ndim(t) != info->ndim)
        return tkr_error(m->ctx, TK_ERR_SHAPE, "%s: input '%s' must have shape %s, it has %s", op, info->name, want, got);
    for (int d = 0; d < info->ndim; d++) {
        int64_t size = tk_tensor_shape(t)[d];
        if (info->dims[d] >= 0 && size != info->dims[d])
            return tkr_error(m->ctx, TK_ERR_SHAPE, "%s: input '%s' must have shape %s, it has %s (dim %d)", op, info->name, want, got, d);
        /* a symbol binds one size everywhere; "?" is exporters' "unknown" (Paddle writes it for every free dim) */
        if (info->dims[d] < 0 && info->dim_names[d] && strcmp(info->dim_names[d], "?") != 0) {
            int k = 0;
            while (k < *nsyms && strcmp(syms[k].name, info->dim_names[d]) != 0) k++;
            if (k == *nsyms && *nsyms < MAX_SYMBOLS) syms[(*nsyms)++] = (Binding){ info->dim_names[d], size };
            else if (k < *nsyms && syms[k].size != size)
                return tkr_error(m->ctx, TK_ERR_SHAPE, "%s: input '%s' has %s = %lld at dim %d, but another input bound %s to %lld", op,
                                 info->name, info->dim_names[d], (long long)size, d, info->dim_names[d], (long long)syms[k].size);
        }
    }
    return TK_OK;
}

/* Does t share memory with an input or a weight of the model, or lie in its arena? */
static bool aliases(const TkoModel *m, const TkoGraph *g, const tk_value *inputs, const tk_tensor *t)
{
    /* the plan never places a value that reaches an output: a safeguard */
    if (m->tensor_arena && tkr_arena_contains(m->tensor_arena, t->storage->data)) return true;
    for (int i = 0; i < g->nin; i++)
        if (inputs[i].tensor && tk_tensor_shares_storage(t, inputs[i].tensor)) return true;
    for (int v = 0; v < g->nvalues; v++)
        if (g->values[v].constant && tk_tensor_shares_storage(t, g->values[v].constant)) return true;
    return false;
}

/* The plan for this run's sizes (vals: the bound inputs), and an arena it
 * fits in: the model's, kept between runs, or a new one when that is too
 * small or still holds a value of an earlier run (a miss left it so). No
 * memory for the arena: the run goes without a plan. */
static tk_status use_plan(TkoModel *m, tk_tensor *const *vals)
{
    const TkoPlan *plan;
    tk_status s = tko_plan_for_run(m, vals, &plan);
    m->mem.arena_bytes = plan ? plan->arena_bytes : 0;
    m->mem.planned_bytes = plan ? plan->planned_bytes : 0;
    m->mem.planned_values = plan ? plan->nplanned : 0;
    m->mem.plans = m->nplans;
    if (s || !plan) return s;
    if (m->tensor_arena && (tkr_arena_bytes(m->tensor_arena) < plan->arena_bytes || tkr_arena_outstanding(m->tensor_arena))) {
        tkr_arena_release(m->tensor_arena);
        m->tensor_arena = NULL;
    }
    if (!m->tensor_arena) m->tensor_arena = tkr_arena_new(m->ctx->alloc, plan->arena_bytes);
    m->run_plan = m->tensor_arena ? plan : NULL;
    return TK_OK;
}

tk_status tk_model_memory(const tk_model *m, tk_model_memory_stats *out)
{
    if (!m) return TK_ERR_INVALID_ARGUMENT;
    if (!out) return tkr_error(m->ctx, TK_ERR_INVALID_ARGUMENT, "tk_model_memory: stats is NULL");
    *out = m->mem;
    tk_memory_stats ctx_mem;
    tk_memory_stats_get(m->ctx, &ctx_mem);
    out->peak_bytes = ctx_mem.peak_bytes;
    return TK_OK;
}

tk_status tk_model_run_values(tk_model *m, const tk_value *inputs, tk_value *outputs)
{
    if (!m) return TK_ERR_INVALID_ARGUMENT;
    TkoGraph *g = m->graph;
    const char *op = "tk_model_run";
    if (!outputs || (!inputs && g->nin)) return tkr_error(m->ctx, TK_ERR_INVALID_ARGUMENT, "%s: inputs or outputs is NULL", op);
    for (int o = 0; o < g->nout; o++) outputs[o] = (tk_value){ 0 };
    Binding syms[MAX_SYMBOLS];
    int nsyms = 0;
    tk_status s = TK_OK;
    for (int i = 0; i < g->nin && !s; i++) {
        const char *kind = m->in_info[i].kind;
        bool want_tensor = strcmp(kind, "tensor") == 0;
        if (inputs[i].tensor && inputs[i].seq)
            s = tkr_error(m->ctx, TK_ERR_INVALID_ARGUMENT, "%s: input '%s' is given both a tensor and a sequence", op, m->in_info[i].name);
        else if (inputs[i].seq && want_tensor)
            s = tkr_error(m->ctx, TK_ERR_INVALID_ARGUMENT, "%s: input '%s' is a tensor, given a sequence", op, m->in_info[i].name);
        else if (inputs[i].tensor && strcmp(kind, "sequence") == 0)
            s = tkr_error(m->ctx, TK_ERR_INVALID_ARGUMENT, "%s: input '%s' is a sequence, given a tensor", op, m->in_info[i].name);
        else if (want_tensor) s = check_input(m, i, inputs[i].tensor, syms, &nsyms);
        else if (!inputs[i].tensor && !inputs[i].seq)
            s = tkr_error(m->ctx, TK_ERR_INVALID_ARGUMENT, "%s: input %d '%s' is NULL", op, i, m->in_info[i].name);
    }
    if (s) return s;
    tk_tensor **vals = calloc((size_t)g->nvalues + 1, sizeof *vals);
    TkoSeq **seqs = calloc((size_t)g->nvalues + 1, sizeof *seqs);
    if (!vals || !seqs) {
        free(vals), free(seqs);
        return tkr_error(m->ctx, TK_ERR_OUT_OF_MEMORY, "%s: out of memory", op);
    }
    for (int v = 0; v < g->nvalues; v++)
        if (g->values[v].constant) vals[v] = tk_tensor_retain(g->values[v].constant);
    for (int i = 0; i < g->nin; i++) {
        int v = g->inputs[i];
        tk_tensor_release(vals[v]);
        vals[v] = inputs[i].tensor ? tk_tensor_retain(inputs[i].tensor) : NULL;
        seqs[v] = inputs[i].seq ? tko_seq_retain(inputs[i].seq) : NULL;
    }
    s = m->opts.no_plan ? TK_OK : use_plan(m, vals);
    if (!s) s = tko_execute(m, g, vals, seqs);
    m->run_plan = NULL;
    for (int o = 0; !s && o < g->nout; o++) {
        int v = g->outputs[o];
        tk_tensor *t = vals[v];
        if (seqs[v]) outputs[o].seq = tko_seq_retain(seqs[v]);
        else if (!t) s = tkr_error(m->ctx, TK_ERR_INTERNAL, "%s: output '%s' was not computed", op, g->values[v].name);
        /* an output never shares memory with an input or a weight (an Identity, a Reshape of a
         * constant): a caller writing into it must not change the model or their own input */
        else if (aliases(m, g, inputs, t)) s = tk_clone(m->ctx, t, &outputs[o].tensor);
        /* and is row-major: a view (Transpose) or a channels-last conv result is copied */
        else s = tk_contiguous(m->ctx, t, &outputs[o].tensor);
    }
    for (int v = 0; v < g->nvalues; v++) {
        tk_tensor_release(vals[v]);
        tko_seq_release(seqs[v]);
    }
    free(vals), free(seqs);
    if (s) {
        for (int o = 0; o < g->nout; o++) {
            tk_tensor_release(outputs[o].tensor);
            tko_seq_release(outputs[o].seq);
            outputs[o] = (tk_value){ 0 };
        }
        return s;
    }
    return tkr_ok(m->ctx);
}

tk_status tk_model_run(tk_model *m, tk_tensor *const *inputs, tk_tensor **outputs)
{
    if (!m) return TK_ERR_INVALID_ARGUMENT;
    TkoGraph *g = m->graph;
    if (!outputs || (!inputs && g->nin)) return tkr_error(m->ctx, TK_ERR_INVALID_ARGUMENT, "tk_model_run: inputs or outputs is NULL");
    for (int o = 0; o < g->nout; o++) outputs[o] = NULL;
    tk_value *in = calloc((size_t)g->nin + 1, sizeof *in), *out = calloc((size_t)g->nout + 1, sizeof *out);
    if (!in || !out) {
        free(in), free(out);
        return tkr_error(m->ctx, TK_ERR_OUT_OF_MEMORY, "tk_model_run: out of memory");
    }
    for (int i = 0; i < g->nin; i++) in[i].tensor = inputs[i];
    tk_status s = tk_model_run_values(m, in, out);
    for (int o = 0; !s && o < g->nout; o++)
        if (out[o].seq)
            s = tkr_error(m->ctx, TK_ERR_INVALID_ARGUMENT, "tk_model_run: output '%s' is a %s: run this model with tk_model_run_values",
                          m->out_info[o].name, out[o].seq->none ? "empty optional" : "sequence");
    for (int o = 0; o < g->nout; o++) {
        if (s) tk_tensor_release(out[o].tensor), tko_seq_release(out[o].seq);
        else outputs[o] = out[o].tensor;
    }
    free(in), free(out);
    return s;
}

/* ------------------------------------------------------------ tk_seq */

tk_status tk_seq_new(tk_context *ctx, tk_tensor *const *items, int n, bool none, tk_seq **out)
{
    if (!ctx || !out) return TK_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (n < 0 || (n && !items) || (none && n))
        return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "tk_seq_new: %d items%s", n, none && n ? " in an empty optional" : "");
    TkoSeq *q = tko_seq_new(none);
    for (int i = 0; q && i < n; i++)
        if (!items[i]) {
            tko_seq_release(q);
            return tkr_error(ctx, TK_ERR_INVALID_ARGUMENT, "tk_seq_new: item %d is NULL", i);
        } else if (!tko_seq_insert(q, i, items[i])) {
            tko_seq_release(q);
            q = NULL;
        }
    if (!q) return tkr_error(ctx, TK_ERR_OUT_OF_MEMORY, "tk_seq_new: out of memory");
    *out = q;
    return tkr_ok(ctx);
}

int tk_seq_length(const tk_seq *s) { return !s ? 0 : s->none ? -1 : s->n; }
tk_tensor *tk_seq_item(const tk_seq *s, int i) { return s && i >= 0 && i < s->n ? s->items[i] : NULL; }
void tk_seq_release(tk_seq *s) { tko_seq_release(s); }

void tk_onnx_list_ops(FILE *f) { tko_list_ops(f ? f : stdout); }
