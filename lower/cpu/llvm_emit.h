/* llvm_emit.h — the entry point of TIR → LLVM IR (emit_llvm.c, emit_tiles.c).
 * For each kernel NAME the module gets two functions:
 *   void NAME__grid(void **args, const int64_t *sizes, int64_t grid[4]);
 *   void NAME__block(void **args, const int64_t *sizes, int32_t bx, int32_t by, int32_t bz);
 * args[p] is the tensor's data pointer, or a pointer to the scalar's value;
 * sizes are the bound size variables; grid[3] receives the stack one block
 * needs. A launcher calls NAME__grid once, then
 * NAME__block for every block (in any order, on any thread). */
#ifndef TK_LOWER_LLVM_EMIT_H
#define TK_LOWER_LLVM_EMIT_H

#include <llvm-c/Core.h>
#include <stdbool.h>
#include <stddef.h>

#include "tir.h"
#include "tir_layout.h"
#include "tir_legalise.h"

/* `features` are the target's LLVM features ("+avx512f,+avx512bf16,..."):
 * they choose the mma micro-kernels of intrinsics/ (NULL: portable loops). */
typedef struct {
    const char *features;   /* target features ("+avx512f,+avx512bf16,...") */
    bool debug_info;        /* DWARF line tables pointing at the .tk source */
} TkEmitOptions;

int tk_emit_llvm(const TirModule *m, LLVMContextRef ctx, LLVMModuleRef mod, const TkEmitOptions *opts, char *err, size_t errlen);

/* Legalisation's question to a CPU target (ctx: its feature string): which
 * micro-kernel row of intrinsics/cpu_mma.c takes this mma? (a TirMmaSelector) */
int emit_select_mma(void *features, const TirInstr *mma, const void **row, const char **name, char *err, size_t errlen);

/* Layout assignment's question to a CPU target (ctx: its feature string):
 * which packing does its mma micro-kernel want for B? (a TirPackChooser) */
TirPack emit_choose_pack(void *features, TkTypeKind elem);

#endif
