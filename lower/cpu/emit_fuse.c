/* emit_fuse.c — element-wise work on the CPU: fused loops over tiles and
 * vectors (maps, broadcasts, conversions, masks, fills), the reductions that
 * end them and the stores that write them straight into a tensor.
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

static void end_element_loop(Emit *E, EmitLoop *L, const TkType *t)
{
    if (converts_halves(E, t)) emit_loop_end_lanes(E, L);
    else emit_loop_end(E, L);
}

static void loop2_end(Emit *E, Loop2 *L, const TkType *t)
{
    end_element_loop(E, &L->inner, t);
    emit_loop_end_rows(E, &L->outer);
}

static LLVMValueRef idx_of(Emit *E, const TkType *t, LLVMValueRef i, LLVMValueRef j)
{
    return t->rank == 2 ? emit_tile_index(E, t, i, j) : j;
}

static LLVMValueRef scalar_f32(Emit *E, const TirInstr *s)
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
    E->fuse_load = calloc(n, sizeof *E->fuse_load);
    E->fuse_loads = calloc(n, sizeof *E->fuse_loads);
    E->fuse_src = calloc(n, sizeof *E->fuse_src);
    E->fuse_stride = calloc(n, sizeof *E->fuse_stride);
    E->nfuse_loads = 0;
    if (!E->fuse_owner || !E->fuse_epoch_of || !E->fuse_memo || !E->fuse_memo_i || !E->fuse_memo_j || !E->fuse_memo_lanes || !E->fuse_load ||
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
    if (x->op == TIR_LOAD) {   /* read in place: its tensor and coordinates are read by fused_run */
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

static void fused_prepare(Emit *E, const TirInstr *x)
{
    fused_loop_begin(E);
    if (x->op == TIR_LOAD) {   /* the root reads a load directly (a copy, a row_sum of a load) */
        E->fuse_epoch_of[x->id] = E->fuse_epoch;
        E->fuse_memo[x->id] = NULL;
    }
    fused_prepare_node(E, x);
}

/* One root's loop, emitted by fused_run; `inside`: every tile it touches lies
 * wholly inside its tensor (constant trip counts, no clipping). */
typedef void (*FusedLoop)(Emit *E, const void *ctx, bool inside);

/* Emits a root's loop twice: for the case that every load it reads in place
 * (and the stored tile, store_inside) lies inside its tensor — the loop reads
 * the tensors, rows their width apart — and for the rest, where each such
 * load is first copied, masked, into its buffer. Interior tiles are almost
 * all tiles of a large tensor. */
static void fused_run(Emit *E, LLVMValueRef store_inside, FusedLoop loop, const void *ctx)
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
    loop(E, ctx, true);
    LLVMBuildBr(E->b, join);
    LLVMPositionBuilderAtEnd(E->b, edge);
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

static LLVMValueRef fused_node(Emit *E, const TirInstr *x, LLVMValueRef i, LLVMValueRef j);

/* Element (i, j) of operand x as f32 (vectors: element j); masks and
 * bools as i1. With E->fuse_lanes = n > 1: elements (i, j .. j + n − 1) as
 * one vector (emit_lanes.c). */
static LLVMValueRef fused_elem(Emit *E, const TirInstr *x, LLVMValueRef i, LLVMValueRef j)
{
    unsigned n = E->fuse_lanes;
    if (x->type->kind == TK_TY_BOOL) return emit_splat(E, emit_value(E, x), n);
    if (tk_is_scalar(x->type->kind)) return emit_splat(E, scalar_f32(E, x), n);
    if (emit_fused_into_user(E, x)) {
        /* a node with several users is computed once per element (or vector) */
        bool shared = E->uses[x->id] > 1 && E->fuse_epoch_of[x->id] == E->fuse_epoch;
        if (shared && E->fuse_memo[x->id] && E->fuse_memo_i[x->id] == i && E->fuse_memo_j[x->id] == j &&
            E->fuse_memo_lanes[x->id] == n)
            return E->fuse_memo[x->id];
        LLVMValueRef v = fused_node(E, x, i, j);
        if (shared) {
            E->fuse_memo[x->id] = v;
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
    LLVMValueRef v = fused_elem(E, x, i, i);
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
static LLVMValueRef fused_node(Emit *E, const TirInstr *x, LLVMValueRef i, LLVMValueRef j)
{
    LLVMValueRef v;
    TirFn fn = (TirFn)x->aux;
    unsigned n = E->fuse_lanes;
    if (x->op == TIR_LOAD) {   /* read in place (fused_run set its source): exact, nothing to round */
        LLVMValueRef idx = x->type->rank == 2 ? LLVMBuildAdd(E->b, LLVMBuildMul(E->b, i, E->fuse_stride[x->id], ""), j, "") : j;
        return n > 1 ? emit_ld_lanes(E, x->type, E->fuse_src[x->id], idx, n) : emit_ld(E, x->type, E->fuse_src[x->id], idx);
    }
    switch (x->op) {
    case TIR_FILL: v = emit_splat(E, scalar_f32(E, x->args[0]), n); break;
    case TIR_MAP1: v = emit_fn(E, fn, fused_elem(E, x->args[0], i, j), NULL, false); break;
    case TIR_MAP2: v = emit_fn(E, fn, fused_elem(E, x->args[0], i, j), fused_elem(E, x->args[1], i, j), false); break;
    case TIR_MAP3: {
        LLVMValueRef a = fused_elem(E, x->args[0], i, j), b = fused_elem(E, x->args[1], i, j), c = fused_elem(E, x->args[2], i, j);
        v = fn == TIR_FN_SELECT ? LLVMBuildSelect(E->b, a, b, c, "") : emit_fma(E, a, b, c);
        break;
    }
    case TIR_BROADCAST: {
        LLVMValueRef a = fused_elem(E, x->args[0], i, j);
        LLVMValueRef b = x->imm == 0 ? fused_elem_splat(E, x->args[1], i) : fused_elem(E, x->args[1], i, j);
        v = emit_fn(E, fn, a, b, false);
        break;
    }
    case TIR_SLICE:
    case TIR_LINE: v = emit_subtile_elem(E, x, i, j, fused_elem); break;   /* in lanes: rows only (lanes_fit_node) */
    case TIR_CONVERT:
        v = fused_elem(E, x->args[0], i, j);
        if (x->args[0]->type->elem == TK_TY_BOOL && x->type->elem != TK_TY_BOOL)   /* 1.0 where it holds */
            v = LLVMBuildUIToFP(E->b, v, emit_type_like(v, E->f32), "");
        break;
    default: {   /* TRI, MASK: keep the element or replace it */
        if (x->op == TIR_MASK && x->imm != 0 && n > 1) {   /* columns, in lanes: lane t is kept while t < k − j */
            v = LLVMBuildSelect(E->b, lanes_below(E, i64v(E, emit_value(E, x->args[1])), j, n), fused_elem(E, x->args[0], i, j),
                                emit_splat(E, scalar_f32(E, x->args[2]), n), "");
            break;
        }
        LLVMValueRef k = emit_splat(E, i64v(E, emit_value(E, x->args[1])), n), keep;
        LLVMValueRef jj = n > 1 ? emit_lane_index(E, j, n) : j, ii = emit_splat(E, i, n);
        if (x->op == TIR_TRI) keep = LLVMBuildICmp(E->b, x->aux == 0 ? LLVMIntSLE : LLVMIntSGE, LLVMBuildSub(E->b, jj, ii, ""), k, "");
        else keep = LLVMBuildICmp(E->b, LLVMIntSLT, x->imm == 0 ? ii : jj, k, "");
        v = LLVMBuildSelect(E->b, keep, fused_elem(E, x->args[0], i, j), emit_splat(E, scalar_f32(E, x->args[2]), n), "");
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
static bool lanes_fit_node(Emit *E, const TirInstr *x, int depth, uint8_t *memo)
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
        if (emit_fused_into_user(E, op)) fit = lanes_fit_node(E, op, depth + 1, memo);
        else fit = (op->type->rank != 2 || op->type->layout == TK_ROW) && op->pack == TIR_PACK_NONE &&
                   (op->type->kind == TK_TY_RT || op->type->kind == TK_TY_RV);
    }
    memo[x->id] = fit ? 1 : 2;
    return fit;
}

/* Lanes per vector for root x of type t, or 0 for an element loop. */
static unsigned root_lanes(Emit *E, const TirInstr *x, const TkType *t)
{
    unsigned n = emit_lanes_for(t);
    if (n <= 1) return 0;
    uint8_t *memo = calloc(E->count ? E->count : 1, 1);
    bool fit = memo && lanes_fit_node(E, x, 0, memo);   /* without memory: the element loop */
    free(memo);
    return fit ? n : 0;
}

/* Calls `body` for every vector of n lanes of a rows × cols value, row by
 * row, straight-line (constant i and j), with E->fuse_lanes set. */
typedef void (*LanesBody)(Emit *E, const void *ctx, LLVMValueRef i, LLVMValueRef j);

static void lanes_run(Emit *E, int64_t rows, int64_t cols, unsigned n, LanesBody body, const void *ctx)
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
    LLVMValueRef idx = idx_of(E, c->x->type, i, j), v = fused_node(E, c->x, i, j);
    if (E->fuse_lanes > 1) emit_st_lanes(E, c->x->type, c->out, idx, v);
    else emit_st(E, c->x->type, c->out, idx, v);
}

static void elementwise_loop(Emit *E, const void *ctx, bool inside)
{
    (void)inside;
    const ElementwiseLoop *c = ctx;
    const TkType *t = c->x->type;
    unsigned n = root_lanes(E, c->x, t);
    if (n) {
        lanes_run(E, t->rank == 2 ? t->dims[0] : 1, t->rank == 2 ? t->dims[1] : t->dims[0], n, elementwise_lanes, ctx);
        return;
    }
    Loop2 L;
    loop2_begin(E, &L, t);
    emit_st(E, t, c->out, idx_of(E, t, L.i, L.j), fused_node(E, c->x, L.i, L.j));
    loop2_end(E, &L, t);
}

LLVMValueRef emit_elementwise(Emit *E, const TirInstr *x)
{
    ElementwiseLoop c = { x, emit_temp_buffer(E, x) };
    fused_prepare(E, x);
    fused_run(E, NULL, elementwise_loop, &c);
    return c.out;
}

LLVMValueRef emit_fill(Emit *E, const TirInstr *i)
{
    LLVMValueRef out = emit_temp_buffer(E, i);
    LLVMValueRef v = scalar_f32(E, i->args[0]);
    EmitLoop L;
    emit_loop_begin(E, &L, emit_const_i64(E, emit_tile_elems(i->type)), "fill");
    emit_st(E, i->type, out, L.idx, v);
    emit_loop_end(E, &L);
    return out;
}

/* One step of a reduction, marked reassociable: the language leaves the
 * order of a reduction unspecified, and without the flag LLVM keeps one
 * scalar chain (a 64-wide row sum then costs 64 dependent adds). */
static LLVMValueRef reduce_step(Emit *E, TirFn fn, LLVMValueRef acc, LLVMValueRef x)
{
    LLVMValueRef v = emit_fn(E, fn, acc, x, false);
    if (LLVMIsAInstruction(v)) LLVMSetFastMathFlags(v, LLVMFastMathAllowReassoc | LLVMFastMathNoSignedZeros);
    return v;
}

typedef struct {
    const TirInstr *red, *in;   /* the reduction and its input */
    LLVMValueRef src, out;      /* the input's tile (NULL when fused) and the result */
} ReduceLoop;

static void reduce_loop(Emit *E, const void *ctx, bool inside)
{
    (void)inside;
    const ReduceLoop *c = ctx;
    const TirInstr *i = c->red, *in = c->in;
    const TkType *t = in->type, *vt = i->type;
    bool rows = i->imm == 0;
    int64_t n = rows ? t->dims[0] : t->dims[1], m = rows ? t->dims[1] : t->dims[0];
    double init = i->aux == TIR_FN_MAX ? -INFINITY : i->aux == TIR_FN_MIN ? INFINITY : 0.0;
    if (!rows) {
        /* column reductions walk the tile by rows with one running value per
         * column in an f32 buffer: the inner loop is then over contiguous
         * columns (row layout) and vectorises without reassociation */
        LLVMValueRef accs = emit_alloca(E, E->f32, n, "colacc");
        EmitLoop L0, Lr, Lc, L1;
        emit_loop_begin(E, &L0, emit_const_i64(E, n), "red.init");
        LLVMBuildStore(E->b, LLVMConstReal(E->f32, init), LLVMBuildGEP2(E->b, E->f32, accs, &L0.idx, 1, ""));
        emit_loop_end(E, &L0);
        emit_loop_begin(E, &Lr, emit_const_i64(E, m), "red.row");
        emit_loop_begin(E, &Lc, emit_const_i64(E, n), "red.col");
        LLVMValueRef p = LLVMBuildGEP2(E->b, E->f32, accs, &Lc.idx, 1, "");
        LLVMValueRef x = !c->src ? fused_node(E, in, Lr.idx, Lc.idx) : emit_ld(E, t, c->src, emit_tile_index(E, t, Lr.idx, Lc.idx));
        LLVMBuildStore(E->b, emit_fn(E, (TirFn)i->aux, LLVMBuildLoad2(E->b, E->f32, p, ""), x, false), p);
        emit_loop_end(E, &Lc);
        emit_loop_end(E, &Lr);
        emit_loop_begin(E, &L1, emit_const_i64(E, n), "red.out");
        emit_st(E, vt, c->out, L1.idx, LLVMBuildLoad2(E->b, E->f32, LLVMBuildGEP2(E->b, E->f32, accs, &L1.idx, 1, ""), ""));
        emit_loop_end(E, &L1);
        return;
    }
    EmitLoop Lo, Li;
    emit_loop_begin(E, &Lo, emit_const_i64(E, n), "red");
    LLVMValueRef acc_slot = emit_alloca(E, E->f32, 1, "acc");
    LLVMBuildStore(E->b, LLVMConstReal(E->f32, init), acc_slot);
    emit_loop_begin(E, &Li, emit_const_i64(E, m), "red.in");
    LLVMValueRef x = !c->src ? fused_node(E, in, Lo.idx, Li.idx) : emit_ld(E, t, c->src, emit_tile_index(E, t, Lo.idx, Li.idx));
    LLVMValueRef acc = LLVMBuildLoad2(E->b, E->f32, acc_slot, "");
    LLVMBuildStore(E->b, reduce_step(E, (TirFn)i->aux, acc, x), acc_slot);
    emit_loop_end(E, &Li);
    emit_st(E, vt, c->out, Lo.idx, LLVMBuildLoad2(E->b, E->f32, acc_slot, ""));
    emit_loop_end(E, &Lo);
}

/* Lanes 0 .. w−1 of vector v folded by fn into one scalar: halves combined
 * until one lane is left, an odd lane folded in at the end. */
static LLVMValueRef fold_lanes(Emit *E, TirFn fn, LLVMValueRef v, unsigned w)
{
    LLVMValueRef odd = NULL;
    while (w > 1) {
        unsigned h = w / 2;
        if (w % 2) {
            LLVMValueRef last = LLVMBuildExtractElement(E->b, v, LLVMConstInt(E->i32, w - 1, 0), "");
            odd = odd ? reduce_step(E, fn, odd, last) : last;
        }
        if (h == 1) {
            v = reduce_step(E, fn, LLVMBuildExtractElement(E->b, v, LLVMConstInt(E->i32, 0, 0), ""),
                            LLVMBuildExtractElement(E->b, v, LLVMConstInt(E->i32, 1, 0), ""));
            w = 0;
            break;
        }
        LLVMValueRef lo[32], hi[32];
        for (unsigned k = 0; k < h; k++) {
            lo[k] = LLVMConstInt(E->i32, k, 0);
            hi[k] = LLVMConstInt(E->i32, h + k, 0);
        }
        LLVMValueRef undef = LLVMGetUndef(LLVMTypeOf(v));
        v = reduce_step(E, fn, LLVMBuildShuffleVector(E->b, v, undef, LLVMConstVector(lo, h), ""),
                        LLVMBuildShuffleVector(E->b, v, undef, LLVMConstVector(hi, h), ""));
        w = h;
    }
    if (w == 1) v = LLVMBuildExtractElement(E->b, v, LLVMConstInt(E->i32, 0, 0), "");
    return odd ? reduce_step(E, fn, v, odd) : v;
}

/* row_sum/row_max/row_min of a vector (imm 2): its elements folded into one
 * f32, stored at c->out. In lanes: up to four vector accumulators (separate
 * dependency chains), joined, then folded across the lanes once. */
static void reduce_all_loop(Emit *E, const void *ctx, bool inside)
{
    (void)inside;
    const ReduceLoop *c = ctx;
    const TirInstr *i = c->red, *in = c->in;
    TirFn fn = (TirFn)i->aux;
    int64_t m = in->type->dims[0];
    unsigned n = c->src ? emit_lanes_for(in->type) : root_lanes(E, in, in->type);
    if (n > 32 || (c->src && in->pack != TIR_PACK_NONE)) n = 0;
    if (n > 1) {
        LLVMValueRef acc[4] = { NULL }, tail = NULL;
        int64_t full = m / n * n;
        for (int64_t j = 0, k = 0; j < full; j += n, k++) {
            E->fuse_lanes = n;
            LLVMValueRef v = fused_elem(E, in, emit_const_i64(E, 0), emit_const_i64(E, j));
            acc[k % 4] = acc[k % 4] ? reduce_step(E, fn, acc[k % 4], v) : v;
        }
        for (int64_t j = full; j < m; j++) {   /* a ragged end: element by element */
            E->fuse_lanes = 0;
            LLVMValueRef v = fused_elem(E, in, emit_const_i64(E, 0), emit_const_i64(E, j));
            tail = tail ? reduce_step(E, fn, tail, v) : v;
        }
        E->fuse_lanes = 0;
        LLVMValueRef r = NULL;
        if (acc[0]) {
            LLVMValueRef v = acc[0];
            if (acc[1]) v = reduce_step(E, fn, v, acc[1]);
            if (acc[2]) v = reduce_step(E, fn, v, acc[3] ? reduce_step(E, fn, acc[2], acc[3]) : acc[2]);
            r = fold_lanes(E, fn, v, n);
        }
        r = r && tail ? reduce_step(E, fn, r, tail) : r ? r : tail;
        LLVMBuildStore(E->b, r, c->out);
        return;
    }
    double init = fn == TIR_FN_MAX ? -INFINITY : fn == TIR_FN_MIN ? INFINITY : 0.0;
    LLVMBuildStore(E->b, LLVMConstReal(E->f32, init), c->out);
    EmitLoop L;
    emit_loop_begin(E, &L, emit_const_i64(E, m), "red.all");
    LLVMValueRef x = fused_elem(E, in, emit_const_i64(E, 0), L.idx);
    LLVMBuildStore(E->b, reduce_step(E, fn, LLVMBuildLoad2(E->b, E->f32, c->out, ""), x), c->out);
    emit_loop_end(E, &L);
}

LLVMValueRef emit_reduce(Emit *E, const TirInstr *i)
{
    const TirInstr *in = i->args[0];
    bool fused = emit_fused_into_user(E, in);
    if (i->imm == 2) {   /* a vector → one value of the vector's element type, rounded once */
        if (fused) fused_prepare(E, in);
        ReduceLoop c = { i, in, fused ? NULL : emit_value(E, in), emit_alloca(E, E->f32, 1, "red.all") };
        if (fused) fused_run(E, NULL, reduce_all_loop, &c);
        else reduce_all_loop(E, &c, false);
        LLVMValueRef r = LLVMBuildLoad2(E->b, E->f32, c.out, "");
        return i->type->kind == TK_TY_F32 ? r : emit_convert_scalar(E, r, TK_TY_F32, i->type->kind);
    }
    if (fused) fused_prepare(E, in);
    ReduceLoop c = { i, in, fused ? NULL : emit_value(E, in), emit_temp_buffer(E, i) };
    if (fused) fused_run(E, NULL, reduce_loop, &c);
    else reduce_loop(E, &c, false);
    return c.out;
}

/* store(T, x, ...) of an element-wise tree x: one loop over the part of the
 * tile inside the tensor computes each element and writes it there. */
typedef struct {
    const TirInstr *x;
    LLVMValueRef tensor;
    const TkType *g;     /* the tensor's type */
    bool stream;         /* emit_stream_candidate, and x computes in lanes */
    Geometry G;
} StoreLoop;

/* Element (i, j) of the tile in the tensor of a store whose tile lies inside it. */
static LLVMValueRef store_inside_index(Emit *E, const StoreLoop *c, LLVMValueRef i, LLVMValueRef j)
{
    LLVMValueRef r = LLVMBuildAdd(E->b, c->G.row0, i, "");
    LLVMValueRef row_off = LLVMBuildMul(E->b, LLVMBuildAdd(E->b, LLVMBuildMul(E->b, c->G.lead_off, c->G.nrows, ""), r, ""), c->G.ncols, "");
    return LLVMBuildAdd(E->b, row_off, LLVMBuildAdd(E->b, c->G.col0, j, ""), "");
}

static void store_lanes(Emit *E, const void *ctx, LLVMValueRef i, LLVMValueRef j)
{
    const StoreLoop *c = ctx;
    LLVMValueRef v = fused_node(E, c->x, i, j), idx = store_inside_index(E, c, i, j);
    if (E->fuse_lanes > 1) emit_st_lanes(E, c->x->type, c->tensor, idx, v);
    else emit_st(E, c->x->type, c->tensor, idx, v);
}

static void store_elements(Emit *E, const StoreLoop *c, bool inside, int64_t rows, int64_t cols);

/* The tile wholly inside a large tensor, streamed (emit_stream.c): row by
 * row, each row's vectors of 16 lanes straight-line. */
static void store_stream_rows(Emit *E, const StoreLoop *c, int64_t rows, int64_t cols)
{
    EmitLoop Li;
    emit_loop_begin(E, &Li, emit_const_i64(E, rows), "nt.row");
    bool halves = c->x->type->elem != TK_TY_F32;   /* 16-bit elements: 32 lanes (64 bytes) per store */
    for (int64_t j = 0; j < cols; j += halves ? 32 : 16) {
        E->fuse_lanes = 16;
        LLVMValueRef jv = emit_const_i64(E, j);
        LLVMValueRef v = fused_node(E, c->x, Li.idx, jv);
        LLVMValueRef v2 = halves ? fused_node(E, c->x, Li.idx, emit_const_i64(E, j + 16)) : NULL;
        emit_st_stream(E, c->x->type, c->tensor, store_inside_index(E, c, Li.idx, jv), v, v2);
    }
    E->fuse_lanes = 0;
    emit_loop_end_rows(E, &Li);
}

static void store_loop(Emit *E, const void *ctx, bool inside)
{
    const StoreLoop *c = ctx;
    const TkType *t = c->x->type;
    int64_t rows = t->rank == 2 ? t->dims[0] : 1, cols = t->rank == 2 ? t->dims[1] : t->dims[0];
    unsigned n = inside ? root_lanes(E, c->x, t) : 0;
    LLVMBasicBlockRef join = NULL;
    if (inside && c->stream) {   /* a large write-only output: streamed, else the loops below */
        LLVMValueRef first = elem_ptr(E, t, c->tensor, store_inside_index(E, c, emit_const_i64(E, 0), emit_const_i64(E, 0)));
        LLVMBasicBlockRef nt = LLVMAppendBasicBlockInContext(E->ctx, E->fn, "st.stream");
        LLVMBasicBlockRef plain = LLVMAppendBasicBlockInContext(E->ctx, E->fn, "st.cached");
        join = LLVMAppendBasicBlockInContext(E->ctx, E->fn, "st.done");
        LLVMBuildCondBr(E->b, emit_stream_ok(E, c->g, first, c->G.ncols), nt, plain);
        LLVMPositionBuilderAtEnd(E->b, nt);
        store_stream_rows(E, c, rows, cols);
        LLVMBuildBr(E->b, join);
        LLVMPositionBuilderAtEnd(E->b, plain);
    }
    if (n) {   /* a small tile wholly inside: straight-line vectors */
        lanes_run(E, rows, cols, n, store_lanes, ctx);
    } else {
        store_elements(E, c, inside, rows, cols);
    }
    if (join) {
        LLVMBuildBr(E->b, join);
        LLVMPositionBuilderAtEnd(E->b, join);
    }
}

/* The element loops of a store: the whole rows of an interior tile, or the
 * part of each row that exists. */
static void store_elements(Emit *E, const StoreLoop *c, bool inside, int64_t rows, int64_t cols)
{
    const TkType *t = c->x->type;
    EmitLoop Li, Lj;
    emit_loop_begin(E, &Li, emit_const_i64(E, rows), "st.row");
    LLVMValueRef row_off, jlo, jhi;
    if (inside) {   /* the whole row exists: constant bounds, so the loop vectorises without a remainder */
        LLVMValueRef r = LLVMBuildAdd(E->b, c->G.row0, Li.idx, "");
        row_off = LLVMBuildMul(E->b, LLVMBuildAdd(E->b, LLVMBuildMul(E->b, c->G.lead_off, c->G.nrows, ""), r, ""), c->G.ncols, "");
        jlo = emit_const_i64(E, 0);
        jhi = emit_const_i64(E, cols);
    } else {
        emit_gl_row_range(E, &c->G, Li.idx, cols, &row_off, &jlo, &jhi);
    }
    emit_loop_begin(E, &Lj, LLVMBuildSub(E->b, jhi, jlo, ""), "st.col");
    LLVMValueRef j = LLVMBuildAdd(E->b, Lj.idx, jlo, "");
    LLVMValueRef v = fused_node(E, c->x, Li.idx, j);
    emit_st(E, t, c->tensor, LLVMBuildAdd(E->b, row_off, LLVMBuildAdd(E->b, c->G.col0, j, ""), ""), v);
    end_element_loop(E, &Lj, t);
    emit_loop_end(E, &Li);
}

/* A store of a tile already in buffer `buf` (a transpose, anything not
 * fused) into a large write-only tensor: where the tile lies inside the
 * tensor and is aligned (emit_stream.c), its rows are streamed from the
 * buffer. Returns the block the caller's ordinary copy must branch to when
 * done, with the builder placed where that copy goes; NULL (nothing
 * emitted) when the store cannot stream. A 64×32 transpose wrote its 32
 * rows of 256 bytes, 32 KiB apart, through the cache: 6.1 ms for 8192×768
 * on one Zen 4 thread, 32% of the copy bandwidth. */
LLVMBasicBlockRef emit_store_stream_begin(Emit *E, const TirInstr *st, LLVMValueRef buf)
{
    const TirInstr *dst = st->args[0];
    const TkType *t = st->args[1]->type;
    if (dst->op != TIR_PARAM || !emit_stream_candidate(E, dst, t) || t->kind != TK_TY_RT) return NULL;
    int64_t rows = t->dims[0], cols = t->dims[1];
    StoreLoop c = { st->args[1], emit_value(E, dst), dst->type, true, emit_gl_geometry(E, dst->type, (const TirInstr *const *)&st->args[2], t) };
    LLVMValueRef first = elem_ptr(E, t, c.tensor, store_inside_index(E, &c, emit_const_i64(E, 0), emit_const_i64(E, 0)));
    LLVMValueRef ok = LLVMBuildAnd(E->b, emit_gl_tile_inside(E, &c.G, rows, cols), emit_stream_ok(E, c.g, first, c.G.ncols), "");
    LLVMBasicBlockRef nt = LLVMAppendBasicBlockInContext(E->ctx, E->fn, "st.stream");
    LLVMBasicBlockRef plain = LLVMAppendBasicBlockInContext(E->ctx, E->fn, "st.cached");
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(E->ctx, E->fn, "st.done");
    LLVMBuildCondBr(E->b, ok, nt, plain);
    LLVMPositionBuilderAtEnd(E->b, nt);
    EmitLoop Li;
    emit_loop_begin(E, &Li, emit_const_i64(E, rows), "nt.row");
    bool halves = t->elem != TK_TY_F32;   /* 16-bit elements: 32 lanes (64 bytes) per store */
    for (int64_t j = 0; j < cols; j += halves ? 32 : 16) {
        LLVMValueRef jv = emit_const_i64(E, j);
        LLVMValueRef v = emit_ld_lanes(E, t, buf, emit_tile_index(E, t, Li.idx, jv), 16);
        LLVMValueRef v2 = halves ? emit_ld_lanes(E, t, buf, emit_tile_index(E, t, Li.idx, emit_const_i64(E, j + 16)), 16) : NULL;
        emit_st_stream(E, t, c.tensor, store_inside_index(E, &c, Li.idx, jv), v, v2);
    }
    emit_loop_end_rows(E, &Li);
    LLVMBuildBr(E->b, join);
    LLVMPositionBuilderAtEnd(E->b, plain);
    return join;
}

void emit_fused_store(Emit *E, const TirInstr *st)
{
    const TirInstr *dst = st->args[0], *x = st->args[1];
    const TkType *t = x->type;
    fused_prepare(E, x);
    StoreLoop c = { x, emit_value(E, dst), dst->type, false, emit_gl_geometry(E, dst->type, (const TirInstr *const *)&st->args[2], t) };
    if (emit_stream_candidate(E, dst, t)) {
        uint8_t *memo = calloc(E->count ? E->count : 1, 1);
        c.stream = memo && lanes_fit_node(E, x, 0, memo);
        free(memo);
    }
    int64_t rows = t->rank == 2 ? t->dims[0] : 1, cols = t->rank == 2 ? t->dims[1] : t->dims[0];
    fused_run(E, emit_gl_tile_inside(E, &c.G, rows, cols), store_loop, &c);
}
