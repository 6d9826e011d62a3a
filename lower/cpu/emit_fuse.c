/* emit_fuse.c — element-wise work on the CPU: fused loops over tiles and
 * vectors (maps, broadcasts, conversions, masks, fills).
 *
 * The reductions that end a DAG are emit_reduce.c's, the fused stores
 * emit_store.c's; what they share with this file is in emit_fuse.h.
 *
 * Each element-wise DAG becomes one loop per root (the section "element-wise
 * expressions" says which nodes a root computes), reading row-major loads in
 * place where the tile lies inside its tensor; small roots are computed in
 * vectors instead (emit_lanes.c). Tile buffers and element access are
 * emit_tiles.c's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "emit.h"
#include "emit_fuse.h"
#include "emit_gl.h"

/* ---------------------------------------------------------------- element-wise */

/* Loop over every (i, j) of type t (vectors: j only, i = 0), in the order the
 * elements are stored: rows outer for a row tile, columns outer for a col
 * tile. Walking a col tile row by row strides by a whole column per element:
 * a 256×64 f32 col tile (64 KiB, more than L1) took 125 µs per mask_rows that
 * way, one cache miss per element, and about 2 µs in storage order. */
typedef struct {
    EmitLoop outer, inner;
    LLVMValueRef i, j;
} Loop2;

static void loop2_begin(Emit *E, Loop2 *L, const TkType *t)
{
    int64_t rows = t->rank == 2 ? t->dims[0] : 1, cols = t->rank == 2 ? t->dims[1] : t->dims[0];
    bool by_col = t->rank == 2 && t->layout == TK_COL;
    emit_loop_begin(E, &L->outer, emit_const_i64(E, by_col ? cols : rows), by_col ? "col" : "row");
    emit_loop_begin(E, &L->inner, emit_const_i64(E, by_col ? rows : cols), by_col ? "row" : "col");
    L->i = by_col ? L->inner.idx : L->outer.idx;
    L->j = by_col ? L->outer.idx : L->inner.idx;
}

/* Does a fused element loop convert 16-bit floats (its result's type, or a
 * load it reads in place)? Such a loop is left to the loop vectoriser
 * (emit_loop_end_lanes): fully unrolled, LLVM's SLP vectoriser kept its bf16
 * conversions scalar (the bf16 depthwise conv was 14.5 ms unrolled, 3.2 ms as
 * a vectorised loop). Small values never get here: they are computed in
 * lanes (emit_lanes.c). */
static bool converts_halves(const Emit *E, const TkType *t)
{
    bool half = t->elem == TK_TY_BF16 || t->elem == TK_TY_F16;
    for (uint32_t k = 0; k < E->nfuse_loads && !half; k++)
        half = E->fuse_loads[k]->type->elem == TK_TY_BF16 || E->fuse_loads[k]->type->elem == TK_TY_F16;
    return half;
}

void fuse_end_element_loop(Emit *E, EmitLoop *L, const TkType *t)
{
    if (converts_halves(E, t)) emit_loop_end_lanes(E, L);
    else emit_loop_end(E, L);
}

static void loop2_end(Emit *E, Loop2 *L, const TkType *t)
{
    fuse_end_element_loop(E, &L->inner, t);
    emit_loop_end_rows(E, &L->outer);
}

static LLVMValueRef idx_of(Emit *E, const TkType *t, LLVMValueRef i, LLVMValueRef j)
{
    return t->rank == 2 ? emit_tile_index(E, t, i, j) : j;
}

LLVMValueRef fuse_scalar_f32(Emit *E, const TirInstr *s)
{
    LLVMValueRef v = emit_value(E, s);
    return emit_convert_scalar(E, v, s->type->kind, TK_TY_F32);
}

/* ---------------------------------------------------------------- element-wise expressions
 *
 * Element-wise operations (maps, broadcasts, conversions, masks, where) form
 * DAGs: `exp(sub_row(mul(s, scale), m))`, or `let`s used several times.
 * Materialising every node costs a pass over a whole tile per op, and a
 * large tile overflows L1, so the chain runs at cache bandwidth. Instead
 * each node is given an owner: the root whose single loop computes it. A
 * root is a reduction, a store into a row-major tensor, or an element-wise
 * node whose value is needed as a whole tile (by a statement, another kind
 * of op, or users in different loops). A node whose users all have one
 * owner, with no statement in between, belongs to that owner: it is never
 * emitted where it stands, its value is computed inside the owner's loop
 * once per element (a node used twice is remembered for the element being
 * computed), and how a formula is spelled — one expression or many lets —
 * does not change the code. */

static bool is_elementwise(const TirInstr *x)
{
    switch (x->op) {
    case TIR_MAP1:
    case TIR_MAP2:
    case TIR_MAP3:
    case TIR_BROADCAST:
    case TIR_CONVERT:
    case TIR_TRI:
    case TIR_MASK:
    case TIR_SLICE:   /* emit_subtile.c */
    case TIR_LINE:
    case TIR_FILL: return (x->type->kind == TK_TY_RT || x->type->kind == TK_TY_RV) && x->pack == TIR_PACK_NONE;
    default: return false;
    }
}

/* A store of x into a row-major tensor: the element loop writes the tensor
 * itself (emit_tile_store), so no tile of x is ever made. */
static bool stores_fused(const TirInstr *u, const TirInstr *x)
{
    return u->op == TIR_STORE && u->nargs >= 2 && u->args[1] == x && u->args[0]->op == TIR_PARAM &&
           u->args[0]->type->kind == TK_TY_GL && u->args[0]->type->layout != TK_PACKED;
}

static bool fusion_ready(Emit *E)
{
    if (E->fuse_owner) return true;
    uint32_t n = E->count ? E->count : 1;
    E->fuse_owner = calloc(n, sizeof *E->fuse_owner);
    E->fuse_epoch_of = calloc(n, sizeof *E->fuse_epoch_of);
    E->fuse_memo = calloc(n, sizeof *E->fuse_memo);
    E->fuse_memo_i = calloc(n, sizeof *E->fuse_memo_i);
    E->fuse_memo_j = calloc(n, sizeof *E->fuse_memo_j);
    E->fuse_memo_lanes = calloc(n, sizeof *E->fuse_memo_lanes);
    E->fuse_memo_pass = calloc(n, sizeof *E->fuse_memo_pass);
    E->fuse_load = calloc(n, sizeof *E->fuse_load);
    E->fuse_loads = calloc(n, sizeof *E->fuse_loads);
    E->fuse_src = calloc(n, sizeof *E->fuse_src);
    E->fuse_stride = calloc(n, sizeof *E->fuse_stride);
    E->nfuse_loads = 0;
    if (!E->fuse_owner || !E->fuse_epoch_of || !E->fuse_memo || !E->fuse_memo_i || !E->fuse_memo_j || !E->fuse_memo_lanes || !E->fuse_memo_pass || !E->fuse_load ||
        !E->fuse_loads || !E->fuse_src || !E->fuse_stride) {
        emit_free_fusion(E);
        return false;   /* without memory, nothing fuses: every node is materialised */
    }
    return true;
}

void emit_free_fusion(Emit *E)
{
    free(E->fuse_owner);
    free(E->fuse_epoch_of);
    free(E->fuse_memo);
    free(E->fuse_memo_i);
    free(E->fuse_memo_j);
    free(E->fuse_memo_lanes);
    E->fuse_memo_lanes = NULL;
    free(E->fuse_memo_pass);
    E->fuse_memo_pass = NULL;
    free(E->fuse_load);
    free(E->fuse_loads);
    free(E->fuse_src);
    free(E->fuse_stride);
    E->fuse_load = NULL;
    E->fuse_loads = NULL;
    E->fuse_src = E->fuse_stride = NULL;
    E->nfuse_loads = 0;
    E->fuse_judged = false;
    E->fuse_owner = NULL;
    E->fuse_epoch_of = NULL;
    E->fuse_memo = E->fuse_memo_i = E->fuse_memo_j = NULL;
}

/* The root whose loop computes element-wise node x (x itself when it must be
 * materialised). x's users must all stand after it in its region before the
 * next statement (a store that takes x is that statement), and be the same
 * root or belong to it. Users come later than x, so the recursion ends. */
static const TirInstr *owner_of(Emit *E, const TirInstr *x)
{
    if (E->fuse_owner[x->id]) return E->fuse_owner[x->id];
    const TirInstr *owner = NULL;
    uint32_t seen = 0;
    bool self = E->uses[x->id] == 0;
    for (const TirInstr *u = x->next; u && !self && seen < E->uses[x->id]; u = u->next) {
        unsigned refs = 0;
        for (unsigned a = 0; a < u->nargs; a++) refs += u->args[a] == x;
        if (refs) {
            seen += refs;
            const TirInstr *o = u->op == TIR_REDUCE || stores_fused(u, x) ? u : is_elementwise(u) ? owner_of(E, u) : NULL;
            if (!o || (owner && o != owner)) self = true;
            owner = o;
        }
        if (tir_is_statement(u->op)) break;
    }
    if (seen != E->uses[x->id]) self = true;   /* a user after a statement, or in another region */
    return E->fuse_owner[x->id] = self || !owner ? x : owner;
}

/* ---------------------------------------------------------------- loads read in place
 *
 * A load from a row-major tensor whose users are all element-wise nodes,
 * reductions or a fused store never needs a tile of its own: each fused loop
 * that reads it reads the tensor (where the tile lies inside it; a tile
 * across an edge is copied, masked, into its buffer first, as before). The
 * stack copy was a write and a read of the whole tile per load: an
 * epilogue's loop ran at half the speed of the same C loop.
 * It is only safe if no store can change what the load saw before a loop
 * reads it: the kernel never stores into that tensor, or the one loop that
 * reads the load is a fused store into the same tensor at the same tile
 * (element (i, j) is read before it is written, and no other element is). */

/* Tiles and vectors of a row-major tensor's own element type, row layout. */
static bool load_candidate(const TirInstr *x)
{
    if (x->op != TIR_LOAD || x->pack != TIR_PACK_NONE || x->nargs < 2) return false;
    const TirInstr *src = x->args[0];
    const TkType *g = src->type, *t = x->type;
    if (src->op != TIR_PARAM || g->kind != TK_TY_GL || g->layout != TK_ROW || g->elem != t->elem || t->elem == TK_TY_BOOL) return false;
    if (t->rank + 0u > g->rank || x->nargs != 1u + g->rank) return false;
    return t->kind == TK_TY_RV || (t->kind == TK_TY_RT && t->rank == 2 && t->layout == TK_ROW);
}

/* Marks loads some user needs as a whole tile (2); the others stay 0. */
static void judge_load_users(Emit *E, const TirRegion *r)
{
    for (const TirInstr *u = r->first; u; u = u->next) {
        for (unsigned a = 0; a < u->nargs; a++) {
            const TirInstr *x = u->args[a];
            if (!x || x->op != TIR_LOAD) continue;
            bool ok = is_elementwise(u) || (u->op == TIR_REDUCE && a == 0) || (a == 1 && stores_fused(u, x));
            if (!ok) E->fuse_load[x->id] = 2;
        }
        judge_load_users(E, &u->body[0]);
        judge_load_users(E, &u->body[1]);
    }
}

/* Do two scalar values certainly compute the same number? (Pure scalar ops
 * of equal operands; no statement stands between a fused load and its
 * store, so a GET reads the same slot value in both.) */
static bool same_scalar(const TirInstr *a, const TirInstr *b, int depth)
{
    if (a == b) return true;
    if (depth > 8 || a->op != b->op || a->aux != b->aux || a->imm != b->imm || a->nargs != b->nargs || a->type->kind != b->type->kind)
        return false;
    switch (a->op) {
    case TIR_PARAM: case TIR_SIZE: case TIR_BLOCK_ID: case TIR_WARP_ID: case TIR_CONST_INT: case TIR_BINARY: case TIR_UNARY:
    case TIR_CAST: case TIR_CDIV: case TIR_GET: break;
    default: return false;
    }
    for (unsigned k = 0; k < a->nargs; k++)
        if (!same_scalar(a->args[k], b->args[k], depth + 1)) return false;
    return true;
}

/* Operand a of fused node u: is it read at the element u computes? (A
 * broadcast's vector, a slice or line, a change of layout read others.) */
static bool pointwise_operand(const TirInstr *u, unsigned a)
{
    switch (u->op) {
    case TIR_MAP1: case TIR_MAP2: case TIR_MAP3: return true;
    case TIR_BROADCAST: case TIR_TRI: case TIR_MASK: return a == 0;
    case TIR_CONVERT: return u->type->rank != 2 || u->type->layout == u->args[0]->type->layout;
    default: return false;
    }
}

/* 1: node x of store st's DAG reads load ld only at the element it computes;
 * 2: it reads ld at some other element; 0: it does not read ld. seen: by id. */
static uint8_t reads_load(Emit *E, const TirInstr *st, const TirInstr *x, const TirInstr *ld, uint8_t *seen)
{
    if (x == ld) return 1;
    if (tk_is_scalar(x->type->kind) || x->op == TIR_LOAD || !is_elementwise(x) || owner_of(E, x) != st) return 0;
    if (seen[x->id]) return (uint8_t)(seen[x->id] - 1);
    uint8_t r = 0;
    for (unsigned a = 0; a < x->nargs && r < 2; a++) {
        uint8_t k = reads_load(E, st, x->args[a], ld, seen);
        if (k && !pointwise_operand(x, a)) k = 2;
        if (k > r) r = k;
    }
    seen[x->id] = (uint8_t)(r + 1);
    return r;
}

/* The in-place case: x's one loop is a fused store into x's tensor at x's
 * tile, and each element of x is read only where it is written. */
static bool stored_in_place(Emit *E, const TirInstr *x)
{
    const TirInstr *st = owner_of(E, x);
    if (st == x || st->op != TIR_STORE || st->nargs != x->nargs + 1u || st->args[0]->aux != x->args[0]->aux) return false;
    const TkType *t = st->args[1]->type;
    if (t->rank != x->type->rank || t->dims[0] != x->type->dims[0] || (t->rank == 2 && t->dims[1] != x->type->dims[1])) return false;
    for (unsigned k = 1; k < x->nargs; k++)
        if (!same_scalar(x->args[k], st->args[k + 1], 0)) return false;
    uint8_t *seen = calloc(E->count ? E->count : 1, 1);
    bool ok = seen && reads_load(E, st, st->args[1], x, seen) == 1;
    free(seen);
    return ok;
}

static bool load_in_place(Emit *E, const TirInstr *x)
{
    if (E->fuse_load[x->id] == 0) {
        if (!E->fuse_judged) {   /* the first question judges every load's users */
            judge_load_users(E, &E->f->body);
            E->fuse_judged = true;
        }
    }
    if (E->fuse_load[x->id] == 0) {
        const TirInstr *src = x->args[0];
        bool stored = !E->param_stored || src->aux < 0 || (unsigned)src->aux >= E->f->nparams || E->param_stored[src->aux];
        E->fuse_load[x->id] = load_candidate(x) && E->uses[x->id] > 0 && (!stored || stored_in_place(E, x)) ? 1 : 2;
    }
    return E->fuse_load[x->id] == 1;
}

bool emit_fused_into_user(Emit *E, const TirInstr *x)
{
    if (!E->uses || E->val_depth[x->id] >= 0) return false;
    if (x->op == TIR_LOAD) return load_candidate(x) && fusion_ready(E) && load_in_place(E, x);
    if (!is_elementwise(x) || !fusion_ready(E)) return false;
    return owner_of(E, x) != x;
}

bool emit_is_dead_tile_value(Emit *E, const TirInstr *x)
{
    return E->uses && E->uses[x->id] == 0 && (is_elementwise(x) || x->op == TIR_REDUCE);
}

/* A new root loop: values remembered for another loop's elements are gone. */
static void fused_loop_begin(Emit *E)
{
    E->fuse_epoch++;
    E->nfuse_loads = 0;
}

/* Evaluates, ahead of the loop, everything a fused DAG reads: its leaf
 * tiles and vectors (materialised values) and its scalars. Each shared node
 * is visited once per loop (the epoch marks it). */
static void fused_prepare_node(Emit *E, const TirInstr *x)
{
    if (x->op == TIR_LOAD) {   /* read in place: its tensor and coordinates are read by fuse_run */
        E->fuse_loads[E->nfuse_loads++] = x;
        return;
    }
    for (unsigned a = 0; a < x->nargs; a++) {
        const TirInstr *op = x->args[a];
        if (!tk_is_scalar(op->type->kind) && emit_fused_into_user(E, op)) {
            if (E->fuse_epoch_of[op->id] == E->fuse_epoch) continue;
            E->fuse_epoch_of[op->id] = E->fuse_epoch;
            E->fuse_memo[op->id] = NULL;
            fused_prepare_node(E, op);
        } else {
            emit_value(E, op);
        }
    }
}

void fuse_prepare(Emit *E, const TirInstr *x)
{
    fused_loop_begin(E);
    if (x->op == TIR_LOAD) {   /* the root reads a load directly (a copy, a row_sum of a load) */
        E->fuse_epoch_of[x->id] = E->fuse_epoch;
        E->fuse_memo[x->id] = NULL;
    }
    fused_prepare_node(E, x);
}

/* Emits a root's loop twice: for the case that every load it reads in place
 * (and the stored tile, store_inside) lies inside its tensor — the loop reads
 * the tensors, rows their width apart — and for the rest, where each such
 * load is first copied, masked, into its buffer. Interior tiles are almost
 * all tiles of a large tensor. */
void fuse_run(Emit *E, LLVMValueRef store_inside, FusedLoop loop, const void *ctx)
{
    uint32_t n = E->nfuse_loads;
    if (n == 0 && !store_inside) {
        loop(E, ctx, false);
        return;
    }
    Geometry *G = calloc(n ? n : 1, sizeof *G);
    if (!G) {
        E->failed = true;
        snprintf(E->err, sizeof E->err, "out of memory fusing loads");
        return;
    }
    LLVMValueRef ok = store_inside ? store_inside : LLVMConstInt(E->i1, 1, 0);
    for (uint32_t k = 0; k < n; k++) {
        const TirInstr *ld = E->fuse_loads[k];
        const TkType *t = ld->type;
        G[k] = emit_gl_geometry(E, ld->args[0]->type, (const TirInstr *const *)&ld->args[1], t);
        int64_t rows = t->rank == 2 ? t->dims[0] : 1, cols = t->rank == 2 ? t->dims[1] : t->dims[0];
        ok = LLVMBuildAnd(E->b, ok, emit_gl_tile_inside(E, &G[k], rows, cols), "");
    }
    LLVMBasicBlockRef inside = LLVMAppendBasicBlockInContext(E->ctx, E->fn, "fuse.inside");
    LLVMBasicBlockRef edge = LLVMAppendBasicBlockInContext(E->ctx, E->fn, "fuse.edge");
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(E->ctx, E->fn, "fuse.done");
    LLVMBuildCondBr(E->b, ok, inside, edge);
    LLVMPositionBuilderAtEnd(E->b, inside);
    for (uint32_t k = 0; k < n; k++) {
        const TirInstr *ld = E->fuse_loads[k];
        LLVMValueRef first = LLVMBuildAdd(E->b, LLVMBuildMul(E->b, LLVMBuildAdd(E->b, LLVMBuildMul(E->b, G[k].lead_off, G[k].nrows, ""),
                                                                               G[k].row0, ""), G[k].ncols, ""), G[k].col0, "");
        E->fuse_src[ld->id] = elem_ptr(E, ld->type, emit_value(E, ld->args[0]), first);
        E->fuse_stride[ld->id] = G[k].ncols;
    }
    E->fuse_pass++;
    loop(E, ctx, true);
    LLVMBuildBr(E->b, join);
    LLVMPositionBuilderAtEnd(E->b, edge);
    E->fuse_pass++;   /* the inside loop's values do not reach here (g715537: two lanes roots sharing a load) */
    for (uint32_t k = 0; k < n; k++) {
        const TirInstr *ld = E->fuse_loads[k];
        LLVMValueRef buf = emit_temp_buffer(E, ld);
        emit_gl_transfer_masked(E, &G[k], emit_value(E, ld->args[0]), ld->type, buf, true, TIR_PACK_NONE);
        E->fuse_src[ld->id] = buf;
        E->fuse_stride[ld->id] = emit_const_i64(E, ld->type->rank == 2 ? ld->type->dims[1] : 0);
    }
    loop(E, ctx, false);
    LLVMBuildBr(E->b, join);
    LLVMPositionBuilderAtEnd(E->b, join);
    free(G);
}

LLVMValueRef fuse_node(Emit *E, const TirInstr *x, LLVMValueRef i, LLVMValueRef j);

/* Element (i, j) of operand x as f32 (vectors: element j); masks and
 * bools as i1. With E->fuse_lanes = n > 1: elements (i, j .. j + n − 1) as
 * one vector (emit_lanes.c). */
LLVMValueRef fuse_elem(Emit *E, const TirInstr *x, LLVMValueRef i, LLVMValueRef j)
{
    unsigned n = E->fuse_lanes;
    if (x->type->kind == TK_TY_BOOL) return emit_splat(E, emit_value(E, x), n);
    if (tk_is_scalar(x->type->kind)) return emit_splat(E, fuse_scalar_f32(E, x), n);
    if (emit_fused_into_user(E, x)) {
        /* a node with several users is computed once per element (or vector) */
        bool shared = E->uses[x->id] > 1 && E->fuse_epoch_of[x->id] == E->fuse_epoch;
        if (shared && E->fuse_memo[x->id] && E->fuse_memo_i[x->id] == i && E->fuse_memo_j[x->id] == j &&
            E->fuse_memo_lanes[x->id] == n && E->fuse_memo_pass[x->id] == E->fuse_pass)
            return E->fuse_memo[x->id];
        LLVMValueRef v = fuse_node(E, x, i, j);
        if (shared) {
            E->fuse_memo[x->id] = v;
            E->fuse_memo_pass[x->id] = E->fuse_pass;
            E->fuse_memo_i[x->id] = i;
            E->fuse_memo_j[x->id] = j;
            E->fuse_memo_lanes[x->id] = (uint8_t)n;
        }
        return v;
    }
    if (n > 1) return emit_ld_lanes(E, x->type, emit_value(E, x), idx_of(E, x->type, i, j), n);
    return emit_ld(E, x->type, emit_value(E, x), idx_of(E, x->type, i, j));
}

/* Element i of vector operand x, broadcast over the lanes (a row-wise
 * broadcast reads one element of its vector per row). */
static LLVMValueRef fused_elem_splat(Emit *E, const TirInstr *x, LLVMValueRef i)
{
    unsigned n = E->fuse_lanes;
    E->fuse_lanes = 0;
    LLVMValueRef v = fuse_elem(E, x, i, i);
    E->fuse_lanes = n;
    return emit_splat(E, v, n);
}

/* i1 lanes: is j + t < k for lane t of n. k − j is clamped to [0, n] and
 * compared as i32 with the constant lane numbers: one 16-lane compare, where
 * j + t as i64 lanes took four compares and a mask merge per vector. */
static LLVMValueRef lanes_below(Emit *E, LLVMValueRef k, LLVMValueRef j, unsigned n)
{
    LLVMValueRef lim = smin(E, smax(E, LLVMBuildSub(E->b, k, j, ""), emit_const_i64(E, 0)), emit_const_i64(E, n));
    LLVMValueRef steps[64];
    for (unsigned t = 0; t < n && t < 64; t++) steps[t] = LLVMConstInt(E->i32, t, 0);
    return LLVMBuildICmp(E->b, LLVMIntSLT, LLVMConstVector(steps, n), emit_splat(E, LLVMBuildTrunc(E->b, lim, E->i32, ""), n), "");
}

/* Element (i, j) of element-wise node x, as f32, rounded to x's element type
 * as a materialised x would be. */
LLVMValueRef fuse_node(Emit *E, const TirInstr *x, LLVMValueRef i, LLVMValueRef j)
{
    LLVMValueRef v;
    TirFn fn = (TirFn)x->aux;
    unsigned n = E->fuse_lanes;
    if (x->op == TIR_LOAD) {   /* read in place (fuse_run set its source): exact, nothing to round */
        LLVMValueRef idx = x->type->rank == 2 ? LLVMBuildAdd(E->b, LLVMBuildMul(E->b, i, E->fuse_stride[x->id], ""), j, "") : j;
        return n > 1 ? emit_ld_lanes(E, x->type, E->fuse_src[x->id], idx, n) : emit_ld(E, x->type, E->fuse_src[x->id], idx);
    }
    switch (x->op) {
    case TIR_FILL: v = emit_splat(E, fuse_scalar_f32(E, x->args[0]), n); break;
    case TIR_MAP1: v = emit_fn(E, fn, fuse_elem(E, x->args[0], i, j), NULL, false); break;
    case TIR_MAP2: v = emit_fn(E, fn, fuse_elem(E, x->args[0], i, j), fuse_elem(E, x->args[1], i, j), false); break;
    case TIR_MAP3: {
        LLVMValueRef a = fuse_elem(E, x->args[0], i, j), b = fuse_elem(E, x->args[1], i, j), c = fuse_elem(E, x->args[2], i, j);
        v = fn == TIR_FN_SELECT ? LLVMBuildSelect(E->b, a, b, c, "") : emit_fma(E, a, b, c);
        break;
    }
    case TIR_BROADCAST: {
        LLVMValueRef a = fuse_elem(E, x->args[0], i, j);
        LLVMValueRef b = x->imm == 0 ? fused_elem_splat(E, x->args[1], i) : fuse_elem(E, x->args[1], i, j);
        v = emit_fn(E, fn, a, b, false);
        break;
    }
    case TIR_SLICE:
    case TIR_LINE: v = emit_subtile_elem(E, x, i, j, fuse_elem); break;   /* in lanes: rows only (fuse_lanes_fit) */
    case TIR_CONVERT:
        v = fuse_elem(E, x->args[0], i, j);
        if (x->args[0]->type->elem == TK_TY_BOOL && x->type->elem != TK_TY_BOOL)   /* 1.0 where it holds */
            v = LLVMBuildUIToFP(E->b, v, emit_type_like(v, E->f32), "");
        break;
    default: {   /* TRI, MASK: keep the element or replace it */
        if (x->op == TIR_MASK && x->imm != 0 && n > 1) {   /* columns, in lanes: lane t is kept while t < k − j */
            v = LLVMBuildSelect(E->b, lanes_below(E, i64v(E, emit_value(E, x->args[1])), j, n), fuse_elem(E, x->args[0], i, j),
                                emit_splat(E, fuse_scalar_f32(E, x->args[2]), n), "");
            break;
        }
        LLVMValueRef k = emit_splat(E, i64v(E, emit_value(E, x->args[1])), n), keep;
        LLVMValueRef jj = n > 1 ? emit_lane_index(E, j, n) : j, ii = emit_splat(E, i, n);
        if (x->op == TIR_TRI) keep = LLVMBuildICmp(E->b, x->aux == 0 ? LLVMIntSLE : LLVMIntSGE, LLVMBuildSub(E->b, jj, ii, ""), k, "");
        else keep = LLVMBuildICmp(E->b, LLVMIntSLT, x->imm == 0 ? ii : jj, k, "");
        v = LLVMBuildSelect(E->b, keep, fuse_elem(E, x->args[0], i, j), emit_splat(E, fuse_scalar_f32(E, x->args[2]), n), "");
        break;
    }
    }
    if (x->type->elem != TK_TY_F32 && x->type->elem != TK_TY_BOOL)
        v = emit_to_f32(E, emit_fptrunc(E, v, emit_elem_type(E, x->type)), x->type->elem);
    return v;
}

/* Can fused DAG x be computed in lanes? Every operand it reads must be a
 * row-major buffer or row of float or mask elements, so that a vector of
 * consecutive elements of x reads consecutive elements of each: a sub-tile
 * or a row of a row-major tile does, a column does not. memo by id: 0
 * unknown, 1 fits, 2 does not — a DAG whose nodes are shared (x*x chained)
 * is visited once per node, not once per path. No past a depth of 32. */
bool fuse_lanes_fit(Emit *E, const TirInstr *x, int depth, uint8_t *memo)
{
    if (memo[x->id]) return memo[x->id] == 1;
    bool fit = depth <= 32 && !(x->op == TIR_LINE && x->imm != 0) && (x->type->rank != 2 || x->type->layout == TK_ROW);
    switch (x->type->elem) {
    case TK_TY_F32:
    case TK_TY_BF16:
    case TK_TY_F16:
    case TK_TY_BOOL: break;
    default: fit = false;
    }
    for (unsigned a = 0; fit && x->op != TIR_LOAD && a < x->nargs; a++) {
        const TirInstr *op = x->args[a];
        if (tk_is_scalar(op->type->kind)) continue;
        if (emit_fused_into_user(E, op)) fit = fuse_lanes_fit(E, op, depth + 1, memo);
        else fit = (op->type->rank != 2 || op->type->layout == TK_ROW) && op->pack == TIR_PACK_NONE &&
                   (op->type->kind == TK_TY_RT || op->type->kind == TK_TY_RV);
    }
    memo[x->id] = fit ? 1 : 2;
    return fit;
}

/* Lanes per vector for root x of type t, or 0 for an element loop. */
unsigned fuse_root_lanes(Emit *E, const TirInstr *x, const TkType *t)
{
    unsigned n = emit_lanes_for(t);
    if (n <= 1) return 0;
    uint8_t *memo = calloc(E->count ? E->count : 1, 1);
    bool fit = memo && fuse_lanes_fit(E, x, 0, memo);   /* without memory: the element loop */
    free(memo);
    return fit ? n : 0;
}

/* Calls `body` for every vector of n lanes of a rows × cols value, row by
 * row, straight-line (constant i and j), with E->fuse_lanes set. */
void fuse_lanes_run(Emit *E, int64_t rows, int64_t cols, unsigned n, LanesBody body, const void *ctx)
{
    for (int64_t i = 0; i < rows; i++) {
        for (int64_t j = 0; j < cols; j += n) {
            E->fuse_lanes = (unsigned)(cols - j < (int64_t)n ? cols - j : n);
            if (E->fuse_lanes == 1) E->fuse_lanes = 0;   /* a lone last element: a scalar */
            body(E, ctx, emit_const_i64(E, i), emit_const_i64(E, j));
        }
    }
    E->fuse_lanes = 0;
}

/* The root of an element-wise tree: one loop over its elements. */
typedef struct {
    const TirInstr *x;
    LLVMValueRef out;
} ElementwiseLoop;

static void elementwise_lanes(Emit *E, const void *ctx, LLVMValueRef i, LLVMValueRef j)
{
    const ElementwiseLoop *c = ctx;
    LLVMValueRef idx = idx_of(E, c->x->type, i, j), v = fuse_node(E, c->x, i, j);
    if (E->fuse_lanes > 1) emit_st_lanes(E, c->x->type, c->out, idx, v);
    else emit_st(E, c->x->type, c->out, idx, v);
}

static void elementwise_loop(Emit *E, const void *ctx, bool inside)
{
    (void)inside;
    const ElementwiseLoop *c = ctx;
    const TkType *t = c->x->type;
    unsigned n = fuse_root_lanes(E, c->x, t);
    if (n) {
        fuse_lanes_run(E, t->rank == 2 ? t->dims[0] : 1, t->rank == 2 ? t->dims[1] : t->dims[0], n, elementwise_lanes, ctx);
        return;
    }
    Loop2 L;
    loop2_begin(E, &L, t);
    emit_st(E, t, c->out, idx_of(E, t, L.i, L.j), fuse_node(E, c->x, L.i, L.j));
    loop2_end(E, &L, t);
}

LLVMValueRef emit_elementwise(Emit *E, const TirInstr *x)
{
    ElementwiseLoop c = { x, emit_temp_buffer(E, x) };
    fuse_prepare(E, x);
    fuse_run(E, NULL, elementwise_loop, &c);
    return c.out;
}

LLVMValueRef emit_fill(Emit *E, const TirInstr *i)
{
    LLVMValueRef out = emit_temp_buffer(E, i);
    LLVMValueRef v = fuse_scalar_f32(E, i->args[0]);
    EmitLoop L;
    emit_loop_begin(E, &L, emit_const_i64(E, emit_tile_elems(i->type)), "fill");
    emit_st(E, i->type, out, L.idx, v);
    emit_loop_end(E, &L);
    return out;
}

