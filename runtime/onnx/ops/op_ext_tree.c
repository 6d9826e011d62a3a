/* op_ext_tree.c — TreeEnsemble (ai.onnx.ml 5): each row of X walks every
 * tree from its root (a node compares one feature with its split, or tests
 * it against a set of members, and goes to its true or false child — a node
 * or a leaf), and the leaves' weights are aggregated per target (sum,
 * average, min, max). Sets of members are listed in membership_values in
 * the order the MEMBER nodes appear in nodes_modes, NaN after each set.
 * post_transform other than NONE is refused at load (onnx.reference does
 * not apply it either, so it could not be checked). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "op_ext.h"

enum { TE_LEQ, TE_LT, TE_GTE, TE_GT, TE_EQ, TE_NEQ, TE_MEMBER };
enum { TE_AVERAGE, TE_SUM, TE_MIN, TE_MAX };

const char *tko_check_tree_ensemble(const TkoModel *m, const TkoNode *n, char *why, size_t len)
{
    (void)m;
    int64_t agg = tko_attr_int(n, "aggregate_function", TE_SUM), post = tko_attr_int(n, "post_transform", 0);
    if (post != 0) snprintf(why, len, "post_transform=%lld is not supported (only NONE)", (long long)post);
    else if (agg < TE_AVERAGE || agg > TE_MAX) snprintf(why, len, "aggregate_function=%lld is not one of 0-3", (long long)agg);
    else {
        static const char *const tensors[] = { "leaf_weights", "nodes_splits", "nodes_modes" };
        for (int i = 0; i < 3; i++) {
            const TkoAttr *a = tko_attr(n, tensors[i]);
            if (!a || !a->t) {
                snprintf(why, len, "attribute %s (a tensor) is required", tensors[i]);
                return why;
            }
        }
        return NULL;
    }
    return why;
}

typedef struct {
    int64_t nnodes, nleaves, ntrees, ntargets, nfeatures;
    const int64_t *feature, *true_id, *false_id, *true_leaf, *false_leaf, *leaf_target, *roots, *missing_true;
    const double *split, *leaf_weight;
    const int64_t *mode;
    int64_t *set_start, *set_len;   /* per node: its members in members[] */
    const double *members;
    const double *x;
    double *y;
    int agg;
    double init;
} TreeArgs;

static bool te_goes_true(const TreeArgs *a, int64_t node, double v)
{
    if (isnan(v) && a->missing_true && a->missing_true[node]) return true;
    double s = a->split[node];
    switch (a->mode[node]) {
    case TE_LEQ: return v <= s;
    case TE_LT: return v < s;
    case TE_GTE: return v >= s;
    case TE_GT: return v > s;
    case TE_EQ: return v == s;
    case TE_NEQ: return v != s;
    default:
        for (int64_t k = 0; k < a->set_len[node]; k++)
            if (a->members[a->set_start[node] + k] == v) return true;
        return false;
    }
}

/* The leaf a row reaches from root r (validated: every id in range and no
 * cycle, so the walk ends). */
static int64_t te_leaf(const TreeArgs *a, const double *row, int64_t r)
{
    if (a->true_leaf[r] && a->false_leaf[r] && a->true_id[r] == a->false_id[r]) return r;   /* a root that is a leaf */
    int64_t node = r;
    for (;;) {
        bool t = te_goes_true(a, node, row[a->feature[node]]);
        int64_t next = t ? a->true_id[node] : a->false_id[node];
        if (t ? a->true_leaf[node] : a->false_leaf[node]) return next;
        node = next;
    }
}

static void te_rows(int64_t begin, int64_t end, void *arg)
{
    const TreeArgs *a = arg;
    for (int64_t i = begin; i < end; i++) {
        double *out = a->y + i * a->ntargets;
        for (int64_t t = 0; t < a->ntargets; t++) out[t] = a->init;
        for (int64_t k = 0; k < a->ntrees; k++) {
            int64_t leaf = te_leaf(a, a->x + i * a->nfeatures, a->roots[k]);
            double w = a->leaf_weight[leaf];
            double *o = out + a->leaf_target[leaf];
            if (a->agg == TE_SUM) *o += w;
            else if (a->agg == TE_AVERAGE) *o += w / (double)a->ntrees;
            else if (a->agg == TE_MIN) *o = fmin(*o, w);
            else *o = fmax(*o, w);
        }
    }
}

/* An int list attribute that must have count entries (count < 0: any). */
static tk_status te_ints(TkoOpCtx *oc, const char *name, int64_t count, const int64_t **v, int64_t *n)
{
    int c = 0;
    *v = tko_attr_ints(oc->node, name, &c);
    *n = c;
    if (!*v && count != 0) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "attribute %s is required", name);
    if (count >= 0 && c != count) return tko_fail(oc, TK_ERR_SHAPE, "attribute %s has %d values, %lld expected", name, c, (long long)count);
    return TK_OK;
}

/* Fails on an id out of range or on children that form a cycle. */
static tk_status te_validate(TkoOpCtx *oc, const TreeArgs *a)
{
    for (int64_t i = 0; i < a->nnodes; i++) {
        for (int b = 0; b < 2; b++) {
            int64_t id = b ? a->false_id[i] : a->true_id[i], leaf = b ? a->false_leaf[i] : a->true_leaf[i];
            if (id < 0 || id >= (leaf ? a->nleaves : a->nnodes))
                return tko_fail(oc, TK_ERR_INDEX, "node %lld's %s child %lld is not a %s", (long long)i, b ? "false" : "true", (long long)id,
                                leaf ? "leaf" : "node");
        }
        if (a->feature[i] < 0 || a->feature[i] >= a->nfeatures)
            return tko_fail(oc, TK_ERR_INDEX, "node %lld reads feature %lld of %lld", (long long)i, (long long)a->feature[i], (long long)a->nfeatures);
        if (a->mode[i] < TE_LEQ || a->mode[i] > TE_MEMBER) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "node %lld has mode %lld", (long long)i, (long long)a->mode[i]);
    }
    for (int64_t l = 0; l < a->nleaves; l++)
        if (a->leaf_target[l] < 0 || a->leaf_target[l] >= a->ntargets)
            return tko_fail(oc, TK_ERR_INDEX, "leaf %lld's target %lld is outside [0, %lld)", (long long)l, (long long)a->leaf_target[l], (long long)a->ntargets);
    for (int64_t k = 0; k < a->ntrees; k++) {
        int64_t r = a->roots[k];
        if (r < 0 || r >= a->nnodes || (a->true_leaf[r] && a->false_leaf[r] && a->true_id[r] == a->false_id[r] && r >= a->nleaves))
            return tko_fail(oc, TK_ERR_INDEX, "tree_roots[%lld] = %lld is not a node (or leaf) of the ensemble", (long long)k, (long long)r);
    }
    /* no cycle among the nodes (Kahn's order must take every node), so a
     * walk always ends at a leaf */
    int64_t *indeg = calloc(2 * (size_t)a->nnodes + 1, sizeof *indeg), *queue = indeg + a->nnodes, head = 0, tail = 0;
    if (!indeg) return tko_fail(oc, TK_ERR_OUT_OF_MEMORY, "no memory for %lld nodes", (long long)a->nnodes);
    for (int64_t i = 0; i < a->nnodes; i++) {
        if (!a->true_leaf[i]) indeg[a->true_id[i]]++;
        if (!a->false_leaf[i]) indeg[a->false_id[i]]++;
    }
    for (int64_t i = 0; i < a->nnodes; i++)
        if (!indeg[i]) queue[tail++] = i;
    while (head < tail) {
        int64_t i = queue[head++];
        if (!a->true_leaf[i] && !--indeg[a->true_id[i]]) queue[tail++] = a->true_id[i];
        if (!a->false_leaf[i] && !--indeg[a->false_id[i]]) queue[tail++] = a->false_id[i];
    }
    free(indeg);
    if (tail < a->nnodes) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "the nodes' children form a cycle");
    return TK_OK;
}

/* Tensor attribute `name` as a new f64 (or i64) tensor. */
static tk_status te_tensor(TkoOpCtx *oc, const char *name, tk_dtype d, tk_tensor **out)
{
    const TkoAttr *a = tko_attr(oc->node, name);
    *out = NULL;
    if (!a || !a->t) return TK_OK;
    return tko_wrap(oc, tk_to_dtype(oc->ctx, a->t, d, out));
}

tk_status tko_run_tree_ensemble(TkoOpCtx *oc)
{
    const tk_tensor *X = oc->in[0];
    char sa[96];
    tk_status s = tko_ext_need_float(oc, 0);
    if (s) return s;
    if (tk_tensor_ndim(X) != 2) return tko_fail(oc, TK_ERR_SHAPE, "X of shape %s: [N, F] is required", tko_ext_shape(X, sa, sizeof sa));
    TreeArgs a = { .ntargets = tko_attr_int(oc->node, "n_targets", 0), .agg = (int)tko_attr_int(oc->node, "aggregate_function", TE_SUM),
                   .nfeatures = tk_tensor_shape(X)[1] };
    if (a.ntargets < 1) return tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "n_targets must be at least 1");
    tk_tensor *tw = NULL, *ts = NULL, *tm = NULL, *tmem = NULL, *hx = NULL, *y = NULL;
    int64_t *sets = NULL, n;
    double *py;
    if ((s = te_tensor(oc, "leaf_weights", TK_DTYPE_F64, &tw)) || (s = te_tensor(oc, "nodes_splits", TK_DTYPE_F64, &ts)) ||
        (s = te_tensor(oc, "nodes_modes", TK_DTYPE_I64, &tm)) || (s = te_tensor(oc, "membership_values", TK_DTYPE_F64, &tmem)))
        goto done;
    a.nnodes = tk_tensor_numel(ts), a.nleaves = tk_tensor_numel(tw);
    a.split = (const double *)tkr_ptr(ts), a.leaf_weight = (const double *)tkr_ptr(tw), a.mode = (const int64_t *)tkr_ptr(tm);
    if (tk_tensor_numel(tm) != a.nnodes) {
        s = tko_fail(oc, TK_ERR_SHAPE, "nodes_modes has %lld values for %lld nodes", (long long)tk_tensor_numel(tm), (long long)a.nnodes);
        goto done;
    }
    if ((s = te_ints(oc, "nodes_featureids", a.nnodes, &a.feature, &n)) || (s = te_ints(oc, "nodes_truenodeids", a.nnodes, &a.true_id, &n)) ||
        (s = te_ints(oc, "nodes_falsenodeids", a.nnodes, &a.false_id, &n)) || (s = te_ints(oc, "nodes_trueleafs", a.nnodes, &a.true_leaf, &n)) ||
        (s = te_ints(oc, "nodes_falseleafs", a.nnodes, &a.false_leaf, &n)) || (s = te_ints(oc, "leaf_targetids", a.nleaves, &a.leaf_target, &n)) ||
        (s = te_ints(oc, "tree_roots", -1, &a.roots, &a.ntrees)))
        goto done;
    int nmiss = 0;
    a.missing_true = tko_attr_ints(oc->node, "nodes_missing_value_tracks_true", &nmiss);
    if (a.missing_true) {
        int c = nmiss;
        if (c != a.nnodes) {
            s = tko_fail(oc, TK_ERR_SHAPE, "nodes_missing_value_tracks_true has %d values for %lld nodes", c, (long long)a.nnodes);
            goto done;
        }
    }
    if ((s = te_validate(oc, &a))) goto done;
    /* each MEMBER node's set, in node order, from the NaN-separated list */
    sets = calloc(2 * (size_t)a.nnodes + 1, sizeof *sets);
    if (!sets) {
        s = tko_fail(oc, TK_ERR_OUT_OF_MEMORY, "no memory for %lld nodes", (long long)a.nnodes);
        goto done;
    }
    a.set_start = sets, a.set_len = sets + a.nnodes;
    a.members = tmem ? (const double *)tkr_ptr(tmem) : NULL;
    int64_t pos = 0, nmem = tmem ? tk_tensor_numel(tmem) : 0;
    for (int64_t i = 0; i < a.nnodes; i++) {
        if (a.mode[i] != TE_MEMBER) continue;
        a.set_start[i] = pos;
        while (pos < nmem && !isnan(a.members[pos])) pos++;
        if (pos >= nmem) {
            s = tko_fail(oc, TK_ERR_INVALID_ARGUMENT, "membership_values has no NaN-ended set for MEMBER node %lld", (long long)i);
            goto done;
        }
        a.set_len[i] = pos - a.set_start[i];
        pos++;
    }
    tk_dtype d = tk_tensor_dtype(X);
    a.init = a.agg == TE_MIN ? (d == TK_DTYPE_F64 ? DBL_MAX : d == TK_DTYPE_F32 ? FLT_MAX : d == TK_DTYPE_F16 ? 65504.0 : 3.3895313892515355e38)
             : a.agg == TE_MAX ? -(d == TK_DTYPE_F64 ? DBL_MAX : d == TK_DTYPE_F32 ? FLT_MAX : d == TK_DTYPE_F16 ? 65504.0 : 3.3895313892515355e38)
                               : 0;
    if ((s = tko_ext_f64(oc, 0, &hx, &a.x))) goto done;
    if ((s = tko_ext_new_f64(oc, 2, (int64_t[]){ tk_tensor_shape(X)[0], a.ntargets }, &y, &py))) goto done;
    a.y = py;
    tkr_parallel_for(oc->ctx, tk_tensor_shape(X)[0], 64, te_rows, &a);
    s = tko_ext_emit(oc, 0, y, d);
    y = NULL;
done:
    free(sets);
    tk_tensor_release(tw);
    tk_tensor_release(ts);
    tk_tensor_release(tm);
    tk_tensor_release(tmem);
    tk_tensor_release(hx);
    tk_tensor_release(y);
    return s;
}
