/* op.h — how an ONNX op is implemented: one TkoOpDef per (domain, op), in
 * tables that each family file (ops/op_*.c) exports and op_table.c lists.
 *
 *   OPDEF("Relu", 6, TKO_ANY, "", run_unary, NULL, 1, 1, TK_RELU)
 *
 * At load, graph_check.c finds each node's def, refuses an opset below
 * since_version, refuses attributes not named in `attrs` (a comma-separated
 * list), then calls check (when not NULL) for what only the op knows
 * (an attribute value it does not support). At run time the executor calls
 * run with the node's inputs; run makes each output (one new reference in
 * oc->out[i]; leave NULL for an omitted optional output).
 */
#ifndef TK_RUNTIME_ONNX_OP_H
#define TK_RUNTIME_ONNX_OP_H

#include <stdio.h>

#include "internal.h"
#include "onnx_ir.h"
#include "onnx_tensor.h"

typedef struct {
    tk_context *ctx;
    TkoModel *model;
    TkoGraph *graph;
    const TkoNode *node;
    tk_tensor *const *in;    /* nin entries; NULL for an omitted optional input */
    int nin;
    tk_tensor **out;         /* nout entries, all NULL on entry */
    int nout;
    tk_tensor **vals;        /* the graph's value slots (for ops with subgraphs) */
    TkoSeq *const *seq_in;   /* nin entries: input i when it is a sequence or an empty optional (NULL otherwise, or all NULL) */
    TkoSeq **seq_out;        /* nout entries: an op making a sequence writes one new reference here instead of out[k] */
    TkoSeq **seqs;           /* the graph's sequence slots (for ops with subgraphs) */
} TkoOpCtx;

typedef tk_status (*TkoRunFn)(TkoOpCtx *oc);
/* NULL when the node is supported; otherwise writes why (one phrase, e.g.
 * "attribute mode='cubic' is not supported") into why and returns it. */
typedef const char *(*TkoCheckFn)(const TkoModel *m, const TkoNode *n, char *why, size_t len);

#define TKO_ANY 0            /* max_version: no upper bound */

struct TkoOpDef {
    const char *domain;      /* "" for ai.onnx, "com.microsoft" */
    const char *name;
    int since_version;       /* the lowest opset this implementation follows */
    int max_version;         /* the highest (TKO_ANY: every later one) */
    const char *attrs;       /* the attributes it reads, comma-separated */
    TkoRunFn run;
    TkoCheckFn check;
    int min_inputs, max_inputs;   /* input count bounds (max -1: variadic) */
    int arg;                 /* the family's own: which tk_binary_op, tk_unary_op, ... */
    bool values;             /* takes or makes sequences / optionals: never constant-folded */
};

/* A def row: OPDEF("Relu", 6, TKO_ANY, "", run_unary, NULL, 1, 1, TK_RELU). */
#define OPDEF(name, since, max, attrs, run, check, min_in, max_in, arg) \
    { "", name, since, max, attrs, run, check, min_in, max_in, arg, false }
#define MSDEF(name, since, max, attrs, run, check, min_in, max_in, arg) \
    { "com.microsoft", name, since, max, attrs, run, check, min_in, max_in, arg, false }
/* A row for an op that takes or makes sequences / optionals (never folded). */
#define VALDEF(name, since, max, attrs, run, check, min_in, max_in, arg) \
    { "", name, since, max, attrs, run, check, min_in, max_in, arg, true }
#define TKO_FAMILY_OF(var, table) const TkoOpFamily var = { table, (int)(sizeof table / sizeof table[0]) }

typedef struct {
    const TkoOpDef *defs;
    int n;
} TkoOpFamily;

/* The def for (domain, op) at opset; NULL with *why set when there is none. */
const TkoOpDef *tko_find_op(const char *domain, const char *op, int opset, const char **why);
/* Every known op, for docs and `tkrun --list-ops`. */
void tko_list_ops(FILE *f);

/* ------------------------------------------------------------ helpers for run functions */

/* An error naming the node ("node 'n1' (Gemm): ...") on the context. */
tk_status tko_fail(TkoOpCtx *oc, tk_status s, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Prefixes the context's last message with the node (after a tk_* call failed). */
tk_status tko_wrap(TkoOpCtx *oc, tk_status s);
/* Input i as int64 values (a shape, axes, pads): its elements converted, at
 * most max. Fails on a float tensor or more than max elements. */
tk_status tko_input_ints(TkoOpCtx *oc, int i, int64_t *vals, int max, int *count);
/* Input i as one double (a scalar or one-element tensor). */
tk_status tko_input_scalar(TkoOpCtx *oc, int i, double *v);
/* Normalises a possibly negative axis against rank; fails naming the node. */
tk_status tko_axis(TkoOpCtx *oc, int64_t axis, int rank, int *out);

/* Runs subgraph sg of the node (an If branch, a Loop body) on inputs (a
 * tensor or, in seq_inputs, a sequence each; seq_inputs may be NULL), with
 * the enclosing graph's values it reads; outputs[sg->nout] (and
 * seq_outputs[sg->nout] when not NULL: a sequence output there) receive new
 * references. */
tk_status tko_run_subgraph(TkoOpCtx *oc, TkoGraph *sg, tk_tensor *const *inputs, TkoSeq *const *seq_inputs, int nin,
                           tk_tensor **outputs, TkoSeq **seq_outputs);

#define TKO_FAMILY(name) extern const TkoOpFamily name
TKO_FAMILY(tko_ops_elementwise);
TKO_FAMILY(tko_ops_shape);
TKO_FAMILY(tko_ops_nn);
TKO_FAMILY(tko_ops_reduce);
TKO_FAMILY(tko_ops_control);
TKO_FAMILY(tko_ops_rnn);
TKO_FAMILY(tko_ops_sequence);
TKO_FAMILY(tko_ops_fused);
TKO_FAMILY(tko_ops_quant);
TKO_FAMILY(tko_ops_misc);
TKO_FAMILY(tko_ops_loss);
TKO_FAMILY(tko_ops_signal);
TKO_FAMILY(tko_ops_ext);

/* ------------------------------------------------------------ onnx-ored */

/* *t converted to dtype d (ONNX keeps input types where the runtime
 * promotes): replaces *t, releasing the old one; a no-op when it already is. */
tk_status tko_as_dtype(TkoOpCtx *oc, tk_tensor **t, tk_dtype d);

/* ------------------------------------------------------------ onnx-contrib */

TKO_FAMILY(tko_ops_contrib);

#endif
