/* emit_store.c — stores of an element-wise DAG straight into a tensor on the
 * CPU: one loop over the part of the tile inside the tensor computes each
 * element and writes it there, streaming (non-temporal) into large
 * write-only tensors (emit_fuse.h for the fused DAGs, emit_stream.c for
 * when to stream). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "emit.h"
#include "emit_fuse.h"
#include "emit_gl.h"

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
    LLVMValueRef v = fuse_node(E, c->x, i, j), idx = store_inside_index(E, c, i, j);
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
        LLVMValueRef v = fuse_node(E, c->x, Li.idx, jv);
        LLVMValueRef v2 = halves ? fuse_node(E, c->x, Li.idx, emit_const_i64(E, j + 16)) : NULL;
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
    unsigned n = inside ? fuse_root_lanes(E, c->x, t) : 0;
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
        fuse_lanes_run(E, rows, cols, n, store_lanes, ctx);
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
    LLVMValueRef v = fuse_node(E, c->x, Li.idx, j);
    emit_st(E, t, c->tensor, LLVMBuildAdd(E->b, row_off, LLVMBuildAdd(E->b, c->G.col0, j, ""), ""), v);
    fuse_end_element_loop(E, &Lj, t);
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
    fuse_prepare(E, x);
    StoreLoop c = { x, emit_value(E, dst), dst->type, false, emit_gl_geometry(E, dst->type, (const TirInstr *const *)&st->args[2], t) };
    if (emit_stream_candidate(E, dst, t)) {
        uint8_t *memo = calloc(E->count ? E->count : 1, 1);
        c.stream = memo && fuse_lanes_fit(E, x, 0, memo);
        free(memo);
    }
    int64_t rows = t->rank == 2 ? t->dims[0] : 1, cols = t->rank == 2 ? t->dims[1] : t->dims[0];
    fuse_run(E, emit_gl_tile_inside(E, &c.G, rows, cols), store_loop, &c);
}
