/* op_nn_common.c — helpers the neural-network op files share (dtype round
 * trips, attribute lists, load-time refusals). */
#include <stdarg.h>
#include <string.h>

#include "op_nn_common.h"
#include "tk/ops.h"

tk_status tko_nn_wrap(TkoOpCtx *oc, tk_status s)
{
    if (s == TK_OK) return s;
    char prefix[512];
    snprintf(prefix, sizeof prefix, "node '%s' (%s): ", oc->node->name, oc->node->op);
    if (strncmp(tk_last_error(oc->ctx), prefix, strlen(prefix)) == 0) return s;   /* named already (tko_fail) */
    return tko_wrap(oc, s);
}

tk_status tko_nn_as_dtype(TkoOpCtx *oc, tk_tensor **t, tk_dtype d)
{
    if (tk_tensor_dtype(*t) == d) return TK_OK;
    tk_tensor *c;
    tk_status s = tk_to_dtype(oc->ctx, *t, d, &c);
    tk_tensor_release(*t);
    *t = s ? NULL : c;
    return tko_nn_wrap(oc, s);
}

tk_status tko_nn_to(TkoOpCtx *oc, const tk_tensor *t, tk_dtype d, tk_tensor **out)
{
    if (tk_tensor_dtype(t) == d) {
        *out = tk_tensor_retain((tk_tensor *)t);
        return TK_OK;
    }
    return tko_nn_wrap(oc, tk_to_dtype(oc->ctx, t, d, out));
}

void tko_nn_release(tk_tensor **ts, int n)
{
    for (int i = 0; i < n; i++) tk_tensor_release(ts[i]), ts[i] = NULL;
}

tk_status tko_nn_attr_ints(TkoOpCtx *oc, const char *name, int64_t *v, int max, int *n)
{
    int c;
    const int64_t *a = tko_attr_ints(oc->node, name, &c);
    if (c > max) return tko_fail(oc, TK_ERR_UNSUPPORTED, "attribute %s has %d values, at most %d are supported", name, c, max);
    for (int i = 0; i < c; i++) v[i] = a[i];
    *n = c;
    return TK_OK;
}

const char *tko_nn_why(char *why, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
    return why;
}

int tko_nn_known_rank(const TkoModel *m, const TkoNode *n, int i)
{
    const TkoGraph *g = m->graph;
    if (i >= n->nin || n->inputs[i] == TKO_NO_VALUE || n < g->nodes || n >= g->nodes + g->nnodes) return -1;
    const TkoValue *v = &g->values[n->inputs[i]];
    if (v->constant) return tk_tensor_ndim(v->constant);
    return v->type.known ? v->type.ndim : -1;
}

tk_status tko_nn_and_into(TkoOpCtx *oc, tk_tensor **acc, tk_tensor *next)
{
    if (!*acc) {
        *acc = next;
        return TK_OK;
    }
    tk_tensor *r = NULL;
    tk_status s = tk_binary(oc->ctx, TK_LOGICAL_AND, *acc, next, &r);
    tk_tensor_release(*acc);
    tk_tensor_release(next);
    *acc = r;
    return s;
}
