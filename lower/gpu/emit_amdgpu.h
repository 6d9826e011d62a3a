/* emit_amdgpu.h — TIR → LLVM IR for AMD GPUs (amdgcn-amd-amdhsa).
 *
 * The GPU execution model (../shared/DESIGN.md): a block is a workgroup of
 * warps·wave work-items, a warp is a wavefront, and an rt tile lives in the
 * VGPRs of its wave as the fragments the matrix instruction wants. Each
 * kernel NAME becomes one amdgpu_kernel function
 *     void NAME(<params in declaration order>, i64 size_0, ..., i64 size_n-1)
 * where a gl tensor is a `ptr addrspace(1)` to its first element (row-major,
 * dense), a scalar parameter is passed by value (bool as i8), and the size
 * variables follow as i64 in the order the kernel's sizes are listed. The
 * grid is the launcher's business (it evaluates the kernel's grid
 * expressions on the host from the sizes); this function runs one block.
 *
 * Supported subset (this is the first AMDGPU code path): PARAM, SIZE,
 * BLOCK_ID (llvm.amdgcn.workgroup.id.*), WARP_ID (workitem.id.x / wave),
 * constants, scalar BINARY/UNARY/CAST/CDIV and scalar MAP1/MAP2, VAR/GET/SET
 * of scalars and rt tiles, FILL, LOAD of an rt from a gl (masked), MMA ab
 * (bf16 operands, f32 accumulator), STORE of an rt to a gl (masked), FOR
 * and IF. Every other op (st/sv/rv tiles, SYNC, tile maps, reductions,
 * conversions, element access, the transposed mma forms) is refused with
 *     FILE:LINE:COL: gfx942: TIR op X ... is not supported by the AMDGPU backend yet
 * before any LLVM call, as is an mma whose (intrinsic, processor) pairing the
 * table in intrinsics/amdgpu_mma.h does not list — LLVM would abort. */
#ifndef TK_LOWER_EMIT_AMDGPU_H
#define TK_LOWER_EMIT_AMDGPU_H

#include <llvm-c/Core.h>
#include <stddef.h>

#include "amdgpu_mma.h"
#include "tir.h"

/* Checks m against the subset and picks each kernel's base tile, without
 * touching LLVM. 0 if every kernel can be emitted for processor `cpu` with
 * wave size `wave`; 1 and "FILE:LINE:COL: cpu: reason" in err if not. */
int tk_amdgpu_check(const TirModule *m, const char *cpu, int wave, char *err, size_t errlen);

/* Emits every kernel of m into mod (whose triple and data layout the caller
 * has set for the processor). 0; 1 with a message if m is outside the
 * subset (see tk_amdgpu_check); -1 with a message on an internal failure. */
int tk_emit_amdgpu(const TirModule *m, LLVMContextRef ctx, LLVMModuleRef mod, const char *cpu, int wave, char *err,
                   size_t errlen);

#endif
