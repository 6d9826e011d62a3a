/* graph_fuse.c — load-time rewrites for speed (skipped with no_fuse, so
 * results can be compared with and without them).
 *
 *   weights   the constant weight of every Conv, ConvTranspose, MatMul and
 *             Gemm is marked (tk_mark_weight): the layout its kernel wants —
 *             the gemm packing, a conv weight's HWIO transpose — is made on the
 *             first run and kept, instead of once per call.
 *
 * The marking is not a change of results (the same kernels, the same
 * layouts), so it runs with no_fuse too: no_fuse only turns off rewrites
 * that change which kernels run. */
#include <string.h>

#include "op.h"
#include "tk/nn.h"

/* Which input of the op is a weight whose layout a kernel converts. */
static int weight_input(const TkoNode *n)
{
    if (*n->domain) return -1;
    if (strcmp(n->op, "Conv") == 0 || strcmp(n->op, "ConvTranspose") == 0 || strcmp(n->op, "MatMul") == 0 ||
        strcmp(n->op, "Gemm") == 0)
        return 1;
    return -1;
}

tk_status tko_mark_weights(TkoModel *m, TkoGraph *g)
{
    for (int i = 0; i < g->nnodes; i++) {
        const TkoNode *n = &g->nodes[i];
        int k = weight_input(n);
        if (k < 0 || k >= n->nin || n->inputs[k] < 0) continue;
        tk_tensor *w = g->values[n->inputs[k]].constant;
        if (!w || !tk_dtype_is_float(tk_tensor_dtype(w))) continue;
        tk_status s = tk_mark_weight(m->ctx, w);
        if (s) return s;
    }
    return TK_OK;
}
