/* gpu_exchange.c — register tiles whose new layout moves elements between
 * lanes (gpu_elementwise.c handles the layouts that stay in each lane).
 *
 * transpose(t), a convert between layouts, or an mma operand in another
 * layout than the instruction's sometimes needs elements that other lanes
 * hold: a row tile transposed (lane l holds row l/4, the transpose needs
 * column l/4), or AMD's MFMA accumulator as an A operand. Those go through
 * shared memory: each warp owns a scratch area as large as the largest such
 * tile of the kernel (placed once, after the kernel's shared tiles are
 * counted), every lane writes its elements at their place in the new tile,
 * the warp meets (the vendor's warp_sync: bar.warp.sync on NVIDIA), every
 * lane reads its elements of the new layout, and the warp meets again so
 * that the next exchange cannot overwrite what a slower lane has not read.
 * One scalar access per element; bank conflicts are not avoided yet. */
#include <stdio.h>
#include <stdlib.h>

#include "gpu_internal.h"

static int64_t elem_bytes(TkTypeKind k) { return k == TK_TY_F32 ? 4 : 2; }

int gpu_exchange_need(GpuLower *g, const TirInstr *i, const TkType *from, const TkType *to)
{
    char ty[128], ty2[128], what[400];
    if (from->elem != TK_TY_F32 && from->elem != TK_TY_BF16) {
        snprintf(what, sizeof what, "%s %s into %s (on %s this moves elements between lanes, which is done for bf16 and f32 tiles)",
                 i->op == TIR_MMA ? "with an operand" : "of", gpu_type_str(from, ty, sizeof ty), gpu_type_str(to, ty2, sizeof ty2),
                 g->cpu);
        return gpu_not_supported(g, i, what);
    }
    int64_t bytes = to->dims[0] * to->dims[1] * elem_bytes(from->elem);
    if (bytes > g->exchange_bytes) g->exchange_bytes = (bytes + 15) / 16 * 16;
    return 0;
}

/* <n x i64>: the index in a row-major [rows][cols] array of each element the
 * lane holds in layout F, or of its transpose (element (r, c) at (c, r)) */
static LLVMValueRef cell_index(GpuLower *g, const Frags *F, int64_t cols, bool transpose)
{
    LLVMValueRef r, c;
    gpu_frags_rc(g, F, &r, &c);
    if (transpose) {
        LLVMValueRef t = r;
        r = c;
        c = t;
    }
    return LLVMBuildAdd(g->e.b, LLVMBuildMul(g->e.b, r, gpu_splat(g, c64(g, cols), (unsigned)F->n), ""), c, "cell");
}

LLVMValueRef gpu_exchange(GpuLower *g, LLVMValueRef v, const TkType *from, const TkType *to, Role role, bool transpose)
{
    LLVMBuilderRef B = g->e.b;
    Frags S, D;
    gpu_frags_of(g->row, from, &S);
    gpu_frags_as(g->row, to, role, &D);
    LLVMTypeRef et = gpu_elem_type(g, from->elem);
    TkGpuBuilder gb = { g->e.ctx, g->e.mod, g->e.b, g->env };
    LLVMValueRef off = LLVMBuildMul(B, LLVMBuildZExt(B, g->warp, g->e.i64, ""), c64(g, g->exchange_bytes), "");
    LLVMValueRef base = LLVMBuildGEP2(B, LLVMInt8TypeInContext(g->e.ctx), g->exchange, &off, 1, "scratch");
    /* where each of the lane's elements goes: its cell of the new tile */
    LLVMValueRef put = cell_index(g, &S, to->dims[1], transpose);
    for (unsigned p = 0; p < (unsigned)S.n; p++) {
        LLVMValueRef ix = LLVMBuildExtractElement(B, put, c32(g, p), "");
        LLVMBuildStore(B, LLVMBuildExtractElement(B, v, c32(g, p), ""), LLVMBuildGEP2(B, et, base, &ix, 1, ""));
    }
    g->v->warp_sync(&gb);
    LLVMValueRef get = cell_index(g, &D, to->dims[1], false), out = LLVMGetPoison(LLVMVectorType(et, (unsigned)D.n));
    for (unsigned p = 0; p < (unsigned)D.n; p++) {
        LLVMValueRef ix = LLVMBuildExtractElement(B, get, c32(g, p), "");
        out = LLVMBuildInsertElement(B, out, LLVMBuildLoad2(B, et, LLVMBuildGEP2(B, et, base, &ix, 1, ""), ""), c32(g, p), "");
    }
    g->v->warp_sync(&gb);
    return out;
}
