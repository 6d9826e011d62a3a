/* gpu_async.c — `s = load(gl, ...)` of a shared tile as asynchronous copies
 * (cp.async on NVIDIA sm_80+), and when the block must wait for them.
 *
 * The block copies the tile in 16-byte chunks, thread t taking chunks t,
 * t + threads, ...: one cp.async per chunk, straight from global to shared
 * memory without passing through registers, the part past the tensor's
 * edge zero-filled by the instruction (its source size). A chunk is 16
 * bytes of one row of the tensor, so the tensor's rows must be a whole
 * number of chunks and its base 16-byte aligned: that is checked at run
 * time, and a tensor that fails it takes the element-by-element loop
 * (gpu_shared.c). The swizzle moves whole chunks, so each stored chunk is
 * one contiguous piece of the tensor.
 *
 * The copies land some time later, and by other threads than the
 * element-by-element accesses of the same tile. The language says what must
 * be seen when (docs/LANGUAGE.md §4.2–4.3): every write before a sync() is
 * seen after it, and collective operations on one tile take effect in
 * program order. So a sync() first waits for the thread's own copies
 * (cp.async.wait_all), then meets the block; a collective operation on a
 * tile whose copies may be in flight first waits and meets the block (a
 * thread's wait does not cover other threads' copies); and an asynchronous
 * load into a tile that was filled, loaded or stored element by element
 * since the last barrier first meets the block (another thread may not have
 * made its access yet). Where copies may be in flight and which tiles were
 * touched is a forward analysis of the kernel (two bits per shared tile;
 * loops to a fixpoint, both arms of an if), stepped as the kernel is
 * emitted. A per-warp access without a sync() is unordered in the language
 * anyway.
 *
 * That makes the double-buffered loop a writer spells out pipelined:
 *     for (k ...) { sync(); B1 = load(next); mma(... A0 ...); sync(); B0 = load(...); mma(... A1 ...); }
 * the sync() waits for the tile about to be read, and the load issued after
 * it is in flight while the warps compute on the other tile.
 *
 * On sm_90 a load from a kernel parameter into a tile in one of the TMA's
 * layouts goes by the tensor memory accelerator instead (gpu_tma.c): the
 * same places wait, on the tile's mbarrier rather than for the thread's
 * cp.asyncs, and the barriers that order element-by-element writes before
 * such a load also fence them for the TMA's proxy. */
#include "gpu_internal.h"

/* i is `s = load(gl, ...)` that can go by 16-byte copies: same element type
 * (no widening), a row-major tensor, rows of the tile a whole number of
 * chunks, and a vendor that copies asynchronously */
bool gpu_async_ok(const GpuLower *g, const TirInstr *i)
{
    if (!g->v->cp_async || i->op != TIR_SET || !gpu_is_st(i->args[0]->type)) return false;
    const TirInstr *v = i->args[1];
    if (v->op != TIR_LOAD || v->args[0]->type->kind != TK_TY_GL) return false;
    const TkType *st = i->args[0]->type, *gt = v->args[0]->type;
    int b = gpu_elem_bytes(st->elem);
    return gt->elem == st->elem && gt->layout == TK_ROW && gt->rank >= 2 && (st->dims[1] * b) % 16 == 0 &&
           (gpu_half(st->elem) || st->elem == TK_TY_F32);
}

/* the bit of shared tile var in the pending set; tiles past 63 share bit 63 (more drains, never fewer) */
static uint64_t bit_of(GpuLower *g, const TirInstr *var)
{
    for (int k = 0; k < g->async_nvars; k++)
        if (g->async_vars[k] == var) return 1ull << k;
    if (g->async_nvars < 63) {
        g->async_vars[g->async_nvars] = var;
        return 1ull << g->async_nvars++;
    }
    return 1ull << 63;
}

/* the shared tile a collective statement acts on, or NULL */
static const TirInstr *collective_target(const TirInstr *i)
{
    if (i->op == TIR_SET && tk_is_shared(i->args[0]->type->kind) && (i->args[1]->op == TIR_LOAD || i->args[1]->op == TIR_FILL))
        return i->args[0];
    if (i->op == TIR_STORE && tk_is_shared(i->args[1]->type->kind)) {
        const TirInstr *s = i->args[1];
        return s->op == TIR_GET ? s->args[0] : s;
    }
    return NULL;
}

/* What collective i must do first, and the state after it: 0 nothing; 1 a
 * barrier (an asynchronous load into a tile that threads have touched
 * element by element since the last barrier: the copies, chunk by chunk,
 * must not overtake those accesses); 2 a wait and a barrier (copies into
 * the tile may be in flight). Both the analysis and the emission take
 * these steps. */
static int collective_step(GpuLower *g, const TirInstr *i, GpuAsyncState *st)
{
    const TirInstr *s = collective_target(i);
    if (!s) return 0;
    uint64_t b = bit_of(g, s);
    bool async = gpu_async_ok(g, i);
    int act = st->inflight & b ? 2 : async && (st->touched & b) ? 1 : 0;
    if (act == 2) st->inflight = 0;
    if (act) st->touched = 0;
    if (async) st->inflight |= b;
    else st->touched |= b;
    return act;
}

static GpuAsyncState join(GpuAsyncState a, GpuAsyncState b)
{
    return (GpuAsyncState){ a.inflight | b.inflight, a.touched | b.touched };
}

static GpuAsyncState step(GpuLower *g, const TirInstr *i, GpuAsyncState in);

static GpuAsyncState region_out(GpuLower *g, const TirRegion *r, GpuAsyncState in)
{
    for (const TirInstr *i = r->first; i; i = i->next) in = step(g, i, in);
    return in;
}

/* the state at the top of a loop's body: what comes in, or comes around
 * from the end of an iteration */
static GpuAsyncState loop_in(GpuLower *g, const TirInstr *loop, GpuAsyncState in)
{
    for (;;) {
        GpuAsyncState next = join(in, region_out(g, &loop->body[0], in));
        if (next.inflight == in.inflight && next.touched == in.touched) return in;
        in = next;
    }
}

static GpuAsyncState step(GpuLower *g, const TirInstr *i, GpuAsyncState in)
{
    switch (i->op) {
    case TIR_SYNC: return (GpuAsyncState){ 0, 0 };
    case TIR_FOR: return loop_in(g, i, in);
    case TIR_IF: return join(region_out(g, &i->body[0], in), region_out(g, &i->body[1], in));
    default: (void)collective_step(g, i, &in); return in;
    }
}

static bool any_async(const GpuLower *g, const TirRegion *r)
{
    for (const TirInstr *i = r->first; i; i = i->next)
        if (gpu_async_ok(g, i) || any_async(g, &i->body[0]) || any_async(g, &i->body[1])) return true;
    return false;
}

void gpu_async_begin(GpuLower *g, const TirFunc *f)
{
    g->async_nvars = 0;
    g->pending = (GpuAsyncState){ 0, 0 };
    g->async = any_async(g, &f->body);
}

GpuAsyncState gpu_async_loop_in(GpuLower *g, const TirInstr *loop)
{
    return g->async ? loop_in(g, loop, g->pending) : (GpuAsyncState){ 0, 0 };
}

GpuAsyncState gpu_async_join(GpuAsyncState a, GpuAsyncState b) { return join(a, b); }

/* this thread's copies into the tiles of `inflight` have landed */
static void wait_for(GpuLower *g, uint64_t inflight)
{
    TkGpuBuilder gb = { g->e.ctx, g->e.mod, g->e.b, g->env };
    if (g->cp_async_any) g->v->cp_async_wait(&gb);
    gpu_tma_wait(g, inflight);
}

void gpu_async_before_collective(GpuLower *g, const TirInstr *i)
{
    if (!g->async) return;
    uint64_t inflight = g->pending.inflight;
    int act = collective_step(g, i, &g->pending);
    TkGpuBuilder gb = { g->e.ctx, g->e.mod, g->e.b, g->env };
    if (act == 2) wait_for(g, inflight);
    if (act && g->tma_ntiles) g->v->proxy_fence(&gb);
    if (act) g->v->barrier(&gb);
}

void gpu_async_before_sync(GpuLower *g)
{
    uint64_t inflight = g->pending.inflight;
    g->pending = (GpuAsyncState){ 0, 0 };
    if (g->async) wait_for(g, inflight);
}

/* s = load(X, coords) by chunks: the tile's chunk q is stored at element
 * q·per of s; its first element's (row, col) in the tile undoes the swizzle;
 * the copy reads 16 bytes, or none (zero-filling the chunk) past the
 * tensor's edge or with a leading coordinate out of range. Only where
 * the tensor's rows are whole chunks and its base is 16-byte aligned (a
 * run-time test): the builder is left where the other case goes, for the
 * caller's element-by-element loop, which then branches to the block this
 * returns. */
LLVMBasicBlockRef gpu_async_load(GpuLower *g, const TirInstr *i)
{
    LLVMBuilderRef B = g->e.b;
    const TirInstr *var = i->args[0], *ld = i->args[1], *src = ld->args[0];
    const TkType *st = var->type, *gt = src->type;
    int eb = gpu_elem_bytes(st->elem);
    int64_t per = 16 / eb, C = st->dims[1], chunks = st->dims[0] * C / per;
    unsigned rank = gt->rank;
    const TirInstr *const *coords = (const TirInstr *const *)&ld->args[1];
    LLVMValueRef base = gpu_val(g, src), ncols = gpu_tensor_dim(g, gt, rank - 1);
    LLVMValueRef addr = LLVMBuildPtrToInt(B, base, g->e.i64, "");
    LLVMValueRef ok = LLVMBuildAnd(B, LLVMBuildICmp(B, LLVMIntEQ, LLVMBuildAnd(B, addr, c64(g, 15), ""), c64(g, 0), ""),
                                   LLVMBuildICmp(B, LLVMIntEQ, LLVMBuildSRem(B, ncols, c64(g, per), ""), c64(g, 0), ""), "async.ok");
    int tile, map = gpu_tma_map_of(g, i, &tile);
    if (map >= 0) ok = gpu_tma_usable(g, gt, ok);
    LLVMBasicBlockRef fast = LLVMAppendBasicBlockInContext(g->e.ctx, g->fn, "async");
    LLVMBasicBlockRef slow = LLVMAppendBasicBlockInContext(g->e.ctx, g->fn, "async.no");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->e.ctx, g->fn, "async.done");
    LLVMBuildCondBr(B, ok, fast, slow);
    LLVMPositionBuilderAtEnd(B, fast);
    if (map >= 0) {
        gpu_tma_load(g, i, map, tile);
        LLVMBuildBr(B, done);
        LLVMPositionBuilderAtEnd(B, slow);
        return done;
    }
    Coop L;
    gpu_coop_begin(g, &L, chunks);
    LLVMValueRef e = LLVMBuildMul(B, L.e, c64(g, per), "");   /* where the chunk is stored */
    LLVMValueRef r, c;
    gpu_st_cell(g, st, e, &r, &c);
    LLVMValueRef row = LLVMBuildAdd(B, LLVMBuildMul(B, gpu_i64v(g, gpu_val(g, coords[rank - 2])), c64(g, st->dims[0]), ""), r, "");
    LLVMValueRef col = LLVMBuildAdd(B, LLVMBuildMul(B, gpu_i64v(g, gpu_val(g, coords[rank - 1])), c64(g, C), ""), c, "");
    LLVMTypeRef v1 = LLVMVectorType(g->e.i64, 1);
    Access A = gpu_gl_access(g, gt, coords, LLVMBuildInsertElement(B, LLVMGetPoison(v1), row, c32(g, 0), ""),
                             LLVMBuildInsertElement(B, LLVMGetPoison(v1), col, c32(g, 0), ""), 1);
    /* with whole chunks per row a chunk is all inside the tensor or all outside */
    LLVMValueRef in = LLVMBuildExtractElement(B, A.mask, c32(g, 0), "");
    LLVMValueRef bytes = LLVMBuildSelect(B, in, c32(g, 16), c32(g, 0), "");
    /* where nothing is read, the tensor's first element stands in as the source */
    LLVMValueRef ix = LLVMBuildSelect(B, in, LLVMBuildExtractElement(B, A.idx, c32(g, 0), ""), c64(g, 0), "");
    LLVMTypeRef et = gpu_elem_type(g, st->elem);
    LLVMValueRef from = LLVMBuildGEP2(B, et, base, &ix, 1, "");
    LLVMValueRef to = LLVMBuildGEP2(B, et, g->slots[var->id], &e, 1, "");
    TkGpuBuilder gb = { g->e.ctx, g->e.mod, g->e.b, g->env };
    g->v->cp_async(&gb, to, from, bytes);
    gpu_coop_end(g, &L);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, slow);
    return done;
}
