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

int gpu_exchange_need(GpuLower *g, const TirInstr *i, const TkType *from, const TkType *to)
{
    char ty[128], ty2[128], what[400];
    if (from->elem != TK_TY_F32 && !gpu_half(from->elem)) {
        snprintf(what, sizeof what, "%s %s into %s (on %s this moves elements between lanes, which is done for bf16 and f32 tiles)",
                 i->op == TIR_MMA ? "with an operand" : "of", gpu_type_str(from, ty, sizeof ty), gpu_type_str(to, ty2, sizeof ty2),
                 g->cpu);
        return gpu_not_supported(g, i, what);
    }
    gpu_scratch_need(g, to->dims[0] * to->dims[1] * gpu_elem_bytes(from->elem));
    return 0;
}

void gpu_scratch_need(GpuLower *g, int64_t bytes)
{
    if (bytes > g->exchange_bytes) g->exchange_bytes = (bytes + 15) / 16 * 16;
}

LLVMValueRef gpu_scratch(GpuLower *g)
{
    LLVMBuilderRef B = g->e.b;
    LLVMValueRef off = LLVMBuildMul(B, LLVMBuildZExt(B, g->warp, g->e.i64, ""), c64(g, g->exchange_bytes), "");
    return LLVMBuildGEP2(B, LLVMInt8TypeInContext(g->e.ctx), g->exchange, &off, 1, "scratch");
}

void gpu_scratch_put(GpuLower *g, LLVMValueRef base, LLVMTypeRef et, Cells c, LLVMValueRef v)
{
    LLVMBuilderRef B = g->e.b;
    for (unsigned p = 0; c.off && p < c.n; p++) {
        LLVMValueRef ix = LLVMBuildAdd(B, c.at, c64(g, c.off[p]), "");
        LLVMBuildStore(B, LLVMBuildExtractElement(B, v, c32(g, p), ""), LLVMBuildGEP2(B, et, base, &ix, 1, ""));
    }
}

LLVMValueRef gpu_scratch_get(GpuLower *g, LLVMValueRef base, LLVMTypeRef et, Cells c)
{
    LLVMBuilderRef B = g->e.b;
    LLVMValueRef out = LLVMGetPoison(LLVMVectorType(et, c.n ? c.n : 1));
    for (unsigned p = 0; c.off && p < c.n; p++) {
        LLVMValueRef ix = LLVMBuildAdd(B, c.at, c64(g, c.off[p]), "");
        out = LLVMBuildInsertElement(B, out, LLVMBuildLoad2(B, et, LLVMBuildGEP2(B, et, base, &ix, 1, ""), ""), c32(g, p), "");
    }
    return out;
}

LLVMValueRef gpu_exchange(GpuLower *g, LLVMValueRef v, const TkType *from, const TkType *to, Role role, bool transpose)
{
    Frags S, D;
    gpu_frags_of(g->row, from, &S);
    gpu_frags_as(g->row, to, role, &D);
    LLVMTypeRef et = gpu_elem_type(g, from->elem);
    LLVMValueRef base = gpu_scratch(g), zero = c64(g, 0);
    /* each of the lane's elements to its cell of the new tile (of the transpose: element (r, c) at (c, r)) */
    Cells put = gpu_tile_cells(g, &S, zero, zero, to->dims[1], transpose);
    gpu_scratch_put(g, base, et, put, v);
    gpu_cells_free(&put);
    gpu_warp_sync(g);
    Cells get = gpu_tile_cells(g, &D, zero, zero, to->dims[1], false);
    LLVMValueRef out = gpu_scratch_get(g, base, et, get);
    gpu_cells_free(&get);
    gpu_warp_sync(g);
    return out;
}
