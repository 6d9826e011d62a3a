/* gpu_global.c — global tensors on GPUs: their extents (size variables are
 * kernel parameters), where each element a lane holds of a register tile
 * sits in a tensor, and register tiles loaded from and stored to them.
 *
 * A LOAD computes each lane element's tensor index and
 * in-bounds mask as vectors, reads every element from a safe index (the
 * element itself, or element 0 when masked; the tensor is checked to be
 * non-empty first) and zeroes the masked ones: no out-of-bounds read, no
 * branch per element. A STORE writes each element under its own condition. */
#include <stdlib.h>
#include <stdio.h>

#include "emit.h"
#include "gpu_internal.h"

/* the value of size variable var: a kernel parameter after the tensors */
LLVMValueRef gpu_size_arg(GpuLower *g, unsigned var) { return LLVMGetParam(g->fn, g->f->nparams + var); }

LLVMValueRef gpu_tensor_dim(GpuLower *g, const TkType *t, unsigned d)
{
    const TkPoly *p = &t->gdims[d];
    LLVMValueRef sum = c64(g, 0);
    for (unsigned k = 0; k < p->nterms; k++) {
        const TkMono *mo = &p->terms[k];
        LLVMValueRef term = c64(g, mo->coef);
        for (unsigned v = 0; v < mo->nvars; v++) term = LLVMBuildMul(g->e.b, term, gpu_size_arg(g, (unsigned)mo->vars[v]), "");
        sum = LLVMBuildAdd(g->e.b, sum, term, "");
    }
    return sum;
}

/* The row and column within the tile of each element the lane holds. */
void gpu_tile_rc(GpuLower *g, const TkType *t, LLVMValueRef *row, LLVMValueRef *col)
{
    Frags F;
    gpu_frags_of(g->row, t, &F);
    gpu_frags_rc(g, &F, row, col);
}

/* Per-lane tensor indices and in-bounds mask of every element of an rt
 * tile at tile coordinates coords[] of gl tensor type gt. */
static Access tile_access(GpuLower *g, const TkType *gt, const TirInstr *const *coords, const TkType *tile)
{
    LLVMBuilderRef B = g->e.b;
    Access A;
    Frags F;
    gpu_frags_of(g->row, tile, &F);
    unsigned n = (unsigned)F.n, rank = gt->rank, lead = rank - 2;
    LLVMTypeRef v64 = LLVMVectorType(g->e.i64, n);
    /* leading indices and the tensor's extent */
    LLVMValueRef base_ok = LLVMConstInt(g->e.i1, 1, 0), lead_off = c64(g, 0), numel = c64(g, 1);
    for (unsigned d = 0; d < rank; d++) numel = LLVMBuildMul(B, numel, gpu_tensor_dim(g, gt, d), "");
    for (unsigned d = 0; d < lead; d++) {
        LLVMValueRef x = gpu_i64v(g, gpu_val(g, coords[d])), dim = gpu_tensor_dim(g, gt, d);
        LLVMValueRef ok = LLVMBuildAnd(B, LLVMBuildICmp(B, LLVMIntSGE, x, c64(g, 0), ""), LLVMBuildICmp(B, LLVMIntSLT, x, dim, ""), "");
        base_ok = LLVMBuildAnd(B, base_ok, ok, "");
        lead_off = LLVMBuildAdd(B, LLVMBuildMul(B, lead_off, dim, ""), x, "");
    }
    LLVMValueRef nrows = gpu_tensor_dim(g, gt, rank - 2), ncols = gpu_tensor_dim(g, gt, rank - 1);
    LLVMValueRef row0 = LLVMBuildMul(B, gpu_i64v(g, gpu_val(g, coords[rank - 2])), c64(g, tile->dims[0]), "");
    LLVMValueRef col0 = LLVMBuildMul(B, gpu_i64v(g, gpu_val(g, coords[rank - 1])), c64(g, tile->dims[1]), "");
    LLVMValueRef trow, tcol;
    gpu_tile_rc(g, tile, &trow, &tcol);
    LLVMValueRef grow = LLVMBuildAdd(B, gpu_splat(g, row0, n), trow, "row");
    LLVMValueRef gcol = LLVMBuildAdd(B, gpu_splat(g, col0, n), tcol, "col");
    LLVMValueRef zero = LLVMConstNull(v64);
    LLVMValueRef m = LLVMBuildICmp(B, LLVMIntSGE, grow, zero, "");
    m = LLVMBuildAnd(B, m, LLVMBuildICmp(B, LLVMIntSLT, grow, gpu_splat(g, nrows, n), ""), "");
    m = LLVMBuildAnd(B, m, LLVMBuildICmp(B, LLVMIntSGE, gcol, zero, ""), "");
    m = LLVMBuildAnd(B, m, LLVMBuildICmp(B, LLVMIntSLT, gcol, gpu_splat(g, ncols, n), ""), "");
    A.mask = LLVMBuildAnd(B, m, gpu_splat(g, base_ok, n), "inbounds");
    LLVMValueRef rowbase = gpu_splat(g, LLVMBuildMul(B, lead_off, nrows, ""), n);
    A.idx = LLVMBuildAdd(B, LLVMBuildMul(B, LLVMBuildAdd(B, rowbase, grow, ""), gpu_splat(g, ncols, n), ""), gcol, "idx");
    A.nonempty = LLVMBuildICmp(B, LLVMIntSGT, numel, c64(g, 0), "");
    return A;
}

/* The n elements of A from base (elements of ety), 0 where masked off. An
 * empty tensor's pointer may be anything: nothing is read from it. */
LLVMValueRef gpu_gather(GpuLower *g, LLVMValueRef base, LLVMTypeRef ety, Access A, unsigned n)
{
    LLVMBuilderRef B = g->e.b;
    LLVMTypeRef vty = LLVMVectorType(ety, n);
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(B);
    LLVMBasicBlockRef rd = LLVMAppendBasicBlockInContext(g->e.ctx, g->fn, "load");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->e.ctx, g->fn, "load.done");
    LLVMBuildCondBr(B, A.nonempty, rd, done);
    LLVMPositionBuilderAtEnd(B, rd);
    LLVMValueRef safe = LLVMBuildSelect(B, A.mask, A.idx, LLVMConstNull(LLVMVectorType(g->e.i64, n)), "");
    LLVMValueRef v = LLVMGetPoison(vty);
    for (unsigned p = 0; p < n; p++) {
        LLVMValueRef ix = LLVMBuildExtractElement(B, safe, c32(g, p), "");
        LLVMValueRef x = LLVMBuildLoad2(B, ety, LLVMBuildGEP2(B, ety, base, &ix, 1, ""), "");
        v = LLVMBuildInsertElement(B, v, x, c32(g, p), "");
    }
    v = LLVMBuildSelect(B, A.mask, v, LLVMConstNull(vty), "");
    LLVMBasicBlockRef rd_end = LLVMGetInsertBlock(B);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, done);
    LLVMValueRef phi = LLVMBuildPhi(B, vty, "gathered");
    LLVMValueRef zero = LLVMConstNull(vty);
    LLVMAddIncoming(phi, &v, &rd_end, 1);
    LLVMAddIncoming(phi, &zero, &pre, 1);
    return phi;
}

/* Element p of v to base[idx[p]] where mask[p]. */
void gpu_scatter(GpuLower *g, LLVMValueRef base, LLVMTypeRef ety, Access A, LLVMValueRef v, unsigned n)
{
    LLVMBuilderRef B = g->e.b;
    for (unsigned p = 0; p < n; p++) {
        LLVMValueRef ok = LLVMBuildExtractElement(B, A.mask, c32(g, p), "");
        LLVMBasicBlockRef wr = LLVMAppendBasicBlockInContext(g->e.ctx, g->fn, "store");
        LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(g->e.ctx, g->fn, "store.next");
        LLVMBuildCondBr(B, ok, wr, next);
        LLVMPositionBuilderAtEnd(B, wr);
        LLVMValueRef ix = LLVMBuildExtractElement(B, A.idx, c32(g, p), "");
        LLVMBuildStore(B, LLVMBuildExtractElement(B, v, c32(g, p), ""), LLVMBuildGEP2(B, ety, base, &ix, 1, ""));
        LLVMBuildBr(B, next);
        LLVMPositionBuilderAtEnd(B, next);
    }
}

LLVMValueRef gpu_tile_load(GpuLower *g, const TirInstr *i)
{
    const TirInstr *src = i->args[0];
    const TkType *t = i->type, *gt = src->type;
    Frags F;
    gpu_frags_of(g->row, t, &F);
    unsigned n = (unsigned)F.n;
    Access A = tile_access(g, gt, (const TirInstr *const *)&i->args[1], t);
    if (g->status) return LLVMGetPoison(gpu_tile_type(g, t));
    /* bf16 tiles hold bits (i16); f32 tiles read f32, or bf16/f16 widened */
    bool wide = t->elem == TK_TY_F32;
    LLVMTypeRef ety = wide ? emit_scalar_type(&g->e, gt->elem) : g->e.i16;
    LLVMValueRef v = gpu_gather(g, gpu_val(g, src), ety, A, n);
    if (wide && gt->elem != TK_TY_F32) return LLVMBuildFPExt(g->e.b, v, LLVMVectorType(g->e.f32, n), "");
    return v;
}

void gpu_tile_store(GpuLower *g, const TirInstr *i)
{
    const TirInstr *dst = i->args[0];
    const TkType *t = i->args[1]->type, *gt = dst->type;
    Frags F;
    gpu_frags_of(g->row, t, &F);
    Access A = tile_access(g, gt, (const TirInstr *const *)&i->args[2], t);
    if (g->status) return;
    gpu_scatter(g, gpu_val(g, dst), gpu_elem_type(g, t->elem), A, gpu_val(g, i->args[1]), (unsigned)F.n);
}
