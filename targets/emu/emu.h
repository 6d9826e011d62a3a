/* emu.h — the emulation target (sm_80-emu): NVIDIA's GPU lowering run on the
 * CPU with GPU semantics, so that the lowering can be proven without a GPU.
 *
 * A kernel is lowered exactly as for sm_80 (lower/gpu/gpu_lower.c with the
 * NVPTX tables: fragments, lane maps, masks) but compiled for the host. Each
 * GPU thread of a block runs as a fiber on its own stack; the 32 lanes of a
 * warp meet at every matrix instruction, which the emulator executes from
 * all lanes' registers with its own implementation of the PTX ISA's
 * fragment layouts (emu_mma.c) — so a wrong lane map, mask or register
 * order in the lowering gives wrong numbers here. What it cannot catch:
 * timing, and memory-model races between threads (threads run one at a time,
 * switching only at collectives). */
#ifndef TK_TARGETS_EMU_H
#define TK_TARGETS_EMU_H

#include <stddef.h>
#include <stdio.h>

#include "cpu_jit.h"
#include "tir.h"

/* Compiles every kernel of m for the emulation target `target_name` (a
 * TK_TARGET_EMU row of targets/target.h) into this process. The module's
 * NAME__grid / NAME__block follow tk/rt.h: tk_cpu_lookup finds them and
 * tk_cpu_launch runs them. 0; 1 if a kernel is outside what the GPU
 * lowering supports (err says what and where); -1 on any other failure. */
int tk_emu_jit(TirModule *m, const char *target_name, TkCpuModule **out, char *err, size_t errlen);

/* LLVM IR (TK_EMIT_LLVM_IR) or host assembly (TK_EMIT_ASM) of the emulated
 * kernels. Same status as tk_emu_jit. */
int tk_emu_emit(TirModule *m, const char *target_name, int kind, FILE *out, char *err, size_t errlen);

/* 1 and the message of the first emulated block that failed since the last
 * call (lanes of a warp waiting at a matrix instruction that others never
 * reach, a fiber stack that cannot be had), clearing it; 0 if none did. A
 * failed block stops where it is: its outputs are incomplete. */
int tk_emu_take_error(char *err, size_t errlen);

/* What the emulator counted since the last call (all host threads), clearing it. */
typedef struct {
    unsigned long ldmatrix;             /* warp-wide ldmatrix instructions */
    unsigned long ldmatrix_conflicts;   /* 8x8 matrices of them whose 8 rows collided in shared-memory banks */
    unsigned long cp_async;             /* 16-byte asynchronous copies into shared memory */
    unsigned long wgmma;                /* warpgroup products (wgmma.mma_async, sm_90a) */
    unsigned long tma;                  /* TMA tensor copies (cp.async.bulk.tensor, sm_90) */
} TkEmuCounts;
void tk_emu_take_counts(TkEmuCounts *c);

#endif
