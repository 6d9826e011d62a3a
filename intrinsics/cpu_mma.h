/* cpu_mma.h — the CPU's base matrix operations: one table row per register
 * micro-kernel (which ISA it needs, operand type, register block, meaning)
 * and its LLVM emitter. This directory is the only place that names hardware
 * instructions; lower/cpu/emit_tiles.c picks a row by the target's features.
 *
 * Every micro-kernel works on canonical operands prepared by the caller:
 *   acc  f32, row-major M×N (updated in place), rows acc_stride apart (default N)
 *   A    f32: row-major M×K;  bf16: row-major M×Kp (Kp = K rounded up to even, zero-padded),
 *        rows Kp elements apart unless the builder gives a_stride (A read in
 *        place inside a larger tensor: any stride, even an odd one for bf16)
 *   B    in panels of TK_MMA_PANEL (32) columns, panel after panel, each
 *        panel's rows contiguous: f32 B(k, c) at (c/32)·S + k·w + c%32;
 *        bf16 in VNNI pairs, B(k, c) at (c/32)·S + (k/2)·2w + 2(c%32) + k%2,
 *        with w = min(32, N − (c/32)·32) the panel's width and S the panel
 *        stride, 32·Kp elements unless the builder gives b_panel_stride
 * and computes acc += A·B with the accumulators held in vector registers
 * across the whole K loop (the BLIS/oneDNN way). M and N are multiples of 16.
 * Panels make the strip of B a register block walks one contiguous run, so
 * it streams from memory and stays in L1 without set conflicts.
 *
 * A row whose `pack` is TK_MMA_PACK_MMLA (bf16 only: AArch64 bfmmla, one
 * 2×2 f32 block += 2×4 · (4×2) per instruction) wants instead
 *   A    bf16 2×4 blocks [M/2][Kq/4][2][4]: A(r, k) at ((r/2)·(Kq/4) + k/4)·8 + (r%2)·4 + k%4
 *   B    bf16 2×4 blocks of Bᵀ [N/2][Kq/4][2][4]: B(k, c) at ((c/2)·(Kq/4) + k/4)·8 + (c%2)·4 + k%4
 * with Kq = K rounded up to a multiple of 4 and the padding k zero; acc is
 * the same row-major M×N (the emitter regroups it into 2×2 blocks). */
#ifndef TK_INTRINSICS_CPU_MMA_H
#define TK_INTRINSICS_CPU_MMA_H

#include <llvm-c/Core.h>
#include <stdbool.h>
#include <stdint.h>

#include "types.h"

struct Emit_;

typedef struct {
    LLVMContextRef ctx;
    LLVMModuleRef mod;
    LLVMBuilderRef b;
    LLVMValueRef fn;          /* function being built (for new blocks) */
    LLVMValueRef b_panel_stride;  /* i64 elements between B's panels; NULL: 32·Kp (a packed tile) */
    LLVMValueRef acc_stride;  /* i64 elements between acc's rows; NULL: N (a tile of its own) */
    LLVMValueRef a_stride;    /* i64 elements between A's rows; NULL: Kp (a tile of its own) */
    LLVMValueRef b_row_stride;/* i64 elements between B's rows within a panel (f32 only); NULL:
                               * the panel's width w. With panel stride 32 this reads a plain
                               * row-major B in place, rows b_row_stride apart */
    LLVMValueRef acc_zero;    /* i1, or NULL (false): acc holds zeros, so start from zero registers
                               * instead of loading it (every element is still written) */
    LLVMValueRef out;         /* ptr, or NULL (acc): where the result goes, rows out_stride apart
                               * (i64). It may differ from acc at run time: then every element
                               * of out is written and acc is only read (a last K step writing
                               * straight into C) */
    LLVMValueRef out_stride;
} TkMmaBuilder;

#define TK_MMA_PANEL 32

/* Element offset of B(k, col) in the panel layout above (pairs: bf16 VNNI,
 * else rows), for a B of n columns and panel stride `stride` (i64 values). */
LLVMValueRef tk_mma_b_offset(LLVMBuilderRef b, LLVMValueRef k, LLVMValueRef col, int64_t n, LLVMValueRef stride, bool pairs);

/* How the caller lays out A and B for a row (see above). */
typedef enum {
    TK_MMA_PACK_ROWS = 0,     /* A row-major M×Kp; B f32 row-major K×N, bf16 VNNI pairs (the default) */
    TK_MMA_PACK_MMLA,         /* bf16 2×4 blocks of A and of Bᵀ, K padded to a multiple of 4 */
} TkMmaPack;

typedef struct TkMmaKernel TkMmaKernel;
struct TkMmaKernel {
    const char *name;
    const char *features;     /* comma-separated LLVM features all required, e.g. "+avx512bf16" */
    TkTypeKind operand;       /* element type of A and B as the kernel reads them */
    int mr, nr;               /* register block: rows of A, columns of B */
    int vec;                  /* f32 lanes per vector */
    const char *meaning;
    void (*emit)(const TkMmaKernel *k, TkMmaBuilder *mb, LLVMValueRef acc, LLVMValueRef a, LLVMValueRef b, int64_t m,
                 int64_t n, int64_t kdim);
    TkMmaPack pack;           /* canonical operand layout; 0 (rows) unless the row says otherwise */
};

/* The best row whose features are all in `target_features` (LLVM's "+a,+b,-c"
 * form) for operands of type `operand` (bf16 falls back to an f32 kernel after
 * conversion); NULL if none: the caller uses its portable loop. */
const TkMmaKernel *tk_cpu_mma_select(const char *target_features, TkTypeKind operand);

/* The whole table, for docs and tests. */
const TkMmaKernel *tk_cpu_mma_table(unsigned *count);

/* The row named `name`, or NULL. */
const TkMmaKernel *tk_cpu_mma_find(const char *name);

/* Is every "+x" item of the feature list `need` ("+a,+b,-c") an item of
 * `have`? Items without a '+' are ignored. The table's rows and the targets
 * (tk_target_runs_here) are matched against the host's features with it. */
bool tk_features_include(const char *have, const char *need);

#endif
