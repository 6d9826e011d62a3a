/* emit_rowview.c — A operands read in place. An rt tile loaded from a
 * row-major tensor and read only as the A of mma ops (not transposed) is the
 * micro-kernel's canonical A already, once it may have a row stride
 * (cpu_mma.h a_stride): so when the load lies wholly inside the tensor the
 * tile variable is a pointer into it, rows the tensor's width apart, and
 * only a tile that crosses an edge is copied (masked) into the variable's
 * own buffer. A 256×256 f32 A tile per K step was 4.4% of a 1024³ gemm's
 * time (6.8% at 4096³) as a copy.
 *
 * It reuses the view variables of emit_packed.c (pointer, stride and backing
 * tile per warp); the kind tells the mma which stride it is. */
#include "cpu_mma.h"
#include "emit.h"
#include "llvm_emit.h"

/* The micro-kernel row the mma will use (legalise's choice, else the target's). */
static const TkMmaKernel *mma_kernel(const Emit *E, const TirInstr *mma)
{
    if (mma->base_name) return mma->base_op;
    const void *row = NULL;
    const char *name;
    emit_select_mma((void *)E->features, mma, &row, &name, NULL, 0);
    return row;
}

static bool candidate(const TirInstr *v)
{
    const TkType *t = v->type;
    return v->op == TIR_VAR && t && t->kind == TK_TY_RT && t->rank == 2 && t->layout == TK_ROW && v->pack == TIR_PACK_NONE &&
           (t->elem == TK_TY_F32 || t->elem == TK_TY_BF16);
}

/* A load the view can stand for: from a row-major tensor the kernel never
 * stores into (aliasing it cannot expose a later write), of its own element
 * type, as it is (no packing), used only by the assignment. */
static bool viewable_load(const Emit *E, const TirInstr *val, const bool *stored)
{
    if (val->op != TIR_LOAD || E->uses[val->id] != 1 || val->pack != TIR_PACK_NONE) return false;
    const TirInstr *src = val->args[0];
    const TkType *g = src->type;
    return src->op == TIR_PARAM && g->kind == TK_TY_GL && g->layout == TK_ROW && g->rank >= 2 && src->aux >= 0 && !stored[src->aux] &&
           g->elem == val->type->elem;
}

/* A read of the slot that the view can serve: A of one mma (ab or abt) whose
 * micro-kernel takes row-major A of the tile's element type with no padding. */
static bool viewable_read(const Emit *E, const TirInstr *get, const TkType *t)
{
    if (E->uses[get->id] == 0) return true;
    const TirInstr *mma = E->user[get->id];
    if (E->uses[get->id] != 1 || mma->op != TIR_MMA || mma->args[1] != get || mma->args[0] == get || mma->args[2] == get) return false;
    if (mma->aux != 0 && mma->aux != 1) return false;   /* A transposed */
    const TkMmaKernel *k = mma_kernel(E, mma);
    return k && k->pack == TK_MMA_PACK_ROWS && k->operand == t->elem && (t->elem == TK_TY_F32 || t->dims[1] % 2 == 0);
}

/* Strike every candidate slot touched other than by a viewable SET or GET. */
static void judge(const Emit *E, const TirRegion *r, const bool *stored, bool *bad)
{
    for (const TirInstr *i = r->first; i; i = i->next) {
        for (unsigned k = 0; k < i->nargs; k++) {
            const TirInstr *s = i->args[k];
            if (!s || !candidate(s)) continue;
            bool ok = (i->op == TIR_GET && viewable_read(E, i, s->type)) ||
                      (i->op == TIR_SET && k == 0 && viewable_load(E, i->args[1], stored));
            if (!ok) bad[s->id] = true;
        }
        judge(E, &i->body[0], stored, bad);
        judge(E, &i->body[1], stored, bad);
    }
}

static void mark(Emit *E, const TirRegion *r, const bool *bad)
{
    for (const TirInstr *i = r->first; i; i = i->next) {
        if (candidate(i) && !bad[i->id] && !E->is_view[i->id]) E->is_view[i->id] = EMIT_VIEW_ROWS;
        mark(E, &i->body[0], bad);
        mark(E, &i->body[1], bad);
    }
}

void emit_find_row_views(Emit *E, const TirRegion *body, const bool *stored, bool *bad)
{
    if (!E->features) return;   /* no micro-kernel, no canonical A */
    judge(E, body, stored, bad);
    mark(E, body, bad);
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
    LLVMBasicBlockRef from = LLVMGetInsertBlock(E->b);
    LLVMBasicBlockRef edge = LLVMAppendBasicBlockInContext(E->ctx, E->fn, "row.viewedge");
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(E->ctx, E->fn, "row.view");
    LLVMBuildCondBr(E->b, inside, join, edge);
    LLVMPositionBuilderAtEnd(E->b, edge);
    emit_gl_transfer(E, g, tensor, coords, tile, backing, true, TIR_PACK_NONE);
    LLVMBasicBlockRef edge_end = LLVMGetInsertBlock(E->b);
    LLVMBuildBr(E->b, join);
    LLVMPositionBuilderAtEnd(E->b, join);
    LLVMBasicBlockRef blocks[2] = { from, edge_end };
    LLVMValueRef p = LLVMBuildPhi(E->b, E->ptr, "row.view");
    LLVMValueRef ptrs[2] = { start, backing };
    LLVMAddIncoming(p, ptrs, blocks, 2);
    LLVMValueRef s = LLVMBuildPhi(E->b, E->i64, "row.stride");
    LLVMValueRef strides[2] = { width, emit_const_i64(E, tile->dims[1]) };
    LLVMAddIncoming(s, strides, blocks, 2);
    *row_stride = s;
    return p;
}
