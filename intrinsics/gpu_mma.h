/* gpu_mma.h — a GPU matrix instruction as the shared GPU lowering
 * (lower/gpu/gpu_lower.c) sees it, whatever its vendor: a base tile
 * C[m×n] += A[m×k]·B[k×n], how many elements of each operand one lane holds,
 * which tile element each of them is (a lane map), and an emitter for one
 * base tile. The vendor tables (amdgpu_mma.c, nvptx_mma.c) are the only
 * places that name an intrinsic; they hand out rows of this form.
 *
 * Lane maps. Element e of lane l's fragment of an operand is the tile element
 *     row = ((l >> row.shift) & row.mask) · row.mul + row_of[e]
 *     col = ((l >> col.shift) & col.mask) · col.mul + col_of[e]
 * A mul of 0 means those lanes hold copies (gfx11 WMMA replicates A and B in
 * lanes 16..31). Every layout of AMD's and NVIDIA's tables has this form. */
#ifndef TK_INTRINSICS_GPU_MMA_H
#define TK_INTRINSICS_GPU_MMA_H

#include <llvm-c/Core.h>
#include <stdint.h>

#include "types.h"

enum { TK_GPU_FRAG_MAX = 16 };   /* the most elements a lane holds of one operand */

typedef struct {
    uint8_t shift, mask;
    int16_t mul;
} TkLaneTerm;

typedef struct {
    TkLaneTerm row, col;
    int elems;
    int16_t row_of[TK_GPU_FRAG_MAX], col_of[TK_GPU_FRAG_MAX];
} TkLaneMap;

static inline int tk_lane_term(TkLaneTerm t, int lane)
{
    return ((lane >> t.shift) & t.mask) * t.mul;
}

/* The tile element (row, col) of element e of lane `lane`. */
static inline void tk_lane_map_at(const TkLaneMap *m, int lane, int e, int *row, int *col)
{
    *row = tk_lane_term(m->row, lane) + m->row_of[e];
    *col = tk_lane_term(m->col, lane) + m->col_of[e];
}

/* What an emitter needs: the builder positioned where the call goes. */
typedef struct {
    LLVMContextRef ctx;
    LLVMModuleRef mod;
    LLVMBuilderRef b;
    LLVMValueRef env;   /* the emulation target's per-thread environment (lower/gpu/gpu_emu_abi.h); NULL on a GPU */
} TkGpuBuilder;

typedef struct TkGpuMma TkGpuMma;

struct TkGpuMma {
    const char *name;            /* "sm80.mma.m16n8k16.bf16", "gfx942.mfma.f32.32x32x8.bf16" */
    int m, n, k;                 /* base tile */
    TkTypeKind operand, acc;     /* A and B elements; C/D elements */
    int warp;                    /* lanes the instruction spans (32, or 64 for a CDNA wave) */
    TkLaneMap a, b, c;           /* a.elems, b.elems, c.elems: per lane */
    const char *intrinsic;       /* the LLVM intrinsic */
    const char *mnemonic;        /* what the machine code shows */
    /* D = A·B + C for one base tile: a, b <elems x i16> (bf16 bits) or
     * <elems x float> (an f32 operand row: values already rounded to its
     * precision, e.g. tf32), c <c.elems x float>; returns D, the type of c. */
    LLVMValueRef (*emit)(const TkGpuMma *row, TkGpuBuilder *gb, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c);
    const void *vendor_row;      /* the vendor table's own row, for its emitter and checks */
};

#endif
