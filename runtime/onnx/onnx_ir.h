/* onnx_ir.h — the ONNX graph as the loader holds it: values by index,
 * nodes in execution order, attributes decoded. Everything a model owns
 * (strings, arrays, nodes, subgraphs) lives in its TkoArena and is freed at
 * once; tensors (initializers, tensor attributes) are references released by
 * tko_model_destroy.
 *
 * The passes, each in its own file, in the order tk_onnx_load runs them:
 *   model_read.c   bytes -> TkoModel (protobuf wire format, bounds-checked)
 *   graph_sort.c   nodes in topological order (unsorted graphs tolerated, cycles
 *                  refused); each value's last use, so the executor frees it early
 *   graph_check.c  every node's op, attributes and opset checked against the op table;
 *                  problems gathered (with graph_infer.c's) into one message
 *   graph_infer.c  every value's element type and shape (dims constant or symbolic), checked
 *                  against value_info and the ops' type rules; run before and after folding
 *   graph_fold.c   Constant nodes and nodes whose inputs are all constant, run once
 *   graph_infer.c  (again); shapes it knows exactly become constants, folded again; then dead
 *                  nodes removed: nothing reads their outputs
 *   graph_fuse.c   constant weights marked so kernels convert their layout once; rewrites to
 *                  fused kernels (linear, attention, gelu) unless no_fuse
 *   graph_sort.c   tko_liveness: each value's last reader, each node's free list
 *   graph_plan.c   at run time, per binding of the dim names: intermediates placed in one
 *                  arena by liveness (the plan; views extend their base's life)
 *   executor.c     runs a graph on bound inputs, each planned output at its place
 *   graph_dump.c   the graph as text (tk_model_dump, tkrun --dump)
 */
#ifndef TK_RUNTIME_ONNX_IR_H
#define TK_RUNTIME_ONNX_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "file_map.h"
#include "tk/onnx.h"
#include "tk/tensor.h"

/* ------------------------------------------------------------ arena */

typedef struct TkoArenaBlock TkoArenaBlock;
typedef struct {
    TkoArenaBlock *head;
    bool failed;
} TkoArena;

void *tko_alloc(TkoArena *a, size_t bytes);            /* zeroed; NULL when out of memory */
char *tko_strndup(TkoArena *a, const void *s, size_t n);
void tko_arena_free(TkoArena *a);

/* ------------------------------------------------------------ attributes */

typedef enum {
    TKO_ATTR_UNDEFINED = 0, TKO_ATTR_FLOAT = 1, TKO_ATTR_INT = 2, TKO_ATTR_STRING = 3, TKO_ATTR_TENSOR = 4,
    TKO_ATTR_GRAPH = 5, TKO_ATTR_FLOATS = 6, TKO_ATTR_INTS = 7, TKO_ATTR_STRINGS = 8, TKO_ATTR_TENSORS = 9,
    TKO_ATTR_GRAPHS = 10, TKO_ATTR_SPARSE_TENSOR = 11, TKO_ATTR_SPARSE_TENSORS = 12, TKO_ATTR_TYPE_PROTO = 13,
    TKO_ATTR_TYPE_PROTOS = 14,
} TkoAttrType;

typedef struct TkoGraph TkoGraph;

typedef struct {
    const char *name;
    TkoAttrType type;
    float f;
    int64_t i;
    const char *s;           /* NUL-terminated copy; slen bytes (may hold NULs) */
    size_t slen;
    tk_tensor *t;            /* owned reference */
    TkoGraph *g;
    int n;                   /* elements of floats / ints / strings / graphs */
    float *floats;
    int64_t *ints;
    const char **strings;
    TkoGraph **graphs;
    int ngraphs;             /* graphs read into `graphs` (owned), whatever `type` says */
} TkoAttr;

/* ------------------------------------------------------------ values that are not tensors */

/* A sequence of tensors, or an optional holding nothing (`none`); an
 * optional holding a value is just that value. Immutable once made (ops make
 * new ones), refcounted; the public tk_seq of tk/onnx.h. */
struct tk_seq {
    long refs;
    bool none;
    int n, cap;
    tk_tensor **items;       /* owned references */
    int elem_type;           /* ONNX element type, for an empty sequence's later users (0: unknown) */
};
typedef struct tk_seq TkoSeq;

TkoSeq *tko_seq_new(bool none);
TkoSeq *tko_seq_retain(TkoSeq *s);
void tko_seq_release(TkoSeq *s);
/* Appends (at == n) or inserts at `at` one reference to t; false when out of memory. */
bool tko_seq_insert(TkoSeq *s, int at, tk_tensor *t);

/* ------------------------------------------------------------ values, nodes, graphs */

#define TKO_NO_VALUE (-1)    /* an omitted optional input or output ("") */

/* What the model says of a value's type (graph inputs/outputs, value_info). */
typedef struct {
    bool known;              /* a tensor type was given */
    int elem_type;           /* ONNX TensorProto.DataType */
    int ndim;                /* -1: unknown rank */
    int64_t *dims;           /* -1 where symbolic or unknown */
    const char **dim_names;  /* dim_param, or NULL */
    const char *kind;        /* "tensor", "sequence", "optional", "map", "sparse_tensor", "opaque" */
} TkoType;

/* A size graph_infer.c derived: a constant, a dim name of the graph inputs,
 * or a small canonical expression of them ("batch*16", "(H+1)/2"); made by
 * graph_infer_sym.c (graph_infer_sym.h). Opaque; NULL where the size is unknown. */
typedef struct TkoSym TkoSym;

/* What graph_infer.c derived of a value. */
typedef struct {
    int elem_type;           /* ONNX TensorProto.DataType; 0: unknown (or not a tensor) */
    int ndim;                /* -1: unknown rank */
    const TkoSym **dims;     /* ndim entries, NULL where unknown */
    int nval;                /* >= 0: a small integer tensor (a shape) whose nval elements are val (NULL: unknown) */
    const TkoSym **val;
    bool declared;           /* completed from the model's value_info (not derived) */
    bool valid;              /* false for a value made after inference ran (graph_fuse.c's): nothing known */
} TkoInfer;

typedef struct {
    const char *name;
    TkoType type;
    TkoInfer inf;            /* graph_infer.c */
    tk_tensor *constant;     /* initializer or folded constant (owned reference); NULL otherwise */
    int producer;            /* index of the node writing it, -1 for inputs/initializers/outer values */
    int last_use;            /* index of the last node reading it (graph_sort.c); nnodes for graph outputs */
    bool is_outer;           /* a value of an enclosing graph, read by a subgraph */
    int outer_index;         /* its index there */
} TkoValue;

typedef struct TkoOpDef TkoOpDef;

typedef struct {
    const char *name;        /* may be "" */
    const char *op;
    const char *domain;      /* "" for the default ONNX domain ("ai.onnx" is stored as "") */
    int opset;               /* the model's opset for the domain */
    int *inputs, *outputs;   /* value indices, TKO_NO_VALUE where omitted */
    int nin, nout;
    TkoAttr *attrs;
    int nattrs;
    const TkoOpDef *def;     /* graph_check.c */
    int *frees;              /* values whose last reader this node is (graph_sort.c's liveness) */
    int nfrees;
} TkoNode;

struct TkoGraph {
    const char *name;
    TkoGraph *parent;        /* NULL for the main graph */
    TkoValue *values;
    int nvalues, cap_values;
    TkoNode *nodes;
    int nnodes;
    int *inputs, *outputs;   /* graph inputs (without initializers) and outputs */
    int nin, nout;
    int *outer;              /* values read from the parent graph (is_outer), for binding */
    int nouter;
    /* name -> value index, open addressing */
    int *map;
    int map_cap;
};

typedef struct {
    char domain[64];
    int64_t version;
} TkoOpset;

typedef struct tk_model TkoModel;
struct tk_model {
    tk_context *ctx;
    TkoArena arena;
    TkrFileMap *map;         /* the .onnx file, NULL when loaded from bytes */
    char *dir;               /* its folder, for external data */
    TkrFileMap **ext_maps;   /* external-data files, mapped once each */
    char **ext_names;
    int n_ext;
    const char *path;        /* for messages */
    int64_t ir_version;
    TkoOpset *opsets;
    int nopsets;
    TkoGraph *graph;
    tk_onnx_opts opts;
    char *dump;
    /* load-time problems, gathered by graph_check.c and graph_infer.c into one message */
    char *problems;
    size_t problems_len, problems_cap;
    int nproblems;
    bool problems_oom;
    /* graph_infer.c: counts for the dump, and the symbols bound by a checked run (opts.check_infer) */
    int infer_values, infer_full;
    bool inferred;
    const char *infer_sym_names[64];
    int64_t infer_sym_sizes[64];
    int infer_nsyms;
    /* public metadata, made at load */
    tk_value_info *in_info, *out_info;
    /* graph_plan.c and the executor: memory plans of the main graph (one per binding of its dim
     * names), the arena they share between runs, and what runs taught the planner */
    struct TkoPlan *plans;
    int nplans;
    uint8_t *plan_learned;             /* per main-graph node, TKO_LEARN_* (NULL until a run learns something) */
    struct TkrArena *tensor_arena;     /* the plans' memory (alloc.c), kept between runs */
    const struct TkoPlan *run_plan;    /* the plan of the run under way (NULL: none) */
    tk_model_memory_stats mem;         /* the last run's plan, and the misses */
    const char *plan_assume_fresh;     /* tests only: ops (comma list) planned as making new memory whatever
                                        * they do, so the run-time check meets an op that breaks the plan */
};

/* ------------------------------------------------------------ graph helpers */

/* The value named `name` in g (or its parents, through an outer value); creates
 * it when create is set. -1 when absent or out of memory. */
int tko_value(TkoArena *a, TkoGraph *g, const char *name, bool create);
const TkoAttr *tko_attr(const TkoNode *n, const char *name);
int64_t tko_attr_int(const TkoNode *n, const char *name, int64_t dflt);
float tko_attr_float(const TkoNode *n, const char *name, float dflt);
const char *tko_attr_string(const TkoNode *n, const char *name, const char *dflt);
/* ints of an INTS attribute (NULL and *count 0 when absent). */
const int64_t *tko_attr_ints(const TkoNode *n, const char *name, int *count);
/* Is `name` one of the comma-separated names of `list` ("Add,Sub,Mul")? */
bool tko_listed(const char *list, const char *name);
int tko_opset(const TkoModel *m, const char *domain);

/* ------------------------------------------------------------ passes */

tk_status tko_read_model(TkoModel *m, const uint8_t *buf, size_t len);
tk_status tko_sort_graph(TkoModel *m, TkoGraph *g);
/* Gathers every node's problems into m->problems; fails only when out of memory. */
tk_status tko_check_graph(TkoModel *m);
void tko_problem(TkoModel *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The one message listing every gathered problem (TK_OK when there are none). */
tk_status tko_report_problems(TkoModel *m);
tk_status tko_fold_constants(TkoModel *m, TkoGraph *g);
/* graph_infer.c: types and shapes of every value (problems to m->problems). */
tk_status tko_infer_graph(TkoModel *m, TkoGraph *g);
/* Replaces nodes whose output inference knows exactly (a shape) by constants, and removes nodes
 * none of whose outputs is read (nor a graph output). */
tk_status tko_remove_dead(TkoModel *m, TkoGraph *g);
/* Does opts.dump ask for `pass` ("plan", "fuse", or "all")? (model_api.c) */
bool tko_dump_wants(const TkoModel *m, const char *pass);
/* Prints a size ("batch*16", "7", "?" for NULL) into buf. */
const char *tko_sym_str(const TkoSym *s, char *buf, size_t len);
/* With opts.check_infer: compares what node i of g (or, for node -1, the graph inputs) made
 * with what inference said; a disagreement is an error naming the node and the value. */
/* graph_dump.c: each value of the main graph with its inferred type and shape (tkrun --dump=infer). */
const char *tko_dump_inferred(TkoModel *m);
tk_status tko_infer_verify(TkoModel *m, TkoGraph *g, int node, tk_tensor *const *vals);
tk_status tko_mark_weights(TkoModel *m, TkoGraph *g);
tk_status tko_fuse(TkoModel *m, TkoGraph *g);
tk_status tko_liveness(TkoModel *m, TkoGraph *g);
void tko_model_destroy(TkoModel *m);
/* Releases what node n owns: its attributes' tensors and subgraphs (for a pass
 * that drops the node; tko_model_destroy does it for the nodes left). */
void tko_node_release(TkoNode *n);

/* Runs g: vals (tensors) and seqs (sequences, empty optionals) have
 * g->nvalues slots each, a value in at most one of them; constants and bound
 * inputs (and outer values) must be filled in by the caller (owned
 * references); the executor frees each intermediate after its last use and
 * leaves the outputs in their slots. On failure every slot is released. */
tk_status tko_execute(TkoModel *m, TkoGraph *g, tk_tensor **vals, TkoSeq **seqs);

#endif
