/* llvm_output.h — the last steps every code generator of targets/ shares:
 * check a generated module, optimise it at O3, and write it out. */
#ifndef TK_TARGETS_LLVM_OUTPUT_H
#define TK_TARGETS_LLVM_OUTPUT_H

#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>
#include <stddef.h>
#include <stdio.h>

/* Verifies mod (a failure is an internal error of the `what` code generator)
 * and runs LLVM's O3 pipeline for tm. 0, or -1 with err. */
int tk_llvm_verify_optimise(LLVMModuleRef mod, LLVMTargetMachineRef tm, const char *what, char *err, size_t errlen);

/* Writes mod as LLVM IR (kind TK_EMIT_LLVM_IR), assembly (TK_EMIT_ASM: PTX for
 * NVPTX) or an object (TK_EMIT_OBJ) of tm (a TkEmitKind, targets/cpu/cpu_jit.h).
 * 0, or -1 with err. */
int tk_llvm_write(LLVMModuleRef mod, LLVMTargetMachineRef tm, int kind, FILE *out, char *err, size_t errlen);

#endif
