/* graph_fuse.h — what the load-time rewrites share: graph_fuse.c (linear,
 * attention, gelu, conv) and graph_fuse_ffn.c (the linears' epilogues and the
 * FFN patterns), and the codes op_fused.c reads back from the fused nodes. */
#ifndef TK_ONNX_GRAPH_FUSE_H
#define TK_ONNX_GRAPH_FUSE_H

#include "op.h"

/* FusedLinear's "act" attribute: the activation applied to its result. */
typedef enum {
    TKO_ACT_NONE = 0,
    TKO_ACT_RELU,
    TKO_ACT_GELU_TANH,
    TKO_ACT_SILU,
    TKO_ACT_GELU_ERF,
    TKO_ACT_SIGMOID,
    TKO_ACT_TANH,
} TkoAct;

typedef struct {
    TkoModel *m;
    TkoGraph *g;
    int *uses;          /* per value: readers (node inputs, subgraph reads, graph outputs) */
    int *producer;      /* per value: its node, -1 for none */
    bool *dead;         /* per node: fused into another */
    int nuses;          /* values counted in uses and producer (a pass may add more) */
} TkoFuse;

/* The live node of default-domain op `op` that makes v; NULL if none. */
const TkoNode *tko_fuse_producer(const TkoFuse *f, int v, const char *op);
/* The live node of domain "tk" op `op` that makes v; NULL if none. */
TkoNode *tko_fuse_producer_tk(const TkoFuse *f, int v, const char *op);
/* v is a one-element float constant: its value in *out. */
bool tko_fuse_scalar_const(const TkoFuse *f, int v, double *out);
/* The other input of a binary node, given one of them. */
int tko_fuse_other_input(const TkoNode *n, int v);
/* Turns node `tail` into the fused op "tk" `op` with these inputs and attributes. */
tk_status tko_fuse_become(TkoFuse *f, TkoNode *tail, const char *op, const int *inputs, int nin, TkoAttr *attrs, int nattrs);
/* Marks a node fused away (dropped after the passes). */
void tko_fuse_kill(TkoFuse *f, const TkoNode *n);

/* The passes of graph_fuse_ffn.c, run after fuse_linear and fuse_gemm on
 * every live node i: */
tk_status tko_fuse_linear_epilogue(TkoFuse *f, int i);   /* FusedLinear -> act [-> residual Add] */
tk_status tko_fuse_ffn(TkoFuse *f, int i);               /* FusedLinear pairs -> FusedFfn */

#endif
