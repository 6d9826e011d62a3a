/* amdgpu.h — AMD GPU code generation: TIR → LLVM IR (lower/gpu/gpu_lower.c)
 * → O3 → AMDGPU assembly or an ELF relocatable object for amdgcn-amd-amdhsa,
 * and linking such an object into a loadable code object (.hsaco) with
 * LLVM 22's ld.lld. No GPU is needed for any of this; launching (libdrm)
 * comes later.
 *
 * Scope: the TIR subset of register-tile matrix products (see
 * lower/gpu/gpu_lower.h). A kernel outside it, or one that would need a matrix
 * instruction the processor lacks, is refused with a one-line message before
 * LLVM sees it. */
#ifndef TK_TARGETS_AMDGPU_H
#define TK_TARGETS_AMDGPU_H

#include <stddef.h>
#include <stdio.h>

#include "tir.h"

/* An AMDGPU processor tkc knows: its LLVM name, wave size and features. */
typedef struct {
    const char *name;        /* "gfx942" */
    int wave;                /* 64 (CDNA) or 32 (RDNA) */
    const char *features;    /* LLVM features to pin the wave size */
    const char *description;
} TkAmdgpuProcessor;

/* NULL if `cpu` is not one of ours. */
const TkAmdgpuProcessor *tk_amdgpu_processor(const char *cpu);
const TkAmdgpuProcessor *tk_amdgpu_processor_table(unsigned *count);

/* Writes LLVM IR (kind TK_EMIT_LLVM_IR), assembly (TK_EMIT_ASM) or an ELF
 * relocatable object (TK_EMIT_OBJ) for every kernel of m; `kind` is a
 * TkEmitKind of targets/cpu/cpu_jit.h. target_name is a target of
 * targets/target.h of kind TK_TARGET_AMDGPU, or a processor name of
 * tk_amdgpu_processor_table. Returns 0; 1 if the kernels are outside what
 * the AMDGPU backend supports (err says what, where, for which processor);
 * -1 on any other failure. */
/* Legalisation for an AMDGPU processor (ctx: its name, e.g. "gfx942"): the
 * MFMA/WMMA row whose base tile divides this mma (a TirMmaSelector); an mma
 * no row takes is an error naming the tile shapes. */
int tk_amdgpu_select_mma(void *cpu, const TirInstr *mma, const void **row, const char **name, char *err, size_t errlen);

int tk_amdgpu_emit(const TirModule *m, const char *target_name, int kind, FILE *out, char *err, size_t errlen);

/* Links an object written by tk_amdgpu_emit into a code object with
 * `ld.lld -shared` of LLVM 22 (run with posix_spawn; the unversioned ld.lld
 * may be LLVM 14, which rejects these objects). 0, or -1 + message. */
int tk_amdgpu_link(const char *object_path, const char *hsaco_path, char *err, size_t errlen);

#endif
