/* emit_outview.c — accumulators that live in their output tensor ("output
 * views", CPU).
 *
 * The shape of every plain gemm,
 *     rt<f32, BM, BN> acc = zeros();
 *     for (k in ...) mma_ab(acc, a, b);
 *     store(C, acc, block.y, block.x);
 * has every register block of every mma load and store its part of a stack
 * tile, then copies the tile to C. Its zero fill is already left to the mmas
 * (emit_lazyzero.c: a run-time "still zero" flag, or the first mma starting
 * from zero registers). For a variable used exactly this way (plan_one lists
 * the conditions), when the tile lies wholly inside C and C overlaps no other
 * tensor argument, the mmas accumulate in C itself, with C's row stride, and
 * the store writes nothing; the copy was ~9% of a 64³ product. A tile crossing
 * C's edge keeps the stack buffer and the masked store. Lazy zero's fill of a
 * variable no mma reached (an empty K loop) goes through the view too
 * (emit_outview_zero).
 * In place is limited to tiles of OUTVIEW_INPLACE_MAX bytes: a 256×256 tile
 * in C has its rows 4·N bytes apart, and with N a power of two a column strip
 * of it falls into a few L2 sets, where the contiguous stack tile has none.
 *
 * Why the coordinates must be distinct block ids: with the tile in place,
 * partial sums are visible in C during the K loop. Distinct block ids on
 * every axis the grid uses give every block its own tile, so no other block
 * reads or writes it before the kernel ends (C is never loaded). */
#include <stdlib.h>

#include "cpu_mma.h"
#include "emit.h"

#define OUTVIEW_INPLACE_MAX (16 << 10)
/* Larger tiles of at least this many rows have their last K step write C
 * (see the top); with fewer rows a product streams B from memory, and C's
 * write misses during the mma cost more than the copy after it (32-row f32
 * tiles at 32×4096×4096: 1.5% slower). */
#define WRITE_THROUGH_MIN_ROWS 128

struct EmitOutview {
    const TirInstr *store;   /* the one STORE of the variable, into C */
    LLVMValueRef ptr;        /* alloca ptr: where the accumulator lives (C or the stack tile) */
    LLVMValueRef stride;     /* alloca i64: its row stride in elements */
    /* A tile too large to live in C: the loop whose body holds the only mma
     * into it (NULL if none such), and, set at the declaration, where the
     * last iteration's mma writes its result (C's tile, or the stack tile
     * where that does not lie inside C) and that place's row stride. */
    const TirInstr *loop;
    LLVMValueRef last_out, last_stride;
};

/* What plan_one finds about one variable while walking the body. */
typedef struct {
    const TirInstr *var, *set, *get, *mma;
    unsigned sets, gets, mmas, bad;
} Refs;

static void scan_refs(const TirRegion *r, Refs *R)
{
    for (const TirInstr *i = r->first; i; i = i->next) {
        for (unsigned a = 0; a < i->nargs; a++) {
            if (i->args[a] != R->var) continue;
            if (i->op == TIR_SET && a == 0) {
                R->sets++;
                R->set = i;
            } else if (i->op == TIR_MMA && a == 0) {
                if (!emit_mma_has_row_kernel(i)) R->bad++;
                R->mmas++;
                R->mma = i;
            } else if (i->op == TIR_GET) {
                R->gets++;
                R->get = i;
            } else {
                R->bad++;
            }
        }
        scan_refs(&i->body[0], R);
        scan_refs(&i->body[1], R);
    }
}

/* Any instruction in r (nested too) other than `except` that refers to
 * parameter `p`, or any mma into `var`? */
static bool touches(const TirRegion *r, unsigned p, const TirInstr *except, const TirInstr *var)
{
    for (const TirInstr *i = r->first; i; i = i->next) {
        if (i != except)
            for (unsigned a = 0; a < i->nargs; a++) {
                const TirInstr *x = i->args[a];
                if (x && x->op == TIR_PARAM && x->aux == (int)p) return true;
                if (var && x == var) return true;
            }
        if (touches(&i->body[0], p, except, var) || touches(&i->body[1], p, except, var)) return true;
    }
    return false;
}

/* The block axis of a coordinate that is a block id (or a cast of one), else -1. */
static int block_axis(const TirInstr *c)
{
    while (c->op == TIR_CAST) c = c->args[0];
    return c->op == TIR_BLOCK_ID ? c->aux % 3 : -1;
}

/* Is grid axis k certainly of extent 1 (a constant 1)? */
static bool unit_axis(const TirFunc *f, unsigned k)
{
    if (k >= f->grid_rank) return true;
    const TirInstr *g = f->grid[k];
    while (g->op == TIR_CAST) g = g->args[0];
    return g->op == TIR_CONST_INT && g->imm == 1;
}

/* Is the store's tile one of its own for every block: each coordinate a
 * block id of a different axis, and every axis the grid may use among them? */
static bool one_tile_per_block(const TirFunc *f, const TirInstr *store)
{
    bool used[3] = { false, false, false };
    for (unsigned a = 2; a < store->nargs; a++) {
        int ax = block_axis(store->args[a]);
        if (ax < 0 || used[ax]) return false;
        used[ax] = true;
    }
    for (unsigned k = 0; k < 3; k++)
        if (!used[k] && !unit_axis(f, k)) return false;
    return true;
}

/* Can top-level variable v take part? A warps(1) kernel; an f32 row tile,
 * zero-filled right at its declaration by a fill lazy zero takes over, and
 * assigned nothing else; otherwise
 * only the accumulator of row micro-kernel mmas, then read once, by a store
 * at the top level into a plain f32 tensor the kernel never loads nor stores
 * elsewhere, at coordinates one_tile_per_block; no mma into it after that. */
/* The FOR loop, beside variable v, whose body holds mma at its top level (not
 * under an if): NULL if there is none. */
static const TirInstr *loop_of(const TirInstr *v, const TirInstr *mma)
{
    if (!mma) return NULL;
    for (const TirInstr *f = v->next; f; f = f->next)
        if (f->op == TIR_FOR && mma->parent == &f->body[0]) return f;
    return NULL;
}

static const TirInstr *plan_one(Emit *E, const TirInstr *v, const TirInstr **loop)
{
    const TkType *t = v->type;
    if (E->f->warps != 1 || t->kind != TK_TY_RT || t->elem != TK_TY_F32 || t->layout != TK_ROW || t->rank != 2) return NULL;
    const TirInstr *first = v->next;
    while (first && !tir_is_statement(first->op)) first = first->next;
    if (!first || first->op != TIR_SET || first->args[0] != v || !emit_is_zero_fill(first->args[1]) ||
        !emit_fill_left_to_mma(E, first))
        return NULL;
    Refs R = { .var = v };
    scan_refs(&E->f->body, &R);
    if (R.bad || R.sets != 1 || R.set != first || R.gets != 1 || E->uses[R.get->id] != 1) return NULL;
    const TirInstr *st = E->user[R.get->id];
    if (!st || st->op != TIR_STORE || st->args[1] != R.get || st->parent != v->parent) return NULL;
    const TirInstr *C = st->args[0];
    const TkType *g = C->type;
    if (C->op != TIR_PARAM || g->kind != TK_TY_GL || g->elem != TK_TY_F32 || g->layout == TK_PACKED || g->rank < 2 ||
        st->nargs != 2u + g->rank)
        return NULL;
    if (!one_tile_per_block(E->f, st) || touches(&E->f->body, (unsigned)C->aux, st, NULL)) return NULL;
    /* nothing after the store may still accumulate into the variable */
    TirRegion rest = { st->next, v->parent->last };
    if (st->next && touches(&rest, (unsigned)-1, NULL, v)) return NULL;
    *loop = R.mmas == 1 ? loop_of(v, R.mma) : NULL;
    return st;
}

static void plan_region(Emit *E, const TirRegion *r)
{
    for (const TirInstr *i = r->first; i; i = i->next) {
        if (i->op != TIR_VAR) continue;
        const TirInstr *loop = NULL;
        const TirInstr *st = plan_one(E, i, &loop);
        if (!st) continue;
        struct EmitOutview *O = calloc(1, sizeof *O);
        if (!O) {
            E->failed = true;
            return;
        }
        O->store = st;
        if (emit_tile_elems(i->type) * 4 > OUTVIEW_INPLACE_MAX && i->type->dims[0] >= WRITE_THROUGH_MIN_ROWS) O->loop = loop;
        E->outviews[i->id] = O;
    }
}

int emit_plan_outviews(Emit *E, const TirRegion *body)
{
    E->outviews = calloc(E->count ? E->count : 1, sizeof *E->outviews);
    if (!E->outviews) return -1;
    plan_region(E, body);   /* top-level variables only */
    return E->failed ? -1 : 0;
}

void emit_free_outviews(Emit *E)
{
    if (E->outviews)
        for (uint32_t k = 0; k < E->count; k++) free(E->outviews[k]);
    free(E->outviews);
    E->outviews = NULL;
}

bool emit_is_outview(const Emit *E, const TirInstr *slot)
{
    return E->outviews && slot->op == TIR_VAR && slot->id < E->count && E->outviews[slot->id];
}

/* Bytes of tensor parameter type g: the product of its dims times the element size. */
static LLVMValueRef tensor_bytes(Emit *E, const TkType *g)
{
    int64_t esize = g->elem == TK_TY_F32 || g->elem == TK_TY_I32 ? 4 : g->elem == TK_TY_I64 ? 8 : g->elem == TK_TY_BOOL ? 1 : 2;
    LLVMValueRef n = emit_const_i64(E, esize);
    for (unsigned d = 0; d < g->rank; d++) n = LLVMBuildMul(E->b, n, emit_tensor_dim(E, g, d), "");
    return n;
}

/* i1: [p, p + pn) and [q, q + qn) (bytes) do not overlap. */
static LLVMValueRef disjoint(Emit *E, LLVMValueRef p, LLVMValueRef pn, LLVMValueRef q, LLVMValueRef qn)
{
    LLVMValueRef pi = LLVMBuildPtrToInt(E->b, p, E->i64, ""), qi = LLVMBuildPtrToInt(E->b, q, E->i64, "");
    LLVMValueRef p_end = LLVMBuildAdd(E->b, pi, pn, ""), q_end = LLVMBuildAdd(E->b, qi, qn, "");
    return LLVMBuildOr(E->b, LLVMBuildICmp(E->b, LLVMIntULE, p_end, qi, ""), LLVMBuildICmp(E->b, LLVMIntULE, q_end, pi, ""), "");
}

void emit_outview_declare(Emit *E, const TirInstr *slot)
{
    struct EmitOutview *O = E->outviews[slot->id];
    const TkType *t = slot->type;
    O->ptr = emit_alloca(E, E->ptr, 1, "acc.at");
    O->stride = emit_alloca(E, E->i64, 1, "acc.stride");
    LLVMValueRef buf = emit_slot_ptr(E, slot);
    LLVMValueRef ptr = buf, stride = emit_const_i64(E, t->dims[1]);
    if (emit_tile_elems(t) * 4 <= OUTVIEW_INPLACE_MAX || O->loop) {
        const TirInstr *st = O->store, *C = st->args[0];
        const TkType *g = C->type;
        LLVMValueRef cbase = emit_value(E, C), off;
        LLVMValueRef ok = emit_gl_tile_at(E, g, (const TirInstr *const *)&st->args[2], t, &off);
        LLVMValueRef cbytes = tensor_bytes(E, g);
        for (unsigned p = 0; p < E->f->nparams; p++) {
            const TirParam *q = &E->f->params[p];
            if (q->kind != TIR_PARAM_TENSOR || (int)p == C->aux) continue;
            LLVMValueRef idx = emit_const_i64(E, p);
            LLVMValueRef qp = LLVMBuildLoad2(E->b, E->ptr, LLVMBuildGEP2(E->b, E->ptr, E->args, &idx, 1, ""), "");
            ok = LLVMBuildAnd(E->b, ok, disjoint(E, cbase, cbytes, qp, tensor_bytes(E, q->type)), "");
        }
        LLVMValueRef cptr = LLVMBuildSelect(E->b, ok, LLVMBuildGEP2(E->b, E->f32, cbase, &off, 1, "acc.inc"), buf, "");
        LLVMValueRef cstride = LLVMBuildSelect(E->b, ok, emit_tensor_dim(E, g, g->rank - 1), stride, "");
        if (O->loop) {   /* the stack tile until the last K step, which writes C */
            O->last_out = cptr;
            O->last_stride = cstride;
        } else {
            ptr = cptr;
            stride = cstride;
        }
    }
    LLVMBuildStore(E->b, ptr, O->ptr);
    LLVMBuildStore(E->b, stride, O->stride);
}

LLVMValueRef emit_outview_mma_begin(Emit *E, const TirInstr *slot, TkMmaBuilder *mb)
{
    struct EmitOutview *O = E->outviews[slot->id];
    mb->acc_stride = LLVMBuildLoad2(E->b, E->i64, O->stride, "");
    LLVMValueRef acc = LLVMBuildLoad2(E->b, E->ptr, O->ptr, "");
    if (O->loop) {   /* the loop's last iteration: the result goes to C */
        LLVMValueRef iv = emit_value(E, O->loop->iv), hi = emit_value(E, O->loop->args[1]);
        LLVMValueRef next = LLVMBuildAdd(E->b, iv, LLVMConstInt(LLVMTypeOf(iv), 1, 0), "");
        LLVMValueRef last = LLVMBuildICmp(E->b, LLVMIntSGE, next, hi, "acc.last");
        mb->out = LLVMBuildSelect(E->b, last, O->last_out, acc, "acc.out");
        mb->out_stride = LLVMBuildSelect(E->b, last, O->last_stride, mb->acc_stride, "");
    }
    return acc;
}

void emit_outview_mma_end(Emit *E, const TirInstr *slot, const TkMmaBuilder *mb)
{
    struct EmitOutview *O = E->outviews[slot->id];
    if (!mb->out) return;
    LLVMBuildStore(E->b, mb->out, O->ptr);   /* the store finds it in C and copies nothing */
    LLVMBuildStore(E->b, mb->out_stride, O->stride);
}

void emit_outview_zero(Emit *E, const TirInstr *slot)
{
    struct EmitOutview *O = E->outviews[slot->id];
    const TkType *t = slot->type;
    LLVMValueRef ptr = LLVMBuildLoad2(E->b, E->ptr, O->ptr, "");
    LLVMValueRef stride = LLVMBuildLoad2(E->b, E->i64, O->stride, "");
    EmitLoop L;
    emit_loop_begin(E, &L, emit_const_i64(E, t->dims[0]), "acc.zrow");
    LLVMValueRef off = LLVMBuildMul(E->b, L.idx, stride, "");
    LLVMBuildMemSet(E->b, LLVMBuildGEP2(E->b, E->f32, ptr, &off, 1, ""), LLVMConstInt(E->i8, 0, 0),
                    emit_const_i64(E, t->dims[1] * 4), 4);
    emit_loop_end(E, &L);
}

LLVMValueRef emit_outview_before_store(Emit *E, const TirInstr *store)
{
    const TirInstr *get = store->args[1];
    if (get->op != TIR_GET || !emit_is_outview(E, get->args[0])) return NULL;
    const TirInstr *slot = get->args[0];
    LLVMValueRef ptr = LLVMBuildLoad2(E->b, E->ptr, E->outviews[slot->id]->ptr, "");
    return LLVMBuildICmp(E->b, LLVMIntNE, ptr, emit_slot_ptr(E, slot), "acc.inplace");
}
