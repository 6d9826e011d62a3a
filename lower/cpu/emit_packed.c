/* emit_packed.c — tiles in and out of packed tensors (gl<T, ..., packed>).
 *
 * A packed plane (the last two dims, R×C) is stored in the CPU mma's B
 * layout (intrinsics/cpu_mma.h): panels of 32 columns one after another,
 * each panel's rows contiguous, 2-byte elements in pairs of rows — element
 * (r, c) at tk_packed_offset(r, c, R, C, esize). The rows [r0, r0 + KC) of a
 * panel are then one contiguous run already in the micro-kernel's layout:
 * loading a tile of whole rows is one memcpy per panel, or nothing at all
 * when the tile variable is a view (emit_packed_view): the mma reads the
 * tensor in place, with a panel stride of 32·R. The checker guarantees every
 * tile spans the plane's width (cols == C) at column coordinate 0, so only
 * rows are ever clipped. */
#include "emit.h"
#include "cpu_mma.h"

#include <stdlib.h>

typedef struct {
    LLVMValueRef plane;    /* i64 element offset of the plane (leading indices) */
    LLVMValueRef ok;       /* i1: the leading indices are in range */
    LLVMValueRef row0;     /* i64: first plane row the tile covers */
    LLVMValueRef R;        /* i64: rows of a plane */
    LLVMValueRef inside;   /* i1: ok and the tile's rows all lie in the paired rows [0, R & ~1) */
} Plane;

static LLVMValueRef i64v(Emit *E, LLVMValueRef v)
{
    return LLVMGetIntTypeWidth(LLVMTypeOf(v)) == 64 ? v : LLVMBuildSExt(E->b, v, E->i64, "");
}

static LLVMValueRef bit_and(Emit *E, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildAnd(E->b, a, b, ""); }
static LLVMValueRef lt(Emit *E, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildICmp(E->b, LLVMIntSLT, a, b, ""); }
static LLVMValueRef ge(Emit *E, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildICmp(E->b, LLVMIntSGE, a, b, ""); }

/* Rows of a plane stored as pairs: R & ~1 for 2-byte elements; f32 planes are plain rows, all R. */
static LLVMValueRef paired_rows(Emit *E, const TkType *tile, LLVMValueRef R)
{
    return tile->elem == TK_TY_F32 ? R : LLVMBuildAnd(E->b, R, emit_const_i64(E, ~(int64_t)1), "");
}

static Plane plane_of(Emit *E, const TkType *g, const TirInstr *const *coords, const TkType *tile)
{
    Plane P;
    unsigned n = g->rank;
    LLVMValueRef zero = emit_const_i64(E, 0), lead = zero;
    P.ok = LLVMConstInt(E->i1, 1, 0);
    for (unsigned d = 0; d + 2 < n; d++) {
        LLVMValueRef idx = i64v(E, emit_value(E, coords[d])), dim = emit_tensor_dim(E, g, d);
        P.ok = bit_and(E, P.ok, bit_and(E, ge(E, idx, zero), lt(E, idx, dim)));
        lead = LLVMBuildAdd(E->b, LLVMBuildMul(E->b, lead, dim, ""), idx, "");
    }
    P.R = emit_tensor_dim(E, g, n - 2);
    LLVMValueRef C = emit_const_i64(E, tile->dims[1]);
    P.plane = LLVMBuildMul(E->b, LLVMBuildMul(E->b, lead, P.R, ""), C, "");
    /* a tile coordinate clamped to ±2^40 stays outside every tensor without overflowing */
    LLVMValueRef lim = emit_const_i64(E, (int64_t)1 << 40), tc = i64v(E, emit_value(E, coords[n - 2]));
    tc = LLVMBuildSelect(E->b, lt(E, tc, lim), tc, lim, "");
    tc = LLVMBuildSelect(E->b, ge(E, tc, LLVMBuildNeg(E->b, lim, "")), tc, LLVMBuildNeg(E->b, lim, ""), "");
    P.row0 = LLVMBuildMul(E->b, tc, emit_const_i64(E, tile->dims[0]), "");
    LLVMValueRef paired = paired_rows(E, tile, P.R);
    LLVMValueRef end = LLVMBuildAdd(E->b, P.row0, emit_const_i64(E, tile->dims[0]), "");
    P.inside = bit_and(E, P.ok, bit_and(E, ge(E, P.row0, zero), LLVMBuildICmp(E->b, LLVMIntSLE, end, paired, "")));
    return P;
}

static LLVMValueRef at(Emit *E, LLVMTypeRef t, LLVMValueRef base, LLVMValueRef idx)
{
    return LLVMBuildGEP2(E->b, t, base, &idx, 1, "");
}

static void copy(Emit *E, LLVMTypeRef t, LLVMValueRef dst, LLVMValueRef di, LLVMValueRef src, LLVMValueRef si)
{
    LLVMBuildStore(E->b, LLVMBuildLoad2(E->b, t, at(E, t, src, si), ""), at(E, t, dst, di));
}

/* Element offset of (r, c) inside a plane of R rows: tk_packed_offset. */
static LLVMValueRef plane_offset(Emit *E, const TkType *tile, LLVMValueRef r, LLVMValueRef c, LLVMValueRef R)
{
    LLVMValueRef stride = LLVMBuildMul(E->b, R, emit_const_i64(E, TK_MMA_PANEL), "");
    LLVMValueRef plain = tk_mma_b_offset(E->b, r, c, tile->dims[1], stride, false);
    if (tile->elem == TK_TY_F32) return plain;
    LLVMValueRef paired = tk_mma_b_offset(E->b, r, c, tile->dims[1], stride, true);
    return LLVMBuildSelect(E->b, lt(E, r, paired_rows(E, tile, R)), paired, plain, "");   /* an odd last row is plain */
}

/* Stores a row-major tile of 2-byte elements (an even number of rows, lying
 * in the plane's paired rows) into its panels: per row pair and panel, the
 * two rows' w elements interleaved into one run of 2w — two vector loads, a
 * shuffle and a store, where the element loop computed a packed offset per
 * element (a pack kernel spent ~2% of an attention call there). */
static void store_row_pairs(Emit *E, const Plane *P, LLVMValueRef tensor, const TkType *tile, LLVMValueRef buf)
{
    int64_t rows = tile->dims[0], cols = tile->dims[1];
    LLVMTypeRef et = emit_scalar_type(E, tile->elem);
    EmitLoop L;
    emit_loop_begin(E, &L, emit_const_i64(E, rows / 2), "pk.pair");
    LLVMValueRef pair = LLVMBuildAdd(E->b, LLVMBuildLShr(E->b, P->row0, emit_const_i64(E, 1), ""), L.idx, "");
    LLVMValueRef r0 = LLVMBuildMul(E->b, L.idx, emit_const_i64(E, 2 * cols), "");
    for (int64_t c0 = 0; c0 < cols; c0 += TK_MMA_PANEL) {
        unsigned w = (unsigned)(cols - c0 < TK_MMA_PANEL ? cols - c0 : TK_MMA_PANEL);
        LLVMTypeRef half = LLVMVectorType(et, w);
        LLVMValueRef a = LLVMBuildLoad2(E->b, half, at(E, et, buf, LLVMBuildAdd(E->b, r0, emit_const_i64(E, c0), "")), "");
        LLVMValueRef b = LLVMBuildLoad2(E->b, half, at(E, et, buf, LLVMBuildAdd(E->b, r0, emit_const_i64(E, cols + c0), "")), "");
        LLVMSetAlignment(a, 2);
        LLVMSetAlignment(b, 2);
        LLVMValueRef mask[2 * TK_MMA_PANEL];
        for (unsigned k = 0; k < w; k++) {
            mask[2 * k] = LLVMConstInt(E->i32, k, 0);
            mask[2 * k + 1] = LLVMConstInt(E->i32, w + k, 0);
        }
        LLVMValueRef v = LLVMBuildShuffleVector(E->b, a, b, LLVMConstVector(mask, 2 * w), "");
        /* panel c0 starts at plane + c0·R; pair p of it at 2w·p */
        LLVMValueRef dst = LLVMBuildAdd(E->b, LLVMBuildAdd(E->b, P->plane, LLVMBuildMul(E->b, P->R, emit_const_i64(E, c0), ""), ""),
                                        LLVMBuildMul(E->b, pair, emit_const_i64(E, 2 * (int64_t)w), ""), "");
        LLVMValueRef st = LLVMBuildStore(E->b, v, at(E, et, tensor, dst));
        LLVMSetAlignment(st, 2);
    }
    emit_loop_end(E, &L);
}

/* The tile lies in paired rows: in each panel, one contiguous run at
 * panel + row0·w, which is the tile's own panel if its packing is the
 * plane's (TIR_PACK_VNNI_KN / ROWS_KN). */
static void transfer_inside(Emit *E, const Plane *P, LLVMValueRef tensor, const TkType *tile, LLVMValueRef buf, bool to_tile,
                            TirPack pack)
{
    int64_t rows = tile->dims[0], cols = tile->dims[1];
    unsigned esize = tile->elem == TK_TY_F32 ? 4 : 2;
    LLVMTypeRef et = emit_scalar_type(E, tile->elem);
    if (pack == TIR_PACK_VNNI_KN || pack == TIR_PACK_ROWS_KN) {
        for (int64_t c0 = 0; c0 < cols; c0 += TK_MMA_PANEL) {
            int64_t w = cols - c0 < TK_MMA_PANEL ? cols - c0 : TK_MMA_PANEL;
            LLVMValueRef src = LLVMBuildAdd(E->b, LLVMBuildAdd(E->b, P->plane, LLVMBuildMul(E->b, P->R, emit_const_i64(E, c0), ""), ""),
                                            LLVMBuildMul(E->b, P->row0, emit_const_i64(E, w), ""), "");
            LLVMValueRef dst = emit_const_i64(E, c0 * rows);
            LLVMValueRef bytes = emit_const_i64(E, rows * w * esize);
            if (to_tile) LLVMBuildMemCpy(E->b, at(E, et, buf, dst), 2, at(E, et, tensor, src), 2, bytes);
            else LLVMBuildMemCpy(E->b, at(E, et, tensor, src), 2, at(E, et, buf, dst), 2, bytes);
        }
        return;
    }
    if (!to_tile && pack == TIR_PACK_NONE && tile->layout == TK_ROW && esize == 2 && rows % 2 == 0) {
        store_row_pairs(E, P, tensor, tile, buf);
        return;
    }
    EmitLoop Li, Lc;
    emit_loop_begin(E, &Li, emit_const_i64(E, rows), "pk.row");
    emit_loop_begin(E, &Lc, emit_const_i64(E, cols), "pk.col");
    LLVMValueRef r = LLVMBuildAdd(E->b, P->row0, Li.idx, "");
    LLVMValueRef gi = LLVMBuildAdd(E->b, P->plane, plane_offset(E, tile, r, Lc.idx, P->R), "");
    LLVMValueRef ti = emit_packed_index(E, tile, pack, Li.idx, Lc.idx);
    if (to_tile) copy(E, et, buf, ti, tensor, gi);
    else copy(E, et, tensor, gi, buf, ti);
    emit_loop_end(E, &Lc);
    emit_loop_end(E, &Li);
}

/* Any other tile: row by row, rows outside the plane skipped (a load reads 0
 * there), each element at its packed offset. */
static void transfer_edge(Emit *E, const Plane *P, LLVMValueRef tensor, const TkType *tile, LLVMValueRef buf, bool to_tile,
                          TirPack pack)
{
    int64_t rows = tile->dims[0], cols = tile->dims[1];
    LLVMTypeRef et = emit_scalar_type(E, tile->elem);
    LLVMValueRef zero = emit_const_i64(E, 0);
    if (to_tile) emit_tile_zero(E, buf, tile);
    EmitLoop Li, Lc;
    emit_loop_begin(E, &Li, emit_const_i64(E, rows), "pk.row");
    LLVMValueRef r = LLVMBuildAdd(E->b, P->row0, Li.idx, "");
    LLVMValueRef ok = bit_and(E, P->ok, bit_and(E, ge(E, r, zero), lt(E, r, P->R)));
    emit_loop_begin(E, &Lc, LLVMBuildSelect(E->b, ok, emit_const_i64(E, cols), zero, ""), "pk.ecol");
    LLVMValueRef gi = LLVMBuildAdd(E->b, P->plane, plane_offset(E, tile, r, Lc.idx, P->R), "");
    LLVMValueRef ti = emit_packed_index(E, tile, pack, Li.idx, Lc.idx);
    if (to_tile) copy(E, et, buf, ti, tensor, gi);
    else copy(E, et, tensor, gi, buf, ti);
    emit_loop_end(E, &Lc);
    emit_loop_end(E, &Li);
}

void emit_packed_transfer(Emit *E, const TkType *g, LLVMValueRef tensor, const TirInstr *const *coords, const TkType *tile,
                          LLVMValueRef buf, bool to_tile, TirPack pack)
{
    Plane P = plane_of(E, g, coords, tile);
    LLVMBasicBlockRef inside = LLVMAppendBasicBlockInContext(E->ctx, E->fn, "pk.inside");
    LLVMBasicBlockRef edge = LLVMAppendBasicBlockInContext(E->ctx, E->fn, "pk.edge");
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(E->ctx, E->fn, "pk.done");
    LLVMBuildCondBr(E->b, P.inside, inside, edge);
    LLVMPositionBuilderAtEnd(E->b, inside);
    transfer_inside(E, &P, tensor, tile, buf, to_tile, pack);
    LLVMBuildBr(E->b, join);
    LLVMPositionBuilderAtEnd(E->b, edge);
    transfer_edge(E, &P, tensor, tile, buf, to_tile, pack);
    LLVMBuildBr(E->b, join);
    LLVMPositionBuilderAtEnd(E->b, join);
}

LLVMValueRef emit_packed_view(Emit *E, const TirInstr *load, LLVMValueRef backing, LLVMValueRef *panel_stride)
{
    const TirInstr *src = load->args[0];
    const TkType *tile = load->type;
    LLVMValueRef tensor = emit_value(E, src);
    Plane P = plane_of(E, src->type, (const TirInstr *const *)&load->args[1], tile);
    LLVMTypeRef et = emit_scalar_type(E, tile->elem);
    /* all panels are 32 wide (emit_plan_views): the tile starts at plane + row0·32 */
    LLVMValueRef start = at(E, et, tensor, LLVMBuildAdd(E->b, P.plane, LLVMBuildMul(E->b, P.row0, emit_const_i64(E, TK_MMA_PANEL), ""), ""));
    LLVMValueRef plane_stride = LLVMBuildMul(E->b, P.R, emit_const_i64(E, TK_MMA_PANEL), "");
    LLVMBasicBlockRef from = LLVMGetInsertBlock(E->b);
    LLVMBasicBlockRef edge = LLVMAppendBasicBlockInContext(E->ctx, E->fn, "pk.viewedge");
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(E->ctx, E->fn, "pk.view");
    LLVMBuildCondBr(E->b, P.inside, join, edge);
    LLVMPositionBuilderAtEnd(E->b, edge);
    transfer_edge(E, &P, tensor, tile, backing, true, (TirPack)load->pack);
    LLVMBasicBlockRef edge_end = LLVMGetInsertBlock(E->b);
    LLVMBuildBr(E->b, join);
    LLVMPositionBuilderAtEnd(E->b, join);
    LLVMBasicBlockRef blocks[2] = { from, edge_end };
    LLVMValueRef p = LLVMBuildPhi(E->b, E->ptr, "view");
    LLVMValueRef ptrs[2] = { start, backing };
    LLVMAddIncoming(p, ptrs, blocks, 2);
    LLVMValueRef s = LLVMBuildPhi(E->b, E->i64, "view.stride");
    LLVMValueRef strides[2] = { plane_stride, emit_const_i64(E, TK_MMA_PANEL * tile->dims[0]) };
    LLVMAddIncoming(s, strides, blocks, 2);
    *panel_stride = s;
    return p;
}

/* ---------------------------------------------------------------- view variables */

/* Is `val` a load that a view can take: from a packed 2-byte tensor the kernel
 * never stores into (so aliasing it cannot expose a later write), already in
 * the plane's pair layout, used only by the assignment? */
static bool viewable_load(Emit *E, const TirInstr *val, const bool *stored)
{
    if (val->op != TIR_LOAD || E->uses[val->id] != 1) return false;
    const TirInstr *src = val->args[0];
    if (src->op != TIR_PARAM || src->type->kind != TK_TY_GL || src->type->layout != TK_PACKED || src->aux < 0 || stored[src->aux])
        return false;
    /* the plane's own layout: pairs for 2-byte elements, rows for f32 */
    TirPack plane = src->type->elem == TK_TY_F32 ? TIR_PACK_ROWS_KN : TIR_PACK_VNNI_KN;
    /* a narrower last panel would start a tile's rows at another offset in it */
    return val->pack == plane && val->type->elem == src->type->elem && val->type->dims[1] % TK_MMA_PANEL == 0;
}

static void note_stores(const TirRegion *r, bool *stored, unsigned nparams)
{
    for (const TirInstr *i = r->first; i; i = i->next) {
        if (i->op == TIR_STORE && i->args[0]->op == TIR_PARAM && i->args[0]->aux >= 0 && (unsigned)i->args[0]->aux < nparams)
            stored[i->args[0]->aux] = true;
        note_stores(&i->body[0], stored, nparams);
        note_stores(&i->body[1], stored, nparams);
    }
}

/* A slot packed for mma B (tir_layout.c: only declared, assigned loads, read
 * by mma) whose every assignment is a viewable load becomes a view. Starts
 * with every VNNI slot a candidate; an assignment of anything else strikes it. */
static void find_views(Emit *E, const TirRegion *r, const bool *stored, bool *bad)
{
    for (const TirInstr *i = r->first; i; i = i->next) {
        bool kn = i->op == TIR_VAR ? i->pack == TIR_PACK_VNNI_KN || i->pack == TIR_PACK_ROWS_KN : false;
        if (kn && i->type->kind == TK_TY_RT && !bad[i->id]) E->is_view[i->id] = EMIT_VIEW_PACKED;
        if (i->op == TIR_SET && E->is_view[i->args[0]->id] && !viewable_load(E, i->args[1], stored)) {
            bad[i->args[0]->id] = true;
            E->is_view[i->args[0]->id] = 0;
        }
        find_views(E, &i->body[0], stored, bad);
        find_views(E, &i->body[1], stored, bad);
    }
}

int emit_plan_views(Emit *E, const TirRegion *body)
{
    E->is_view = calloc(E->count ? E->count : 1, sizeof *E->is_view);
    E->views = calloc(E->count ? E->count : 1, sizeof *E->views);
    E->view_backing = calloc(E->count ? E->count : 1, sizeof *E->view_backing);
    E->view_strides = calloc(E->count ? E->count : 1, sizeof *E->view_strides);
    bool *stored = calloc(E->f->nparams + 1, sizeof *stored);
    bool *bad = calloc(E->count ? E->count : 1, sizeof *bad);
    int rc = E->is_view && E->views && E->view_backing && E->view_strides && stored && bad ? 0 : -1;
    if (rc == 0) {
        note_stores(body, stored, E->f->nparams);
        find_views(E, body, stored, bad);
        rc = emit_find_row_views(E, body, stored);
    }
    E->param_stored = stored;   /* element-wise fusion reads it too (emit_fuse.c) */
    free(bad);
    return rc;
}

void emit_free_views(Emit *E)
{
    free(E->is_view);
    free(E->views);
    free(E->view_backing);
    free(E->view_strides);
    free(E->param_stored);
    E->param_stored = NULL;
    E->view_strides = NULL;
    E->is_view = NULL;
    E->views = NULL;
    E->view_backing = NULL;
}

bool emit_is_view(const Emit *E, const TirInstr *slot)
{
    return E->is_view && slot->op == TIR_VAR && E->is_view[slot->id];
}

int emit_view_kind(const Emit *E, const TirInstr *slot)
{
    return emit_is_view(E, slot) ? E->is_view[slot->id] : 0;
}

/* This warp's entry of a per-warp array of `elems` elements of type t. */
static LLVMValueRef per_warp(Emit *E, LLVMTypeRef t, LLVMValueRef base, int64_t elems)
{
    if (E->f->warps == 1) return base;
    LLVMValueRef off = LLVMBuildMul(E->b, LLVMBuildZExt(E->b, E->warp, E->i64, ""), emit_const_i64(E, elems), "");
    return LLVMBuildGEP2(E->b, t, base, &off, 1, "");
}

static void make_view_storage(Emit *E, const TirInstr *slot)
{
    if (E->view_backing[slot->id]) return;
    E->views[slot->id] = emit_alloca(E, E->ptr, E->f->warps, "view");
    E->view_strides[slot->id] = emit_alloca(E, E->i64, E->f->warps, "view.stride");
    E->view_backing[slot->id] = emit_alloca(E, emit_scalar_type(E, slot->type->elem), E->f->warps * emit_warp_stride(slot->type),
                                            slot->name ? slot->name : "view.tile");
}

void emit_view_declare(Emit *E, const TirInstr *slot, bool zero)
{
    make_view_storage(E, slot);
    LLVMValueRef backing = per_warp(E, emit_scalar_type(E, slot->type->elem), E->view_backing[slot->id], emit_warp_stride(slot->type));
    if (zero) emit_tile_zero(E, backing, slot->type);
    LLVMBuildStore(E->b, backing, per_warp(E, E->ptr, E->views[slot->id], 1));
    /* its own tile: a packed tile's panel stride, or a row-major tile's width */
    int64_t own = emit_view_kind(E, slot) == EMIT_VIEW_PACKED ? TK_MMA_PANEL * slot->type->dims[0] : slot->type->dims[1];
    LLVMBuildStore(E->b, emit_const_i64(E, own), per_warp(E, E->i64, E->view_strides[slot->id], 1));
}

void emit_view_set(Emit *E, const TirInstr *slot, const TirInstr *load)
{
    make_view_storage(E, slot);
    LLVMValueRef backing = per_warp(E, emit_scalar_type(E, slot->type->elem), E->view_backing[slot->id], emit_warp_stride(slot->type));
    LLVMValueRef stride;
    LLVMValueRef p = emit_view_kind(E, slot) == EMIT_VIEW_PACKED ? emit_packed_view(E, load, backing, &stride)
                                                                 : emit_row_view(E, load, backing, &stride);
    LLVMBuildStore(E->b, p, per_warp(E, E->ptr, E->views[slot->id], 1));
    LLVMBuildStore(E->b, stride, per_warp(E, E->i64, E->view_strides[slot->id], 1));
}

LLVMValueRef emit_view_stride(Emit *E, const TirInstr *slot)
{
    make_view_storage(E, slot);
    return LLVMBuildLoad2(E->b, E->i64, per_warp(E, E->i64, E->view_strides[slot->id], 1), "");
}

LLVMValueRef emit_view_ptr(Emit *E, const TirInstr *slot)
{
    make_view_storage(E, slot);
    return LLVMBuildLoad2(E->b, E->ptr, per_warp(E, E->ptr, E->views[slot->id], 1), "");
}
