/* emit_gl.c — tile and vector transfers between register buffers and global
 * tensors: the geometry of a load or store (which rows and columns exist), the
 * fast path of a tile wholly inside its tensor (wide moves, packed B panels,
 * 16×16 word transposes), and the masked path of a tile across an edge. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_mma.h"
#include "emit_gl.h"
#include "llvm_emit.h"

/* A tile coordinate clamped to ±2^40: still outside every tensor (dims are
 * below 2^31) but far from overflowing when multiplied by a tile size, so a
 * huge i64 coordinate is masked instead of wrapping into the tensor. */
static LLVMValueRef tile_coord(Emit *E, const TirInstr *c)
{
    LLVMValueRef v = i64v(E, emit_value(E, c));
    LLVMValueRef lim = emit_const_i64(E, (int64_t)1 << 40);
    return smax(E, smin(E, v, lim), LLVMBuildNeg(E->b, lim, ""));
}

Geometry emit_gl_geometry(Emit *E, const TkType *g, const TirInstr *const *coords, const TkType *tile)
{
    Geometry G;
    unsigned n = g->rank, tdims = tile->rank;
    unsigned lead = n - tdims;
    G.base_ok = LLVMConstInt(E->i1, 1, 0);
    G.lead_off = emit_const_i64(E, 0);
    for (unsigned d = 0; d < lead; d++) {
        LLVMValueRef idx = i64v(E, emit_value(E, coords[d]));
        LLVMValueRef dim = emit_tensor_dim(E, g, d);
        /* 0 <= idx < dim as one unsigned compare: a negative idx is huge. A
         * dim is a polynomial of the sizes that may come out negative (N − 4
         * with N < 4), which must still hold nothing: hence max(dim, 0), a
         * loop invariant. */
        LLVMValueRef ok = LLVMBuildICmp(E->b, LLVMIntULT, idx, smax(E, dim, emit_const_i64(E, 0)), "");
        G.base_ok = LLVMBuildAnd(E->b, G.base_ok, ok, "");
        G.lead_off = LLVMBuildAdd(E->b, LLVMBuildMul(E->b, G.lead_off, dim, ""), idx, "");
    }
    if (tdims == 2) {
        G.nrows = emit_tensor_dim(E, g, n - 2);
        G.ncols = emit_tensor_dim(E, g, n - 1);
        G.row0 = LLVMBuildMul(E->b, tile_coord(E, coords[n - 2]), emit_const_i64(E, tile->dims[0]), "");
        G.col0 = LLVMBuildMul(E->b, tile_coord(E, coords[n - 1]), emit_const_i64(E, tile->dims[1]), "");
    } else {
        G.nrows = emit_const_i64(E, 1);
        G.ncols = emit_tensor_dim(E, g, n - 1);
        G.row0 = emit_const_i64(E, 0);
        G.col0 = LLVMBuildMul(E->b, tile_coord(E, coords[n - 1]), emit_const_i64(E, tile->dims[0]), "");
    }
    return G;
}

/* For row i of the tile: is it inside the tensor, where does it start in the
 * tensor, and which column range [jlo, jhi) of the tile exists. */
void emit_gl_row_range(Emit *E, const Geometry *G, LLVMValueRef i, int64_t cols, LLVMValueRef *row_off, LLVMValueRef *jlo,
                      LLVMValueRef *jhi)
{
    LLVMValueRef r = LLVMBuildAdd(E->b, G->row0, i, "");
    LLVMValueRef nrows = smax(E, G->nrows, emit_const_i64(E, 0));   /* 0 <= r < nrows, as for lead dims */
    LLVMValueRef ok = LLVMBuildAnd(E->b, G->base_ok, LLVMBuildICmp(E->b, LLVMIntULT, r, nrows, ""), "");
    *row_off = LLVMBuildMul(E->b, LLVMBuildAdd(E->b, LLVMBuildMul(E->b, G->lead_off, G->nrows, ""), r, ""), G->ncols, "");
    LLVMValueRef lo = smax(E, LLVMBuildNeg(E->b, G->col0, ""), emit_const_i64(E, 0));
    LLVMValueRef hi = smin(E, LLVMBuildSub(E->b, G->ncols, G->col0, ""), emit_const_i64(E, cols));
    hi = LLVMBuildSelect(E->b, ok, hi, emit_const_i64(E, 0), "");   /* an absent row copies nothing */
    *jlo = lo;
    *jhi = hi;
}

/* Loading B for vdpbf16ps across an edge: rows k and k+1 of the tile
 * interleave into pairs (in the mma's panels, cpu_mma.h). Walking the two
 * rows together keeps the inner loop an interleaving copy. */
static void gl_load_vnni_pairs(Emit *E, const Geometry *G, LLVMValueRef tensor, const TkType *tile, LLVMValueRef buf)
{
    int64_t rows = tile->dims[0], cols = tile->dims[1];
    EmitLoop Lp;
    emit_loop_begin(E, &Lp, emit_const_i64(E, rows / 2), "gl.pair");
    LLVMValueRef r0 = LLVMBuildShl(E->b, Lp.idx, emit_const_i64(E, 1), "");
    LLVMValueRef r1 = LLVMBuildAdd(E->b, r0, emit_const_i64(E, 1), "");
    LLVMValueRef off0, lo0, hi0, off1, lo1, hi1;
    emit_gl_row_range(E, G, r0, cols, &off0, &lo0, &hi0);
    emit_gl_row_range(E, G, r1, cols, &off1, &lo1, &hi1);
    /* both rows present: j in [lo0, hi1) (an absent row has hi = 0) */
    EmitLoop Lj;
    emit_loop_begin(E, &Lj, LLVMBuildSub(E->b, smax(E, hi1, lo0), lo0, ""), "gl.both");
    LLVMValueRef j = LLVMBuildAdd(E->b, Lj.idx, lo0, "");
    LLVMValueRef c = LLVMBuildAdd(E->b, G->col0, j, "");
    LLVMValueRef d = emit_packed_index(E, tile, TIR_PACK_VNNI_KN, r0, j);
    emit_copy_elem(E, tile, buf, d, tensor, LLVMBuildAdd(E->b, off0, c, ""));
    emit_copy_elem(E, tile, buf, LLVMBuildAdd(E->b, d, emit_const_i64(E, 1), ""), tensor, LLVMBuildAdd(E->b, off1, c, ""));
    emit_loop_end(E, &Lj);
    /* only the first row: j in [max(lo0, hi1), hi0) — the last pair past the tensor's end */
    LLVMValueRef from = smax(E, lo0, hi1);
    EmitLoop Lk;
    emit_loop_begin(E, &Lk, LLVMBuildSub(E->b, smax(E, hi0, from), from, ""), "gl.first");
    LLVMValueRef j2 = LLVMBuildAdd(E->b, Lk.idx, from, "");
    LLVMValueRef d2 = emit_packed_index(E, tile, TIR_PACK_VNNI_KN, r0, j2);
    emit_copy_elem(E, tile, buf, d2, tensor, LLVMBuildAdd(E->b, off0, LLVMBuildAdd(E->b, G->col0, j2, ""), ""));
    emit_loop_end(E, &Lk);
    emit_loop_end(E, &Lp);
}

/* Does the whole tile lie inside the tensor? */
LLVMValueRef emit_gl_tile_inside(Emit *E, const Geometry *G, int64_t rows, int64_t cols)
{
    LLVMValueRef zero = emit_const_i64(E, 0);
    LLVMValueRef ok = G->base_ok;
    ok = LLVMBuildAnd(E->b, ok, LLVMBuildICmp(E->b, LLVMIntSGE, G->row0, zero, ""), "");
    ok = LLVMBuildAnd(E->b, ok, LLVMBuildICmp(E->b, LLVMIntSGE, G->col0, zero, ""), "");
    LLVMValueRef rend = LLVMBuildAdd(E->b, G->row0, emit_const_i64(E, rows), "");
    LLVMValueRef cend = LLVMBuildAdd(E->b, G->col0, emit_const_i64(E, cols), "");
    ok = LLVMBuildAnd(E->b, ok, LLVMBuildICmp(E->b, LLVMIntSLE, rend, G->nrows, ""), "");
    return LLVMBuildAnd(E->b, ok, LLVMBuildICmp(E->b, LLVMIntSLE, cend, G->ncols, ""), "");
}

LLVMValueRef emit_gl_tile_at(Emit *E, const TkType *g, const TirInstr *const *coords, const TkType *tile, LLVMValueRef *offset)
{
    Geometry G = emit_gl_geometry(E, g, coords, tile);
    *offset = LLVMBuildAdd(E->b, LLVMBuildMul(E->b, LLVMBuildAdd(E->b, LLVMBuildMul(E->b, G.lead_off, G.nrows, ""), G.row0, ""), G.ncols, ""),
                           G.col0, "");
    return emit_gl_tile_inside(E, &G, tile->dims[0], tile->dims[1]);
}

/* Transposes 16 vectors of 16 elements in registers: four rounds of the
 * perfect shuffle (interleave rows i and i+8, low halves to 2i, high halves
 * to 2i+1); afterwards rows[c] holds what was column c. */
void emit_transpose16(Emit *E, LLVMValueRef rows[16])
{
    LLVMValueRef lo_mask[16], hi_mask[16];
    for (unsigned q = 0; q < 8; q++) {
        lo_mask[2 * q] = emit_const_i32(E, q), lo_mask[2 * q + 1] = emit_const_i32(E, q + 16);
        hi_mask[2 * q] = emit_const_i32(E, q + 8), hi_mask[2 * q + 1] = emit_const_i32(E, q + 24);
    }
    LLVMValueRef lo = LLVMConstVector(lo_mask, 16), hi = LLVMConstVector(hi_mask, 16);
    for (int round = 0; round < 4; round++) {
        LLVMValueRef next[16];
        for (int q = 0; q < 8; q++) {
            next[2 * q] = LLVMBuildShuffleVector(E->b, rows[q], rows[q + 8], lo, "");
            next[2 * q + 1] = LLVMBuildShuffleVector(E->b, rows[q], rows[q + 8], hi, "");
        }
        memcpy(rows, next, 16 * sizeof *rows);
    }
}

/* Transposes 32-bit words into the mma's B panels: word (r, c) of the
 * source goes to dst32[(r/32)·32w + c·pw + r%32] (pw: the panel's width), for
 * r < n (source rows, `row_off(r)` elements apart) and c < w, in 16×16
 * blocks of <16 x i32>: 16 row loads, transpose16, 16 column stores. This is
 * the packing of a B given as [N, K] (mma_abt): f32 words are elements, bf16
 * words are the k pairs vdpbf16ps wants. Element by element it would be 32
 * scattered 16-bit stores per 16 words. */
static void transpose_words(Emit *E, LLVMValueRef tensor, LLVMValueRef first_elem, LLVMValueRef row_stride, unsigned esize,
                            LLVMValueRef dst, int64_t n, int64_t w)
{
    LLVMTypeRef v16 = LLVMVectorType(E->i32, 16);
    EmitLoop Lr, Lc;
    emit_loop_begin(E, &Lr, emit_const_i64(E, n / 16), "tw.r");
    emit_loop_begin(E, &Lc, emit_const_i64(E, w / 16), "tw.c");
    LLVMValueRef rows[16];
    for (int r = 0; r < 16; r++) {
        LLVMValueRef row = LLVMBuildAdd(E->b, LLVMBuildShl(E->b, Lr.idx, emit_const_i64(E, 4), ""), emit_const_i64(E, r), "");
        LLVMValueRef el = LLVMBuildAdd(E->b, LLVMBuildAdd(E->b, first_elem, LLVMBuildMul(E->b, row, row_stride, ""), ""),
                                       LLVMBuildMul(E->b, Lc.idx, emit_const_i64(E, 16 * 4 / esize), ""), "");
        LLVMValueRef byte = LLVMBuildMul(E->b, el, emit_const_i64(E, esize), "");
        LLVMValueRef p = LLVMBuildGEP2(E->b, E->i8, tensor, &byte, 1, "");
        rows[r] = LLVMBuildLoad2(E->b, v16, p, "");
        LLVMSetAlignment(rows[r], esize);
    }
    emit_transpose16(E, rows);
    /* the 16 rows r0.. lie in one panel (16 divides 32) */
    LLVMValueRef r0 = LLVMBuildShl(E->b, Lr.idx, emit_const_i64(E, 4), "");
    LLVMValueRef panel = LLVMBuildLShr(E->b, r0, emit_const_i64(E, 5), "");
    LLVMValueRef left = LLVMBuildSub(E->b, emit_const_i64(E, n), LLVMBuildShl(E->b, panel, emit_const_i64(E, 5), ""), "");
    LLVMValueRef pw = LLVMBuildSelect(E->b, LLVMBuildICmp(E->b, LLVMIntSLT, left, emit_const_i64(E, 32), ""), left,
                                      emit_const_i64(E, 32), "");
    LLVMValueRef pbase = LLVMBuildAdd(E->b, LLVMBuildMul(E->b, panel, emit_const_i64(E, 32 * w), ""),
                                      LLVMBuildAnd(E->b, r0, emit_const_i64(E, 31), ""), "");
    for (int c = 0; c < 16; c++) {
        LLVMValueRef col = LLVMBuildAdd(E->b, LLVMBuildShl(E->b, Lc.idx, emit_const_i64(E, 4), ""), emit_const_i64(E, c), "");
        LLVMValueRef word = LLVMBuildAdd(E->b, pbase, LLVMBuildMul(E->b, col, pw, ""), "");
        LLVMValueRef p = LLVMBuildGEP2(E->b, E->i32, dst, &word, 1, "");
        LLVMSetAlignment(LLVMBuildStore(E->b, rows[c], p), 4);
    }
    emit_loop_end(E, &Lc);
    emit_loop_end(E, &Lr);
}

void emit_transpose_words(Emit *E, unsigned bits, LLVMValueRef src, LLVMValueRef src_first, LLVMValueRef src_stride,
                          LLVMValueRef dst, EmitTransposeDst dst_word, const void *ctx, int64_t n, int64_t w)
{
    LLVMTypeRef wt = bits == 16 ? E->i16 : E->i32, v16 = LLVMVectorType(wt, 16);
    EmitLoop Ls, Lt;
    emit_loop_begin(E, &Ls, emit_const_i64(E, n / 16), "tx.s");
    emit_loop_begin(E, &Lt, emit_const_i64(E, w / 16), "tx.t");
    LLVMValueRef s0 = LLVMBuildShl(E->b, Ls.idx, emit_const_i64(E, 4), ""), t0 = LLVMBuildShl(E->b, Lt.idx, emit_const_i64(E, 4), "");
    LLVMValueRef rows[16];
    for (int r = 0; r < 16; r++) {
        LLVMValueRef row = LLVMBuildAdd(E->b, s0, emit_const_i64(E, r), "");
        LLVMValueRef word = LLVMBuildAdd(E->b, LLVMBuildAdd(E->b, src_first, LLVMBuildMul(E->b, row, src_stride, ""), ""), t0, "");
        rows[r] = LLVMBuildLoad2(E->b, v16, LLVMBuildGEP2(E->b, wt, src, &word, 1, ""), "");
        LLVMSetAlignment(rows[r], bits / 8);
    }
    emit_transpose16(E, rows);
    for (int c = 0; c < 16; c++) {
        LLVMValueRef word = dst_word(E, ctx, s0, LLVMBuildAdd(E->b, t0, emit_const_i64(E, c), ""));
        LLVMSetAlignment(LLVMBuildStore(E->b, rows[c], LLVMBuildGEP2(E->b, wt, dst, &word, 1, "")), bits / 8);
    }
    emit_loop_end(E, &Lt);
    emit_loop_end(E, &Ls);
}

/* Destinations of a col tile's transposed copies (emit_transpose_words): in
 * the tile, column t's words start at t·rows; in the tensor, row t of the
 * tile starts at element (first + t)·ncols + col0. */
typedef struct {
    LLVMValueRef first;   /* tensor: element index of the tile's (0, 0); tile: 0 */
    LLVMValueRef stride;  /* words from one destination run to the next */
} ColRuns;

static LLVMValueRef col_run(Emit *E, const void *ctx, LLVMValueRef s0, LLVMValueRef t)
{
    const ColRuns *c = ctx;
    return LLVMBuildAdd(E->b, LLVMBuildAdd(E->b, c->first, LLVMBuildMul(E->b, t, c->stride, ""), ""), s0, "");
}

LLVMValueRef emit_panel_run(Emit *E, const void *ctx, LLVMValueRef s0, LLVMValueRef t)
{
    const EmitPanelRuns *p = ctx;
    LLVMValueRef panel = LLVMBuildLShr(E->b, s0, emit_const_i64(E, 5), "");
    LLVMValueRef left = LLVMBuildSub(E->b, emit_const_i64(E, p->n), LLVMBuildShl(E->b, panel, emit_const_i64(E, 5), ""), "");
    LLVMValueRef pw = smin(E, left, emit_const_i64(E, TK_MMA_PANEL));
    LLVMValueRef base = LLVMBuildMul(E->b, panel, emit_const_i64(E, TK_MMA_PANEL * p->k), "");
    return LLVMBuildAdd(E->b, base, LLVMBuildAdd(E->b, LLVMBuildMul(E->b, t, pw, ""), LLVMBuildAnd(E->b, s0, emit_const_i64(E, 31), ""), ""), "");
}

/* The copy of a tile that lies wholly inside the tensor: no zero fill, no
 * per-row clipping, constant trip counts — so LLVM turns each row into wide
 * vector moves (and the VNNI pairing into interleaving shuffles). Interior
 * tiles are almost all tiles of a large tensor. */
static void gl_transfer_inside(Emit *E, const Geometry *G, LLVMValueRef tensor, const TkType *tile, LLVMValueRef buf,
                               bool to_tile, TirPack pack)
{
    int64_t rows = tile->rank == 2 ? tile->dims[0] : 1, cols = tile->rank == 2 ? tile->dims[1] : tile->dims[0];
    LLVMValueRef first = LLVMBuildAdd(E->b, LLVMBuildMul(E->b, G->lead_off, G->nrows, ""), G->row0, "");
    bool words = tile->rank == 2 && ((pack == TIR_PACK_VNNI_NK && tile->elem == TK_TY_BF16 && cols % 32 == 0) ||
                                     (pack == TIR_PACK_ROWS_NK && tile->elem == TK_TY_F32 && cols % 16 == 0));
    if (to_tile && words && rows % 16 == 0) {
        unsigned esize = tile->elem == TK_TY_BF16 ? 2 : 4;
        LLVMValueRef first_elem = LLVMBuildAdd(E->b, LLVMBuildMul(E->b, first, G->ncols, ""), G->col0, "");
        transpose_words(E, tensor, first_elem, G->ncols, esize, buf, rows, cols * esize / 4);
        return;
    }
    if (to_tile && pack == TIR_PACK_VNNI_KN && tile->rank == 2 && rows % 2 == 0 && tile->elem != TK_TY_F32) {
        /* panel by panel (cpu_mma.h): the w columns of rows 2p and 2p+1 are
         * two vector loads and one interleaving shuffle into a run of 2w.
         * (Written as scalar copies, LLVM unrolled the 32-wide loop instead of
         * vectorising it: attention's V loads took 16% instead of 3%.) */
        for (int64_t c0 = 0; c0 < cols; c0 += TK_MMA_PANEL) {
            int64_t w = cols - c0 < TK_MMA_PANEL ? cols - c0 : TK_MMA_PANEL;
            LLVMTypeRef vw = LLVMVectorType(E->i16, (unsigned)w);
            LLVMValueRef mask[2 * TK_MMA_PANEL];
            for (int64_t x = 0; x < w; x++) {
                mask[2 * x] = emit_const_i32(E, x);
                mask[2 * x + 1] = emit_const_i32(E, w + x);
            }
            EmitLoop Lp;
            emit_loop_begin(E, &Lp, emit_const_i64(E, rows / 2), "in.pair");
            LLVMValueRef r0 = LLVMBuildAdd(E->b, first, LLVMBuildShl(E->b, Lp.idx, emit_const_i64(E, 1), ""), "");
            LLVMValueRef off0 = LLVMBuildAdd(E->b, LLVMBuildAdd(E->b, LLVMBuildMul(E->b, r0, G->ncols, ""), G->col0, ""),
                                             emit_const_i64(E, c0), "");
            LLVMValueRef off1 = LLVMBuildAdd(E->b, off0, G->ncols, "");
            LLVMValueRef a0 = LLVMBuildLoad2(E->b, vw, elem_ptr(E, tile, tensor, off0), "");
            LLVMValueRef a1 = LLVMBuildLoad2(E->b, vw, elem_ptr(E, tile, tensor, off1), "");
            LLVMSetAlignment(a0, 2);
            LLVMSetAlignment(a1, 2);
            LLVMValueRef both = LLVMBuildShuffleVector(E->b, a0, a1, LLVMConstVector(mask, (unsigned)(2 * w)), "");
            /* panels before this one hold 32 columns each: it starts at c0·rows */
            LLVMValueRef d = LLVMBuildAdd(E->b, emit_const_i64(E, c0 * rows), LLVMBuildMul(E->b, Lp.idx, emit_const_i64(E, 2 * w), ""), "");
            LLVMValueRef st = LLVMBuildStore(E->b, both, elem_ptr(E, tile, buf, d));
            LLVMSetAlignment(st, 2);
            emit_loop_end(E, &Lp);
        }
        return;
    }
    bool col_tile = tile->rank == 2 && tile->kind == TK_TY_RT && tile->layout == TK_COL;
    if (col_tile && pack == TIR_PACK_NONE && tile->elem != TK_TY_BOOL && rows % 16 == 0 && cols % 16 == 0) {
        /* a col tile holds the tensor's rows as its columns: 16×16 blocks
         * transposed in registers (element by element, LLVM made one scatter
         * or gather per 16 elements with a column stride between lanes: a
         * 256×64 f32 V tile took ~25 µs to load, more than its mma) */
        LLVMValueRef first_elem = LLVMBuildAdd(E->b, LLVMBuildMul(E->b, first, G->ncols, ""), G->col0, "");
        unsigned bits = tile->elem == TK_TY_F32 ? 32 : 16;
        if (to_tile) {
            ColRuns d = { emit_const_i64(E, 0), emit_const_i64(E, rows) };
            emit_transpose_words(E, bits, tensor, first_elem, G->ncols, buf, col_run, &d, rows, cols);
        } else {
            ColRuns d = { first_elem, G->ncols };
            emit_transpose_words(E, bits, buf, emit_const_i64(E, 0), emit_const_i64(E, rows), tensor, col_run, &d, cols, rows);
        }
        return;
    }
    EmitLoop Li, Lj;
    emit_loop_begin(E, &Li, emit_const_i64(E, rows), "in.row");
    LLVMValueRef off = LLVMBuildAdd(E->b, LLVMBuildMul(E->b, LLVMBuildAdd(E->b, first, Li.idx, ""), G->ncols, ""), G->col0, "");
    bool row_major = pack == TIR_PACK_NONE && !(tile->rank == 2 && tile->kind == TK_TY_RT && tile->layout == TK_COL);
    if (row_major || pack == TIR_PACK_ROWS_KN) {
        /* each run of ≤ 32 columns of a row is contiguous on both sides: one
         * vector load and store (an element loop was unrolled into scalar
         * copies: a 32×32 f32 store took a third of a 32³ product) */
        for (int64_t c0 = 0; c0 < cols; c0 += TK_MMA_PANEL) {
            int64_t w = cols - c0 < TK_MMA_PANEL ? cols - c0 : TK_MMA_PANEL;
            LLVMValueRef col = emit_const_i64(E, c0);
            LLVMValueRef ti = tile->rank == 1 ? col : emit_packed_index(E, tile, pack, Li.idx, col);
            LLVMValueRef gi = LLVMBuildAdd(E->b, off, col, "");
            LLVMValueRef src = to_tile ? elem_ptr(E, tile, tensor, gi) : elem_ptr(E, tile, buf, ti);
            LLVMValueRef dst = to_tile ? elem_ptr(E, tile, buf, ti) : elem_ptr(E, tile, tensor, gi);
            LLVMTypeRef vt = LLVMVectorType(emit_elem_type(E, tile), (unsigned)w);
            LLVMValueRef v = LLVMBuildLoad2(E->b, vt, src, "");
            LLVMSetAlignment(v, tile->elem == TK_TY_F32 ? 4 : 2);
            LLVMSetAlignment(LLVMBuildStore(E->b, v, dst), tile->elem == TK_TY_F32 ? 4 : 2);
        }
        emit_loop_end(E, &Li);
        return;
    }
    emit_loop_begin(E, &Lj, emit_const_i64(E, cols), "in.col");
    LLVMValueRef ti = tile->rank == 2 ? emit_packed_index(E, tile, pack, Li.idx, Lj.idx) : Lj.idx;
    LLVMValueRef gi = LLVMBuildAdd(E->b, off, Lj.idx, "");
    if (to_tile) emit_copy_elem(E, tile, buf, ti, tensor, gi);
    else emit_copy_elem(E, tile, tensor, gi, buf, ti);
    emit_loop_end(E, &Lj);
    emit_loop_end(E, &Li);
}


void emit_gl_transfer(Emit *E, const TkType *g, LLVMValueRef tensor, const TirInstr *const *coords, const TkType *tile,
                      LLVMValueRef buf, bool to_tile, TirPack pack)
{
    if (g->layout == TK_PACKED && tile->rank == 2) {
        emit_packed_transfer(E, g, tensor, coords, tile, buf, to_tile, pack);
        return;
    }
    Geometry G = emit_gl_geometry(E, g, coords, tile);
    int64_t rows = tile->rank == 2 ? tile->dims[0] : 1, cols = tile->rank == 2 ? tile->dims[1] : tile->dims[0];
    LLVMBasicBlockRef inside = LLVMAppendBasicBlockInContext(E->ctx, E->fn, "gl.inside");
    LLVMBasicBlockRef edge = LLVMAppendBasicBlockInContext(E->ctx, E->fn, "gl.edge");
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(E->ctx, E->fn, "gl.done");
    LLVMBuildCondBr(E->b, emit_gl_tile_inside(E, &G, rows, cols), inside, edge);
    LLVMPositionBuilderAtEnd(E->b, inside);
    gl_transfer_inside(E, &G, tensor, tile, buf, to_tile, pack);
    LLVMBuildBr(E->b, join);
    LLVMPositionBuilderAtEnd(E->b, edge);
    emit_gl_transfer_masked(E, &G, tensor, tile, buf, to_tile, pack);
    LLVMBuildBr(E->b, join);
    LLVMPositionBuilderAtEnd(E->b, join);
}

/* Lanes per masked chunk: 16 elements are one 512-bit f32 vector (half of
 * one for bf16); targets without masked loads split it, still correctly. */
enum { MASKED_CHUNK = 16 };

/* Can the edge copy of this tile move whole rows as masked vector chunks?
 * Only where a tile row is contiguous in the buffer (row layout, unpacked). */
static bool masked_rows_vectorise(const TkType *tile, TirPack pack)
{
    /* f32 B panels (ROWS_KN) keep a tile row's 16-column chunks contiguous too */
    if (pack != TIR_PACK_NONE && !(pack == TIR_PACK_ROWS_KN && tile->elem == TK_TY_F32)) return false;
    if (tile->rank == 2 && tile->kind == TK_TY_RT && tile->layout == TK_COL) return false;
    int64_t cols = tile->rank == 2 ? tile->dims[1] : tile->dims[0];
    return cols % MASKED_CHUNK == 0;
}

/* Row i of an edge tile, [jlo, jhi) of its columns present, in chunks of
 * MASKED_CHUNK lanes with llvm.masked.load/store: a lane outside the range
 * touches no memory (the tensor's neighbours may be unmapped), a loaded one
 * reads 0. One vector instruction per chunk where the scalar copy took one
 * load and store per element, which made the edge tiles of a ragged softmax
 * (C = 1000) cost as much as all its interior tiles together. */
/* <16 x i1>: which of the lanes first + 0..15 lie in [lo, hi) (all i64). */
static LLVMValueRef lane_mask(Emit *E, LLVMValueRef first, LLVMValueRef lo, LLVMValueRef hi)
{
    LLVMValueRef lanes[MASKED_CHUNK];
    for (int k = 0; k < MASKED_CHUNK; k++) lanes[k] = emit_const_i64(E, k);
    LLVMTypeRef v64 = LLVMVectorType(E->i64, MASKED_CHUNK);
    LLVMValueRef zeros = LLVMConstNull(LLVMVectorType(E->i32, MASKED_CHUNK));
    LLVMValueRef splat[3], in[3] = { first, lo, hi };
    for (int k = 0; k < 3; k++) {
        splat[k] = LLVMBuildInsertElement(E->b, LLVMGetUndef(v64), in[k], emit_const_i32(E, 0), "");
        splat[k] = LLVMBuildShuffleVector(E->b, splat[k], LLVMGetUndef(v64), zeros, "");
    }
    LLVMValueRef j = LLVMBuildAdd(E->b, splat[0], LLVMConstVector(lanes, MASKED_CHUNK), "");
    return LLVMBuildAnd(E->b, LLVMBuildICmp(E->b, LLVMIntSGE, j, splat[1], ""), LLVMBuildICmp(E->b, LLVMIntSLT, j, splat[2], ""), "");
}

/* llvm.masked.load / llvm.masked.store of 16 elements at p (align: one element). */
static LLVMValueRef masked_move(Emit *E, const TkType *tile, LLVMValueRef p, LLVMValueRef mask, LLVMValueRef value)
{
    LLVMTypeRef vt = LLVMVectorType(emit_elem_type(E, tile), MASKED_CHUNK);
    LLVMTypeRef ov[2] = { vt, LLVMTypeOf(p) };
    unsigned esize = tile->elem == TK_TY_F32 ? 4 : tile->elem == TK_TY_BOOL ? 1 : 2;
    LLVMValueRef call;
    if (!value) {
        LLVMValueRef args[3] = { p, mask, LLVMConstNull(vt) };
        call = emit_intrinsic(E, "llvm.masked.load", ov, 2, args, 3);
    } else {
        LLVMValueRef args[3] = { value, p, mask };
        call = emit_intrinsic(E, "llvm.masked.store", ov, 2, args, 3);
    }
    LLVMAddCallSiteAttribute(call, value ? 2 : 1, LLVMCreateEnumAttribute(E->ctx, LLVMGetEnumAttributeKindForName("align", 5), esize));
    return call;
}

/* Row i of an edge tile, [jlo, jhi) of its columns present, in chunks of
 * MASKED_CHUNK lanes with llvm.masked.load/store: a lane outside the range
 * touches no memory (the tensor's neighbours may be unmapped), a loaded one
 * reads 0. One vector instruction per chunk where the scalar copy took one
 * load and store per element, which made the edge tiles of a ragged softmax
 * (C = 1000) cost as much as all its interior tiles together. */
static void masked_row_chunks(Emit *E, const TkType *tile, TirPack pack, LLVMValueRef tensor, LLVMValueRef first,
                              LLVMValueRef buf, LLVMValueRef row, LLVMValueRef jlo, LLVMValueRef jhi, int64_t cols, bool to_tile)
{
    LLVMTypeRef vt = LLVMVectorType(emit_elem_type(E, tile), MASKED_CHUNK);
    unsigned esize = tile->elem == TK_TY_F32 ? 4 : tile->elem == TK_TY_BOOL ? 1 : 2;
    EmitLoop Lc;
    emit_loop_begin(E, &Lc, emit_const_i64(E, cols / MASKED_CHUNK), "gl.chunk");
    LLVMValueRef c0 = LLVMBuildMul(E->b, Lc.idx, emit_const_i64(E, MASKED_CHUNK), "");
    LLVMValueRef m = lane_mask(E, c0, jlo, jhi);
    LLVMValueRef gptr = elem_ptr(E, tile, tensor, LLVMBuildAdd(E->b, first, c0, ""));
    LLVMValueRef bptr = elem_ptr(E, tile, buf, emit_packed_index(E, tile, pack, row, c0));
    if (to_tile) {
        LLVMSetAlignment(LLVMBuildStore(E->b, masked_move(E, tile, gptr, m, NULL), bptr), esize);
    } else {
        LLVMValueRef v = LLVMBuildLoad2(E->b, vt, bptr, "");
        LLVMSetAlignment(v, esize);
        masked_move(E, tile, gptr, m, v);
    }
    emit_loop_end(E, &Lc);
}

/* An f32 tile across an edge whose buffer holds the tensor's rows as runs
 * of 16 words (rows and columns multiples of 16): a col tile (dst col_run),
 * or the B panels of mma_abt (dst emit_panel_run). 16×16 blocks of masked
 * row loads (what is outside the tensor reads 0 and touches no memory),
 * transposed in registers. Element by element into such a buffer this was
 * one scalar store per element a column apart: a decode step's last 256×64
 * V tile took ~60 µs. */
static void masked_transposed_load(Emit *E, const Geometry *G, LLVMValueRef tensor, const TkType *tile, LLVMValueRef buf,
                                   EmitTransposeDst dst_word, const void *ctx)
{
    int64_t rows = tile->dims[0], cols = tile->dims[1];
    EmitLoop Ls, Lt;
    emit_loop_begin(E, &Ls, emit_const_i64(E, rows / 16), "gl.ts");
    emit_loop_begin(E, &Lt, emit_const_i64(E, cols / 16), "gl.tt");
    LLVMValueRef s0 = LLVMBuildShl(E->b, Ls.idx, emit_const_i64(E, 4), ""), t0 = LLVMBuildShl(E->b, Lt.idx, emit_const_i64(E, 4), "");
    LLVMValueRef v[16];
    for (int r = 0; r < 16; r++) {
        LLVMValueRef row_off, jlo, jhi;
        emit_gl_row_range(E, G, LLVMBuildAdd(E->b, s0, emit_const_i64(E, r), ""), cols, &row_off, &jlo, &jhi);
        LLVMValueRef p = elem_ptr(E, tile, tensor, LLVMBuildAdd(E->b, LLVMBuildAdd(E->b, row_off, G->col0, ""), t0, ""));
        v[r] = masked_move(E, tile, p, lane_mask(E, t0, jlo, jhi), NULL);
    }
    emit_transpose16(E, v);
    for (int c = 0; c < 16; c++) {
        LLVMValueRef at = dst_word(E, ctx, s0, LLVMBuildAdd(E->b, t0, emit_const_i64(E, c), ""));
        LLVMSetAlignment(LLVMBuildStore(E->b, v[c], elem_ptr(E, tile, buf, at)), tile->elem == TK_TY_F32 ? 4 : 2);
    }
    emit_loop_end(E, &Lt);
    emit_loop_end(E, &Ls);
}

/* A tile that crosses an edge of the tensor: what exists is copied row by
 * row, clipped; a load reads 0 for the rest. */
void emit_gl_transfer_masked(Emit *E, const Geometry *Gp, LLVMValueRef tensor, const TkType *tile, LLVMValueRef buf,
                               bool to_tile, TirPack pack)
{
    Geometry G = *Gp;
    int64_t rows = tile->rank == 2 ? tile->dims[0] : 1, cols = tile->rank == 2 ? tile->dims[1] : tile->dims[0];
    if (masked_rows_vectorise(tile, pack)) {   /* the masked loads write every lane: no zero fill */
        EmitLoop Li;
        emit_loop_begin(E, &Li, emit_const_i64(E, rows), "gl.row");
        LLVMValueRef row_off, jlo, jhi;
        emit_gl_row_range(E, &G, Li.idx, cols, &row_off, &jlo, &jhi);
        masked_row_chunks(E, tile, pack, tensor, LLVMBuildAdd(E->b, row_off, G.col0, ""), buf, Li.idx, jlo, jhi, cols, to_tile);
        emit_loop_end(E, &Li);
        return;
    }
    bool blocks = to_tile && tile->rank == 2 && tile->elem != TK_TY_BOOL && rows % 16 == 0 && cols % 16 == 0;
    bool f32_blocks = blocks && tile->elem == TK_TY_F32;
    if (blocks && pack == TIR_PACK_NONE && tile->kind == TK_TY_RT && tile->layout == TK_COL) {
        ColRuns d = { emit_const_i64(E, 0), emit_const_i64(E, rows) };
        masked_transposed_load(E, &G, tensor, tile, buf, col_run, &d);
        return;
    }
    if (f32_blocks && pack == TIR_PACK_ROWS_NK) {   /* the layout transpose_words writes inside the tensor */
        EmitPanelRuns d = { rows, cols };
        masked_transposed_load(E, &G, tensor, tile, buf, emit_panel_run, &d);
        return;
    }
    if (to_tile) emit_tile_zero(E, buf, tile);   /* masked: what is not copied reads 0 */
    if (to_tile && pack == TIR_PACK_VNNI_KN && tile->rank == 2 && rows % 2 == 0) {
        gl_load_vnni_pairs(E, &G, tensor, tile, buf);
        return;
    }
    EmitLoop Li;
    emit_loop_begin(E, &Li, emit_const_i64(E, rows), "gl.row");
    LLVMValueRef row_off, jlo, jhi;
    emit_gl_row_range(E, &G, Li.idx, cols, &row_off, &jlo, &jhi);
    /* for j in [jlo, jhi) */
    LLVMValueRef count = LLVMBuildSub(E->b, jhi, jlo, "");
    EmitLoop Lj;
    emit_loop_begin(E, &Lj, count, "gl.col");
    LLVMValueRef j = LLVMBuildAdd(E->b, Lj.idx, jlo, "");
    LLVMValueRef ti = tile->rank == 2 ? emit_packed_index(E, tile, pack, Li.idx, j) : j;
    LLVMValueRef gi = LLVMBuildAdd(E->b, row_off, LLVMBuildAdd(E->b, G.col0, j, ""), "");
    if (to_tile) emit_copy_elem(E, tile, buf, ti, tensor, gi);
    else emit_copy_elem(E, tile, tensor, gi, buf, ti);
    emit_loop_end(E, &Lj);
    emit_loop_end(E, &Li);
}
