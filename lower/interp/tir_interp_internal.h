/* tir_interp_internal.h — private to the reference interpreter of TIR.
 *
 * The compiled form of a function (nodes, regions), the runtime values and
 * the interpreter state shared by tir_interp.c (schedule, control flow,
 * slots, scalar ops), tir_interp_compile.c (the node table) and
 * tir_interp_tiles.c (tile and vector ops), and the helpers they use. Not part of the API: see tir_interp.h. */
#ifndef TK_LOWER_TIR_INTERP_INTERNAL_H
#define TK_LOWER_TIR_INTERP_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tir_interp.h"

/* ------------------------------------------------------------------ nodes */

enum { VK_NONE, VK_BOOL, VK_INT, VK_FLOAT, VK_TILE, VK_TENSOR };

enum {
    NF_BARRIER = 1,     /* SYNC, or FOR/IF containing one */
    NF_W0ONLY = 2,      /* run by warp 0 only (block-collective, or a value only they need) */
    NF_SHARED = 4,      /* VAR of an st/sv: one slot per block */
    NF_BORROW = 8,      /* GET of a tile that borrows the slot's storage */
    NF_VALUE = 16,      /* produces a value */
};

#define NO_REGION UINT32_MAX
#define NEVER UINT32_MAX

typedef struct {
    const TirInstr *ti;
    TirOp op;
    uint32_t args[TIR_MAX_ARGS];
    uint8_t nargs;
    uint8_t vk;          /* kind of the value (value ops) or of the slot (VAR) */
    uint8_t flags;
    TkTypeKind elem;     /* scalars: their kind; tiles/vectors: the element kind */
    bool vec;            /* rv/sv */
    bool shared_type;    /* st/sv */
    int64_t rows, cols;  /* tiles R×C; vectors N×1 */
    int64_t n;           /* elements of a tile/vector */
    uint32_t region, pos;   /* where it sits (LOOP_IV: the FOR's body region) */
    uint32_t body[2];    /* FOR/IF regions */
    uint32_t iv;         /* FOR: its LOOP_IV node */
    uint32_t last;       /* position in `region` of the last use (NEVER: kept) */
    uint32_t id;         /* dump number */
} Node;

typedef struct {
    uint32_t *items, count;
    uint32_t owner;      /* FOR/IF node holding it, or NEVER for the top regions */
    uint32_t *free_off;  /* count + 1 offsets into free_nodes */
    uint32_t *free_nodes;
} Region;

typedef struct {
    double *d;           /* tile data (owned unless borrowed); with bounds, n values then n error bounds */
    double f;            /* float scalar */
    double fe;           /* with bounds: the error bound of f */
    int64_t i;           /* int/bool scalar; tensor parameter index */
    bool present, owned;
} Val;

typedef struct {
    const TirFunc *f;
    Node *nodes;
    uint32_t nnodes;
    Region *regions;
    uint32_t nregions;
    uint32_t *users_off, *users;   /* users of each node (CSR) */
    uint32_t grid_region, body_region;
    /* pointer → node map (compile only) */
    const TirInstr **hkeys;
    uint32_t *hvals;
    size_t hcap;

    double **tensors;
    const double *scalars;
    const int64_t *sizes;
    unsigned nsizes;
    int64_t (*tdims)[TK_GL_MAX_RANK];   /* per parameter */
    int64_t warps;
    Val **vals;          /* [warp][node] */
    Val **slots;         /* [warp][node] for per-warp VARs */
    Val *shared;         /* [node] for st/sv VARs */
    int64_t block[3];

    /* error bounds (tir_interp_run_bounded): NULL when not asked for */
    TirInterpBounds *bounds;

    size_t bytes;
    bool failed;
    char *err;
    size_t errlen;
} Interp;

/* v rounded to element kind k (bf16/f16; other kinds unchanged). Inline: the tile
 * ops call it once per element. */
static inline double ti_round_to(TkTypeKind k, double v)
{
    if (k == TK_TY_BF16) return tir_round_bf16(v);
    if (k == TK_TY_F16) return tir_round_f16(v);
    return v;
}

/* Doubles of storage a tile value or slot of node x takes: its elements, and
 * with bounds as many error bounds after them. */
static inline size_t ti_tile_len(const Interp *I, const Node *x)
{
    return (size_t)x->n * (I->bounds ? 2u : 1u);
}

/* The error bounds of tile storage d of node x (NULL without bounds). */
static inline double *ti_err(const Interp *I, double *d, const Node *x)
{
    return I->bounds && d ? d + x->n : NULL;
}

/* ---- tir_interp.c */

/* Records the first error (with x's dump number and op when x is given). */
void ti_fail(Interp *I, const Node *x, const char *fmt, ...);

/* Integers: u as a two's-complement int64; v wrapped to kind k; a / b with
 * a zero divisor giving 0. */
int64_t ti_u2i(uint64_t u);
int64_t ti_wrap_to(TkTypeKind k, int64_t v);
int64_t ti_int_div(int64_t a, int64_t b);

/* Operands and results of node x in warp w: the fresh result value (tiles
 * zero-filled), operand k's value (NULL after a failure), its node, a numeric
 * value as a double, an integer operand, slot operand k's storage. */
Val *ti_out_val(Interp *I, const Node *x, int64_t w);
const Val *ti_opnd(Interp *I, const Node *x, unsigned k, int64_t w);
const Node *ti_arg_node(const Interp *I, const Node *x, unsigned k);
double ti_as_f(const Node *n, const Val *v);
bool ti_int_opnd(Interp *I, const Node *x, unsigned k, int64_t w, int64_t *out);
Val *ti_slot_of(Interp *I, const Node *x, unsigned k, int64_t w);

/* Marks a bounded run unreliable (the first reason wins); no-op without bounds. */
void ti_unreliable(Interp *I, const Node *x, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ---- tir_interp_bounds.c: the error of one result (see tir_interp.h).
 * Each returns a bound on |compiled - interpreted| of a result r (the
 * interpreter's value, already rounded to elem), from its operands' values
 * and bounds; +inf when none can be given (then *bad is set). */
double tb_map1(TirFn fn, TkTypeKind elem, double x, double ex, double r, bool *bad);
double tb_map2(TirFn fn, TkTypeKind elem, double a, double ea, double b, double eb, double r, bool *bad);
/* fma(a, b, c) in f32 (one rounding), then rounded to elem; c enters only by its bound. */
double tb_fma(TkTypeKind elem, double a, double ea, double b, double eb, double ec, double r, bool *bad);
/* A value of bound e rounded to elem (convert, fill, element writes). */
double tb_convert(TkTypeKind elem, double r, double e);
/* A sum of n terms of total magnitude sum_abs and summed bound sum_err, in f32 in any order. */
double tb_sum(TkTypeKind elem, double r, int64_t n, double sum_abs, double sum_err);
/* acc + Σ_k a_k·b_k in f32 in any order: acc's bound, Σ|a||b|, Σ(|a|eb + |b|ea + ea·eb). */
double tb_mma(double acc, double eacc, int64_t K, double sum_abs, double sum_prop);
/* Whether a comparison p OP q (OP a TkOp) is decided by the bounds. */
bool tb_compare_decided(int op, double p, double ep, double q, double eq);

/* ---- tir_interp_compile.c */

/* Builds I's node table from its function; 0, or -1 after ti_fail. */
int ti_compile(Interp *I);

/* The node number of instruction p (compiled). */
uint32_t ti_node_of(const Interp *I, const TirInstr *p);

/* ---- tir_interp_tiles.c */

/* Runs tile/vector op x (FILL, LOAD, STORE, MMA, MAP1, MAP2, MAP3, REDUCE,
 * BROADCAST, CONVERT, TRANSPOSE, TRI, MASK, ELEM) in warp w. */
void ti_exec_tile_op(Interp *I, const Node *x, int64_t w);

/* ---- tir_interp_slice.c: SLICE, LINE, SET_SLICE, SET_LINE in warp w. */
void ti_exec_slice_op(Interp *I, const Node *x, int64_t w);

#endif
