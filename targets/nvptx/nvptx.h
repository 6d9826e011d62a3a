/* nvptx.h — NVIDIA GPU code generation: TIR → LLVM IR (the shared GPU
 * lowering, lower/gpu/gpu_lower.c, with the NVPTX hooks) → O3 → PTX text for
 * nvptx64-nvidia-cuda. No GPU and no CUDA toolkit are needed for any of
 * this; loading and launching (the CUDA driver through dlopen) come later.
 *
 * Scope: the TIR subset of register-tile matrix products (see
 * lower/gpu/gpu_lower.h). A kernel outside it, or one that would need a
 * tensor-core instruction the SM lacks, is refused with a one-line message
 * before LLVM sees it. */
#ifndef TK_TARGETS_NVPTX_H
#define TK_TARGETS_NVPTX_H

#include <stddef.h>
#include <stdio.h>

#include "tir.h"

/* Writes LLVM IR (kind TK_EMIT_LLVM_IR) or PTX (TK_EMIT_ASM) for every
 * kernel of m; `kind` is a TkEmitKind of targets/cpu/cpu_jit.h (there is no
 * NVPTX object format: TK_EMIT_OBJ is refused). target_name is a target of
 * targets/target.h of kind TK_TARGET_NVPTX ("sm_80", "sm_90", "sm_90a").
 * Returns 0; 1 if the kernels are outside what the NVPTX backend supports
 * (err says what, where, for which SM); -1 on any other failure. */
int tk_nvptx_emit(const TirModule *m, const char *target_name, int kind, FILE *out, char *err, size_t errlen);

/* Legalisation for an SM (ctx: its name, e.g. "sm_90a"): the tensor-core row
 * whose base tile divides this mma (a TirMmaSelector); an mma no row takes
 * is an error naming the tile shapes. */
int tk_nvptx_select_mma(void *sm, const TirInstr *mma, const void **row, const char **name, char *err, size_t errlen);

#endif
