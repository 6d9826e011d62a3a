/* gpu_tma.c — `s = load(gl, ...)` of a shared tile by Hopper's tensor memory
 * accelerator (cp.async.bulk.tensor, sm_90+): one thread hands the unit a
 * box of the tensor, the unit writes it into shared memory already swizzled
 * and counts the bytes on an mbarrier, and the block waits on that barrier.
 * Where gpu_async.c's cp.async costs every thread an address computation and
 * an instruction per 16 bytes, this costs one thread a few instructions per
 * tile, which is what leaves the warps free to feed wgmma.
 *
 * Which loads: those gpu_async.c would copy asynchronously, from a kernel
 * parameter (the map is made from it at launch), into a tile stored in one
 * of the TMA's layouts (gpu_swizzle.h): rows of 128 bytes or panels of them
 * (SWIZZLE_128B, one copy per panel), rows of 64 or 32 bytes (SWIZZLE_64B,
 * _32B), with at most 256 rows (a box's limit); gpu_shared.c places such a
 * tile where its pattern starts (the unit swizzles by address). Others keep
 * cp.async.
 *
 * The kernel's ABI grows: after its sizes come its maps (TkTmaPlan, listed
 * by tk_gpu_tma_plan in the same order), one per (tensor, box, swizzle) —
 * on NVIDIA a 128-byte CUtensorMap passed by value as a __grid_constant__
 * parameter, which the launcher encodes (cuTensorMapEncodeTiled); on the
 * emulation target a pointer to the TkTmaDesc itself (gpu_tma_desc.h).
 *
 * Ordering. Each TMA-loaded tile has an mbarrier (initialised once, arrival
 * count 1) and every thread keeps the parity of its last load: the issuing
 * thread arrives announcing the tile's bytes (expect_tx) and issues the
 * copies, whose completion ends the barrier's phase. Waiting is asking
 * whether the phase of that parity has completed — which is also true when
 * no load was ever issued, or when it completed long ago, so the waits can
 * sit exactly where gpu_async.c puts cp.async's (before a sync() and before
 * a collective on a tile in flight) without knowing whether a copy is
 * really pending. Shared memory written by threads (the generic proxy) is
 * ordered before the unit's writes by fence.proxy.async at those barriers.
 * A kernel does not return with a copy in flight.
 *
 * Where the tensor cannot be described (a base not 16-byte aligned, rows
 * not whole chunks, a dimension of 0 or past 2^32, a stride of 2^40), the
 * device takes the element-by-element load: the test here and
 * tk_tma_usable on the host are the same, and the launcher passes a zeroed
 * map, never read. */
#include <stdio.h>
#include <string.h>

#include "gpu_internal.h"
#include "gpu_swizzle.h"

static int dtype_of(TkTypeKind k) { return k == TK_TY_F32 ? TK_TMA_F32 : k == TK_TY_F16 ? TK_TMA_F16 : TK_TMA_BF16; }

/* The box and swizzle of a TMA load of st (rows R, cols C), or false. */
static bool tma_shape(const TkType *st, const TkType *gt, TkTmaPlan *p)
{
    int eb = gpu_elem_bytes(st->elem);
    int64_t R = st->dims[0], C = st->dims[1];
    if (gt->rank < 2 || gt->rank > TK_TMA_MAX_RANK || R < 1 || R > 256) return false;
    /* rows of 2·odd or 4·odd chunks have a swizzle the unit does not; the
     * others start where their pattern does (gpu_shared.c) */
    int swz = tk_swizzle_nvidia_bytes(C, eb);
    if (!swz || (C * eb > 128 && R % 8)) return false;   /* each panel starts at a 1 KiB boundary */
    memset(p, 0, sizeof *p);
    p->rank = (int32_t)gt->rank;
    p->dtype = dtype_of(st->elem);
    p->elem_bytes = eb;
    p->swizzle = swz;
    p->box[0] = (uint32_t)(swz / eb);   /* a row, or a 128-byte panel of one */
    p->box[1] = (uint32_t)R;
    for (unsigned k = 2; k < gt->rank; k++) p->box[k] = 1;
    return true;
}

/* whether SET i, an asynchronous load, can go by the TMA into the plan's map *p */
static bool tma_candidate(const GpuLower *g, const TirInstr *i, TkTmaPlan *p)
{
    if (!g->v->tma_ok || !g->v->tma_ok(g->cpu) || !gpu_async_ok(g, i)) return false;
    const TirInstr *src = i->args[1]->args[0];
    if (src->op != TIR_PARAM) return false;
    if (!tma_shape(i->args[0]->type, src->type, p)) return false;
    p->param = (int32_t)src->aux;
    return true;
}

static int find_map(const GpuLower *g, const TkTmaPlan *p)
{
    for (int k = 0; k < g->tma_nmaps; k++)
        if (memcmp(&g->tma_maps[k], p, sizeof *p) == 0) return k;
    return -1;
}

static int find_tile(const GpuLower *g, const TirInstr *var)
{
    for (int k = 0; k < g->tma_ntiles; k++)
        if (g->tma_tiles[k] == var) return k;
    return -1;
}

static void plan_region(GpuLower *g, const TirRegion *r)
{
    for (const TirInstr *i = r->first; i; i = i->next) {
        TkTmaPlan p;
        if (tma_candidate(g, i, &p)) {
            int m = find_map(g, &p), t = find_tile(g, i->args[0]);
            if (m < 0 && g->tma_nmaps < TK_TMA_MAX_MAPS) g->tma_maps[m = g->tma_nmaps++] = p;
            if (t < 0 && g->tma_ntiles < GPU_TMA_MAX_TILES) g->tma_tiles[t = g->tma_ntiles++] = i->args[0];
            if (m < 0 || t < 0) g->cp_async_any = true;
        } else if (gpu_async_ok(g, i)) {
            g->cp_async_any = true;
        }
        plan_region(g, &i->body[0]);
        plan_region(g, &i->body[1]);
    }
}

void gpu_tma_plan(GpuLower *g, const TirFunc *f)
{
    g->tma_nmaps = g->tma_ntiles = 0;
    g->cp_async_any = false;
    plan_region(g, &f->body);
}

int gpu_tma_map_of(const GpuLower *g, const TirInstr *i, int *tile)
{
    TkTmaPlan p;
    if (!g->tma_nmaps || !tma_candidate(g, i, &p)) return -1;
    int m = find_map(g, &p), t = find_tile(g, i->args[0]);
    if (m < 0 || t < 0) return -1;
    if (tile) *tile = t;
    return m;
}

/* f's plan on t, outside a lowering (for launchers and --stats) */
static void plan_alone(GpuLower *g, const TirFunc *f, const TkGpuTarget *t)
{
    memset(g, 0, sizeof *g);
    g->v = t->vendor;
    g->cpu = t->proc;
    g->wave = t->warp;
    gpu_tma_plan(g, f);
}

int tk_gpu_tma_plan(const TirFunc *f, const TkGpuTarget *t, TkTmaPlan *out, int max)
{
    GpuLower g;
    plan_alone(&g, f, t);
    int n = g.tma_nmaps < max ? g.tma_nmaps : max;
    memcpy(out, g.tma_maps, (size_t)n * sizeof *out);
    return g.tma_nmaps;
}

int64_t tk_gpu_shared_bytes(const TirFunc *f, const TkGpuTarget *t)
{
    GpuLower g;
    plan_alone(&g, f, t);
    return gpu_shared_bytes(&f->body) + (8 * g.tma_ntiles + 15) / 16 * 16;
}

/* ---------------------------------------------------------------- emission */

void gpu_tma_begin(GpuLower *g)
{
    g->tma_bars = NULL;
    if (!g->tma_ntiles) return;
    LLVMBuilderRef B = g->e.b;
    TkGpuBuilder gb = { g->e.ctx, g->e.mod, g->e.b, g->env };
    int64_t off = (g->shared_used + 15) / 16 * 16;
    LLVMValueRef bars = g->tma_bars = g->v->shared_at(&gb, "mbarrier", 8 * g->tma_ntiles, off);
    g->shared_used = off + 8 * g->tma_ntiles;
    LLVMBasicBlockRef init = LLVMAppendBasicBlockInContext(g->e.ctx, g->fn, "tma.init");
    LLVMBasicBlockRef after = LLVMAppendBasicBlockInContext(g->e.ctx, g->fn, "tma.ready");
    for (int k = 0; k < g->tma_ntiles; k++) {
        LLVMValueRef ix = c64(g, 8 * k);
        g->tma_bar[k] = LLVMBuildGEP2(B, g->e.i8, bars, &ix, 1, "mbar");
        g->tma_phase[k] = LLVMBuildAlloca(g->ab, g->e.i32, "tma.phase");
        LLVMBuildStore(B, c32(g, 0), g->tma_phase[k]);
    }
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntEQ, g->tid, c32(g, 0), ""), init, after);
    LLVMPositionBuilderAtEnd(B, init);
    for (int k = 0; k < g->tma_ntiles; k++) g->v->mbar_init(&gb, g->tma_bar[k], 1);
    g->v->mbar_init_fence(&gb);
    LLVMBuildBr(B, after);
    LLVMPositionBuilderAtEnd(B, after);
    g->v->barrier(&gb);   /* no thread waits on a barrier before it is initialised */
}

/* SET i = load(gl, coords) by the TMA into map m's box, tile t's barrier;
 * the caller has checked that the tensor can be described */
void gpu_tma_load(GpuLower *g, const TirInstr *i, int m, int t)
{
    LLVMBuilderRef B = g->e.b;
    const TkTmaPlan *p = &g->tma_maps[m];
    const TirInstr *var = i->args[0], *ld = i->args[1];
    const TkType *st = var->type;
    unsigned rank = (unsigned)p->rank;
    int64_t R = st->dims[0], C = st->dims[1], eb = p->elem_bytes;
    int64_t panels = C / p->box[0], panel_bytes = R * p->box[0] * eb;
    TkGpuBuilder gb = { g->e.ctx, g->e.mod, g->e.b, g->env };
    LLVMBasicBlockRef issue = LLVMAppendBasicBlockInContext(g->e.ctx, g->fn, "tma.issue");
    LLVMBasicBlockRef after = LLVMAppendBasicBlockInContext(g->e.ctx, g->fn, "tma.issued");
    /* the tensor coordinates of the box, innermost first (tile coordinates count tiles) */
    LLVMValueRef c[TK_TMA_MAX_RANK];
    const TirInstr *const *coords = (const TirInstr *const *)&ld->args[1];
    c[0] = LLVMBuildMul(B, LLVMBuildTrunc(B, gpu_i64v(g, gpu_val(g, coords[rank - 1])), g->e.i32, ""), c32(g, C), "");
    c[1] = LLVMBuildMul(B, LLVMBuildTrunc(B, gpu_i64v(g, gpu_val(g, coords[rank - 2])), g->e.i32, ""), c32(g, R), "");
    for (unsigned k = 2; k < rank; k++) c[k] = LLVMBuildTrunc(B, gpu_i64v(g, gpu_val(g, coords[rank - 1 - k])), g->e.i32, "");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntEQ, g->tid, c32(g, 0), ""), issue, after);
    LLVMPositionBuilderAtEnd(B, issue);
    g->v->mbar_expect(&gb, g->tma_bar[t], (int32_t)(R * C * eb));
    LLVMValueRef map = LLVMGetParam(g->fn, g->tma_param0 + (unsigned)m), c0 = c[0];
    for (int64_t q = 0; q < panels; q++) {
        LLVMValueRef ix = c64(g, q * panel_bytes);
        LLVMValueRef dst = LLVMBuildGEP2(B, g->e.i8, g->slots[var->id], &ix, 1, "");
        c[0] = LLVMBuildAdd(B, c0, c32(g, q * p->box[0]), "");
        g->v->tma_load(&gb, dst, map, c, rank, g->tma_bar[t]);
    }
    LLVMBuildBr(B, after);
    LLVMPositionBuilderAtEnd(B, after);
    /* every thread counts the loads: the parity of the phase this one ends */
    LLVMValueRef ph = LLVMBuildLoad2(B, g->e.i32, g->tma_phase[t], "");
    LLVMBuildStore(B, LLVMBuildXor(B, ph, c32(g, 1), ""), g->tma_phase[t]);
}

/* The test the host makes with tk_tma_usable, on the device: i1. */
LLVMValueRef gpu_tma_usable(GpuLower *g, const TkType *gt, LLVMValueRef base_ok)
{
    LLVMBuilderRef B = g->e.b;
    LLVMValueRef ok = base_ok, stride = c64(g, gpu_elem_bytes(gt->elem));
    for (unsigned k = 0; k < gt->rank; k++) {
        LLVMValueRef d = gpu_tensor_dim(g, gt, gt->rank - 1 - k);
        ok = LLVMBuildAnd(B, ok, LLVMBuildICmp(B, LLVMIntSGE, d, c64(g, 1), ""), "");
        ok = LLVMBuildAnd(B, ok, LLVMBuildICmp(B, LLVMIntSLE, d, c64(g, (int64_t)1 << 32), ""), "");
        if (k > 0) ok = LLVMBuildAnd(B, ok, LLVMBuildICmp(B, LLVMIntSLT, stride, c64(g, (int64_t)1 << 40), ""), "");
        if (k + 1 < gt->rank) stride = LLVMBuildMul(B, stride, d, "");
    }
    return ok;
}

/* every thread waits for the TMA loads into the tiles of `bits` (gpu_async.c's
 * bits; the last one stands for all tiles past 62) */
void gpu_tma_wait(GpuLower *g, uint64_t bits)
{
    TkGpuBuilder gb = { g->e.ctx, g->e.mod, g->e.b, g->env };
    for (int t = 0; t < g->tma_ntiles; t++) {
        int k = 0;
        while (k < g->async_nvars && g->async_vars[k] != g->tma_tiles[t]) k++;
        if (!(bits & (1ull << (k < 63 ? k : 63)))) continue;
        LLVMValueRef ph = LLVMBuildLoad2(g->e.b, g->e.i32, g->tma_phase[t], "");
        g->v->mbar_wait(&gb, g->tma_bar[t], LLVMBuildXor(g->e.b, ph, c32(g, 1), "parity"));
    }
}

void gpu_tma_end(GpuLower *g)
{
    if (!g->tma_ntiles) return;
    gpu_tma_wait(g, g->pending.inflight);
    /* A GPU's barriers go after the tiles: the backend lays shared arrays
     * out in order, and 8 bytes first would push a 1 KiB aligned tile 1 KiB on. */
    LLVMValueRef old = g->tma_bars;
    if (!LLVMIsAGlobalVariable(old)) return;
    size_t len;
    const char *name = LLVMGetValueName2(old, &len);
    char copy[160];
    snprintf(copy, sizeof copy, "%.*s", (int)len, name);
    LLVMValueRef bars = LLVMAddGlobalInAddressSpace(g->e.mod, LLVMGlobalGetValueType(old), "", LLVMGetPointerAddressSpace(LLVMTypeOf(old)));
    LLVMSetLinkage(bars, LLVMGetLinkage(old));
    LLVMSetInitializer(bars, LLVMGetInitializer(old));
    LLVMSetAlignment(bars, LLVMGetAlignment(old));
    LLVMReplaceAllUsesWith(old, bars);
    LLVMDeleteGlobal(old);
    LLVMSetValueName2(bars, copy, strlen(copy));
}

/* ---------------------------------------------------------------- maps on the host */

/* extent d of gl type t from the sizes' values: i64 */
static LLVMValueRef host_dim(TkGpuBuilder *gb, const TkType *t, unsigned d, LLVMValueRef const *sizes)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(gb->ctx);
    const TkPoly *p = &t->gdims[d];
    LLVMValueRef sum = LLVMConstInt(i64, 0, 0);
    for (unsigned k = 0; k < p->nterms; k++) {
        const TkMono *mo = &p->terms[k];
        LLVMValueRef term = LLVMConstInt(i64, (unsigned long long)mo->coef, 1);
        for (unsigned v = 0; v < mo->nvars; v++) term = LLVMBuildMul(gb->b, term, sizes[mo->vars[v]], "");
        sum = LLVMBuildAdd(gb->b, sum, term, "");
    }
    return sum;
}

LLVMTypeRef tk_gpu_tma_desc_type(LLVMContextRef ctx)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx), i64 = LLVMInt64TypeInContext(ctx);
    LLVMTypeRef f[8] = { i64, LLVMArrayType2(i64, TK_TMA_MAX_RANK), LLVMArrayType2(i64, TK_TMA_MAX_RANK),
                         LLVMArrayType2(i32, TK_TMA_MAX_RANK), i32, i32, i32, i32 };
    return LLVMStructTypeInContext(ctx, f, 8, 0);
}

void tk_gpu_tma_fill(TkGpuBuilder *gb, const TirFunc *f, const TkTmaPlan *p, LLVMValueRef base, LLVMValueRef const *sizes,
                     LLVMValueRef out)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(gb->ctx), i64 = LLVMInt64TypeInContext(gb->ctx), dt = tk_gpu_tma_desc_type(gb->ctx);
    LLVMBuilderRef B = gb->b;
    const TkType *gt = f->params[p->param].type;
    LLVMBuildStore(B, LLVMConstNull(dt), out);
    LLVMBuildStore(B, LLVMBuildPtrToInt(B, base, i64, ""), LLVMBuildStructGEP2(B, dt, out, 0, ""));
    LLVMValueRef stride = LLVMConstInt(i64, (unsigned long long)p->elem_bytes, 0);
    for (int k = 0; k < p->rank; k++) {
        LLVMValueRef d = host_dim(gb, gt, (unsigned)(p->rank - 1 - k), sizes);
        LLVMValueRef ix[2] = { LLVMConstInt(i32, 0, 0), LLVMConstInt(i32, (unsigned)k, 0) };
        LLVMBuildStore(B, d, LLVMBuildGEP2(B, LLVMArrayType2(i64, TK_TMA_MAX_RANK), LLVMBuildStructGEP2(B, dt, out, 1, ""), ix, 2, ""));
        LLVMBuildStore(B, stride, LLVMBuildGEP2(B, LLVMArrayType2(i64, TK_TMA_MAX_RANK), LLVMBuildStructGEP2(B, dt, out, 2, ""), ix, 2, ""));
        LLVMBuildStore(B, LLVMConstInt(i32, p->box[k], 0),
                       LLVMBuildGEP2(B, LLVMArrayType2(i32, TK_TMA_MAX_RANK), LLVMBuildStructGEP2(B, dt, out, 3, ""), ix, 2, ""));
        stride = LLVMBuildMul(B, stride, d, "");
    }
    int32_t tail[4] = { p->rank, p->elem_bytes, p->dtype, p->swizzle };
    for (unsigned k = 0; k < 4; k++)
        LLVMBuildStore(B, LLVMConstInt(i32, (unsigned)tail[k], 0), LLVMBuildStructGEP2(B, dt, out, 4 + k, ""));
}
