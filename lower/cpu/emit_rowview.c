/* emit_rowview.c — mma operands read in place from row-major tensors ("row
 * views", CPU).
 *
 * An rt tile loaded from a row-major tensor and read only as the A of mma
 * ops (not transposed) is the micro-kernel's canonical A already, once A may
 * have a row stride (cpu_mma.h a_stride): so where the load lies wholly
 * inside the tensor the tile variable is a pointer into it, rows the
 * tensor's width apart, and only a tile that crosses an edge is copied
 * (masked) into the variable's own buffer. A 256×256 f32 A tile per K step
 * was 4.4% of a 1024³ gemm's time (6.8% at 4096³) as a copy.
 *
 * The same holds for an f32 B of mma_ab whose tile is whole 32-column panels:
 * a row-major K×N block is the micro-kernel's panel layout with panel stride
 * 32 and a row stride (b_row_stride). Its own buffer then holds the tile
 * row-major too (not in panels), so one stride describes both cases. The
 * copy into panels was ~5% of a 32³ or 64³ product. (bf16 B wants k pairs
 * interleaved, which a row-major tensor is not.)
 *
 * It reuses the view variables of emit_packed.c (pointer, stride and backing
 * tile per warp); the kind tells the mma which operand and stride it is. */
#include "cpu_mma.h"
#include "emit.h"

#include <stdlib.h>

/* Which row view slot v could be: EMIT_VIEW_ROWS (an A), EMIT_VIEW_ROWS_B (a B
 * that tir_layout.c gave the f32 panel packing), or 0. */
static int candidate(const TirInstr *v)
{
    const TkType *t = v->type;
    if (v->op != TIR_VAR || !t || t->kind != TK_TY_RT || t->rank != 2) return 0;
    if (v->pack == TIR_PACK_NONE && t->layout == TK_ROW && (t->elem == TK_TY_F32 || t->elem == TK_TY_BF16)) return EMIT_VIEW_ROWS;
    if (v->pack == TIR_PACK_ROWS_KN && t->elem == TK_TY_F32 && t->dims[1] % TK_MMA_PANEL == 0) return EMIT_VIEW_ROWS_B;
    return 0;
}

/* A load the view can stand for: from a row-major tensor the kernel never
 * stores into (aliasing it cannot expose a later write), of its own element
 * type, used only by the assignment. */
static bool viewable_load(const Emit *E, const TirInstr *val, const bool *stored)
{
    if (val->op != TIR_LOAD || E->uses[val->id] != 1) return false;
    const TirInstr *src = val->args[0];
    const TkType *g = src->type;
    return src->op == TIR_PARAM && g->kind == TK_TY_GL && g->layout == TK_ROW && g->rank >= 2 && src->aux >= 0 && !stored[src->aux] &&
           g->elem == val->type->elem;
}

/* A read of the slot that the view can serve: the operand of one mma whose
 * micro-kernel takes row-major operands of the tile's type with no padding —
 * A of ab or abt, or B of ab or atb. */
static bool viewable_read(const Emit *E, const TirInstr *get, const TkType *t, int kind)
{
    if (E->uses[get->id] == 0) return true;
    const TirInstr *mma = E->user[get->id];
    if (E->uses[get->id] != 1 || mma->op != TIR_MMA) return false;
    unsigned arg = kind == EMIT_VIEW_ROWS ? 1 : 2;
    for (unsigned k = 0; k < 3; k++)
        if ((mma->args[k] == get) != (k == arg)) return false;
    bool at = mma->aux == 2 || mma->aux == 3, bt = mma->aux == 1 || mma->aux == 3;
    if (kind == EMIT_VIEW_ROWS ? at : bt) return false;   /* that operand transposed */
    const TkMmaKernel *k = emit_mma_kernel(E, mma);
    return k && k->pack == TK_MMA_PACK_ROWS && k->operand == t->elem && (t->elem == TK_TY_F32 || t->dims[1] % 2 == 0);
}

/* Strike every candidate slot touched other than by a viewable SET or GET. */
static void judge(const Emit *E, const TirRegion *r, const bool *stored, bool *bad)
{
    for (const TirInstr *i = r->first; i; i = i->next) {
        for (unsigned k = 0; k < i->nargs; k++) {
            const TirInstr *s = i->args[k];
            int kind = s ? candidate(s) : 0;
            if (!kind) continue;
            bool ok = (i->op == TIR_GET && viewable_read(E, i, s->type, kind)) ||
                      (i->op == TIR_SET && k == 0 && viewable_load(E, i->args[1], stored) &&
                       i->args[1]->pack == (kind == EMIT_VIEW_ROWS ? TIR_PACK_NONE : TIR_PACK_ROWS_KN));
            if (!ok) bad[s->id] = true;
        }
        judge(E, &i->body[0], stored, bad);
        judge(E, &i->body[1], stored, bad);
    }
}

static void mark(Emit *E, const TirRegion *r, const bool *bad)
{
    for (const TirInstr *i = r->first; i; i = i->next) {
        int kind = candidate(i);
        if (kind && !bad[i->id] && !E->is_view[i->id]) E->is_view[i->id] = (uint8_t)kind;
        mark(E, &i->body[0], bad);
        mark(E, &i->body[1], bad);
    }
}

int emit_find_row_views(Emit *E, const TirRegion *body, const bool *stored)
{
    if (!E->features) return 0;   /* no micro-kernel, no canonical operands */
    bool *bad = calloc(E->count ? E->count : 1, sizeof *bad);
    if (!bad) return -1;
    judge(E, body, stored, bad);
    mark(E, body, bad);
    free(bad);
    return 0;
}

LLVMValueRef emit_row_view(Emit *E, const TirInstr *load, LLVMValueRef backing, LLVMValueRef *row_stride)
{
    const TirInstr *src = load->args[0];
    const TkType *g = src->type, *tile = load->type;
    const TirInstr *const *coords = (const TirInstr *const *)&load->args[1];
    LLVMValueRef tensor = emit_value(E, src), off;
    LLVMValueRef inside = emit_gl_tile_at(E, g, coords, tile, &off);   /* evaluates the coordinates here, before the branch */
    LLVMValueRef width = emit_tensor_dim(E, g, g->rank - 1);
    LLVMValueRef start = LLVMBuildGEP2(E->b, emit_scalar_type(E, tile->elem), tensor, &off, 1, "");
    bool is_b = load->pack == TIR_PACK_ROWS_KN;   /* names for dumps (and tests): an A or a B in place */
    LLVMBasicBlockRef from = LLVMGetInsertBlock(E->b);
    LLVMBasicBlockRef edge = LLVMAppendBasicBlockInContext(E->ctx, E->fn, is_b ? "rowb.edge" : "row.edge");
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(E->ctx, E->fn, is_b ? "rowb.inplace" : "row.inplace");
    LLVMBuildCondBr(E->b, inside, join, edge);
    LLVMPositionBuilderAtEnd(E->b, edge);
    TkType plain = *tile;   /* its own buffer row-major too (a B's type says col) */
    plain.layout = TK_ROW;
    emit_gl_transfer(E, g, tensor, coords, &plain, backing, true, TIR_PACK_NONE);
    LLVMBasicBlockRef edge_end = LLVMGetInsertBlock(E->b);
    LLVMBuildBr(E->b, join);
    LLVMPositionBuilderAtEnd(E->b, join);
    LLVMBasicBlockRef blocks[2] = { from, edge_end };
    LLVMValueRef p = LLVMBuildPhi(E->b, E->ptr, is_b ? "rowb.view" : "row.view");
    LLVMValueRef ptrs[2] = { start, backing };
    LLVMAddIncoming(p, ptrs, blocks, 2);
    LLVMValueRef s = LLVMBuildPhi(E->b, E->i64, "row.stride");
    LLVMValueRef strides[2] = { width, emit_const_i64(E, tile->dims[1]) };
    LLVMAddIncoming(s, strides, blocks, 2);
    *row_stride = s;
    return p;
}
