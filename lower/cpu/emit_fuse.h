/* emit_fuse.h — what the files of element-wise fusion share (emit_fuse.c:
 * the fused DAGs and their loops; emit_reduce.c: reductions ending a DAG;
 * emit_store.c: stores of a DAG straight into a tensor). Private to lower/cpu. */
#ifndef TK_LOWER_CPU_EMIT_FUSE_H
#define TK_LOWER_CPU_EMIT_FUSE_H

#include "emit.h"

/* One root's loop, emitted by fuse_run; `inside`: every tile it touches lies
 * wholly inside its tensor (constant trip counts, no clipping). */
typedef void (*FusedLoop)(Emit *E, const void *ctx, bool inside);

/* A body called by fuse_lanes_run for each vector of lanes at (i, j). */
typedef void (*LanesBody)(Emit *E, const void *ctx, LLVMValueRef i, LLVMValueRef j);

/* Marks what root x computes and which loads it reads in place. */
void fuse_prepare(Emit *E, const TirInstr *x);
/* Emits loop twice: for interior tiles (loads read in place; store_inside
 * says the stored tile is inside too) and for edge tiles. */
void fuse_run(Emit *E, LLVMValueRef store_inside, FusedLoop loop, const void *ctx);
/* Element (i, j) of fused node x, as a scalar (fuse_elem) or, in a lanes
 * loop, a vector of E->fuse_lanes elements (fuse_node). */
LLVMValueRef fuse_elem(Emit *E, const TirInstr *x, LLVMValueRef i, LLVMValueRef j);
LLVMValueRef fuse_node(Emit *E, const TirInstr *x, LLVMValueRef i, LLVMValueRef j);
/* Can DAG x be computed in vectors of consecutive elements (memo: a byte per
 * instruction id, zeroed)? */
bool fuse_lanes_fit(Emit *E, const TirInstr *x, int depth, uint8_t *memo);
/* Lanes a root of type t computes in vectors of (0: a loop instead). */
unsigned fuse_root_lanes(Emit *E, const TirInstr *x, const TkType *t);
void fuse_lanes_run(Emit *E, int64_t rows, int64_t cols, unsigned n, LanesBody body, const void *ctx);
/* A scalar operand as f32 (bf16/f16 widened). */
LLVMValueRef fuse_scalar_f32(Emit *E, const TirInstr *s);
/* Ends an element loop of type t (the loop vectoriser's hints for 16-bit floats). */
void fuse_end_element_loop(Emit *E, EmitLoop *L, const TkType *t);

#endif
