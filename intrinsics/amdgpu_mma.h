/* amdgpu_mma.h — AMD GPU matrix instructions as TileKit base tiles: one
 * table row per (instruction, processor family), with the base tile M×N×K,
 * operand and accumulator types, wave size, the fragment layout (which lane
 * holds which elements), what it computes, and its LLVM emitter. Like
 * cpu_mma.h for the CPU, this file is the only place that names an AMDGPU
 * matrix intrinsic; lower/gpu/gpu_lower.c decomposes a register-tile mma into
 * base tiles of one row and calls the row's emitter per base tile.
 *
 * A row is only ever emitted for a processor listed in its `cpus`:
 * tk_amdgpu_mma_check refuses any other pairing with a message, because
 * LLVM aborts the whole process ("Cannot select: intrinsic") on a matrix
 * intrinsic the processor lacks (../shared/TOOLCHAIN.md, Traps).
 *
 * Fragment layouts (one per operand) are data, not code. For lane l of the
 * wave and element e of the lane's fragment vector:
 *   A (M×K, rows i):   i = l % lanes,  k = group_step·(l / lanes) + (e / run)·run_stride + (e % run)·step
 *   B (K×N, cols j):   j = l % lanes,  k = same formula
 *   C/D (M×N, f32):    j = l % lanes,  i = same formula with e = the accumulator register
 * A group_step of 0 means the lane groups hold copies (gfx11 WMMA replicates
 * A and B in lanes 16..31). Sources for each layout are in docs (see the
 * row's `layout` line and docs/ARCHITECTURE.md). */
#ifndef TK_INTRINSICS_AMDGPU_MMA_H
#define TK_INTRINSICS_AMDGPU_MMA_H

#include <llvm-c/Core.h>
#include <stdbool.h>
#include <stddef.h>

#include "gpu_mma.h"
#include "types.h"

typedef enum { TK_AMDGPU_MFMA, TK_AMDGPU_WMMA } TkAmdgpuMmaFamily;

/* other = group_step·(lane / lanes) + (e / run)·run_stride + (e % run)·step */
typedef struct {
    int lanes;          /* lanes per group: the lane's row (A) or column (B, C) is lane % lanes */
    int group_step;     /* lane group g = lane / lanes starts at other = g·group_step */
    int run, step, run_stride;
} TkFragLayout;

typedef struct TkAmdgpuMma TkAmdgpuMma;

/* What an emitter needs: the builder positioned where the call goes. */
typedef struct {
    LLVMContextRef ctx;
    LLVMModuleRef mod;
    LLVMBuilderRef b;
} TkAmdgpuBuilder;

struct TkAmdgpuMma {
    const char *name;          /* "gfx942.mfma.f32.32x32x8.bf16" */
    const char *cpus;          /* comma-separated processors that have it */
    TkAmdgpuMmaFamily family;
    int m, n, k;               /* base tile: C[m×n] += A[m×k]·B[k×n] */
    TkTypeKind operand;        /* A and B elements */
    TkTypeKind acc;            /* C/D elements */
    int wave;                  /* wavefront size the row is for */
    int a_elems, b_elems, c_elems;   /* per lane: A, B fragment elements; C/D registers */
    TkFragLayout a, b, c;
    bool bfloat_operands;      /* A/B are <n x bfloat> in the intrinsic (else <n x i16> of bf16 bits) */
    const char *intrinsic;     /* LLVM intrinsic */
    const char *mnemonic;      /* what the disassembly shows (gfx942 and later spelling) */
    const char *layout;        /* the fragment layout in one line */
    const char *meaning;
    /* D = A·B + C for one base tile. a, b: <a_elems x i16>, <b_elems x i16>
     * (bf16 bits); c: <c_elems x float>. Returns D (same type as c). */
    LLVMValueRef (*emit)(const TkAmdgpuMma *row, TkAmdgpuBuilder *ab, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c);
};

/* The whole table, for docs and tests. */
const TkAmdgpuMma *tk_amdgpu_mma_table(unsigned *count);

/* Does processor `cpu` have row r? */
bool tk_amdgpu_mma_supports(const TkAmdgpuMma *r, const char *cpu);

/* 0 if row r may be emitted for processor `cpu` with wave size `wave`; else
 * -1 and a one-line reason ("gfx942: llvm.amdgcn.mfma.f32.32x32x16.bf16
 * (v_mfma_f32_32x32x16_bf16) is a gfx950 instruction; ...") in err. */
int tk_amdgpu_mma_check(const TkAmdgpuMma *r, const char *cpu, int wave, char *err, size_t errlen);

/* The first row (in table order: the preferred one) that `cpu` with `wave`
 * supports for operands `operand`, accumulator `acc`, whose base tile
 * divides an M×N×K product; NULL if none. */
const TkAmdgpuMma *tk_amdgpu_mma_select(const char *cpu, int wave, TkTypeKind operand, TkTypeKind acc, int64_t m, int64_t n,
                                        int64_t k);

/* Row r in the vendor-neutral form of the shared GPU lowering
 * (intrinsics/gpu_mma.h): its TkFragLayouts as lane maps, its emitter
 * behind a common signature. */
void tk_amdgpu_mma_generic(const TkAmdgpuMma *r, TkGpuMma *out);

/* Fragment coordinate: the row/col-independent coordinate ("other") of
 * element e of lane `lane` (see TkFragLayout). For tests and docs. */
static inline int tk_frag_other(const TkFragLayout *f, int lane, int e)
{
    return f->group_step * (lane / f->lanes) + (e / f->run) * f->run_stride + (e % f->run) * f->step;
}

#endif
