/* emit_gl.h — private to lower/cpu: how tile loads and stores reach a global
 * tensor (emit_gl.c), shared with the element-wise fusion of emit_fuse.c,
 * which reads interior tiles in place and copies edge tiles first. */
#ifndef TK_LOWER_EMIT_GL_H
#define TK_LOWER_EMIT_GL_H

#include "emit.h"
#include "tir_layout.h"

/* Tensor access geometry of one load/store: for a tile of `rows`×`cols` at
 * tile coordinates, which rows/columns of the tensor exist. */
typedef struct {
    LLVMValueRef base_ok;     /* i1: leading indices in range */
    LLVMValueRef lead_off;    /* i64: offset of the leading indices, in units of the last two dims */
    LLVMValueRef row0, col0;  /* i64: first tensor row/column the tile covers */
    LLVMValueRef nrows, ncols;/* i64: tensor extent of the last two dims (nrows = 1 for vectors) */
} Geometry;

Geometry emit_gl_geometry(Emit *E, const TkType *g, const TirInstr *const *coords, const TkType *tile);
/* For row i of the tile: its offset in the tensor and the column range [jlo, jhi) that exists. */
void emit_gl_row_range(Emit *E, const Geometry *G, LLVMValueRef i, int64_t cols, LLVMValueRef *row_off, LLVMValueRef *jlo,
                       LLVMValueRef *jhi);
/* i1: does the whole rows × cols tile lie inside the tensor? */
LLVMValueRef emit_gl_tile_inside(Emit *E, const Geometry *G, int64_t rows, int64_t cols);
/* The copy of a tile across an edge (to_tile: tensor → buf, what is missing reads 0). */
void emit_gl_transfer_masked(Emit *E, const Geometry *G, LLVMValueRef tensor, const TkType *tile, LLVMValueRef buf, bool to_tile,
                             TirPack pack);
/* Transposes 16 vectors of 16 elements in registers. */
void emit_transpose16(Emit *E, LLVMValueRef rows[16]);
/* Where emit_transpose_words puts source column t of source rows s0..s0+15:
 * the word index of the first of 16 consecutive destination words. */
typedef LLVMValueRef (*EmitTransposeDst)(Emit *E, const void *ctx, LLVMValueRef s0, LLVMValueRef t);
/* Copies an n×w block of words (bits 32: f32 elements or bf16 pairs; 16: one
 * 16-bit element) transposed: source row s (w consecutive words) starts at
 * word src_first + s·src_stride of src, and word (s, t) goes to dst word
 * dst_word(s0, t) + s − s0 (s0: s rounded down to 16). In 16×16 register
 * blocks: 16 row loads, emit_transpose16, 16 vector stores. n and w are
 * multiples of 16. */
void emit_transpose_words(Emit *E, unsigned bits, LLVMValueRef src, LLVMValueRef src_first, LLVMValueRef src_stride,
                          LLVMValueRef dst, EmitTransposeDst dst_word, const void *ctx, int64_t n, int64_t w);

/* emit_transpose_words into the mma's f32 B panels (cpu_mma.h): source row
 * s is column s of B (n = N of them), its word t is B(t, s); panels of
 * TK_MMA_PANEL columns, k rows each, the last one narrower. */
typedef struct {
    int64_t n, k;
} EmitPanelRuns;
LLVMValueRef emit_panel_run(Emit *E, const void *ctx, LLVMValueRef s0, LLVMValueRef t);

static inline LLVMValueRef elem_ptr(Emit *E, const TkType *t, LLVMValueRef base, LLVMValueRef idx)
{
    return LLVMBuildGEP2(E->b, emit_elem_type(E, t), base, &idx, 1, "");
}

static inline LLVMValueRef i64v(Emit *E, LLVMValueRef v)
{
    unsigned w = LLVMGetIntTypeWidth(LLVMTypeOf(v));
    return w == 64 ? v : LLVMBuildSExt(E->b, v, E->i64, "");
}

static inline LLVMValueRef smax(Emit *E, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildSelect(E->b, LLVMBuildICmp(E->b, LLVMIntSGT, a, b, ""), a, b, "");
}

static inline LLVMValueRef smin(Emit *E, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildSelect(E->b, LLVMBuildICmp(E->b, LLVMIntSLT, a, b, ""), a, b, "");
}

#endif
