/* llvm_output.c — see llvm_output.h. */
#include "llvm_output.h"

#include <errno.h>
#include <llvm-c/Analysis.h>
#include <llvm-c/Error.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <string.h>

#include "cpu_jit.h"

int tk_llvm_verify_optimise(LLVMModuleRef mod, LLVMTargetMachineRef tm, const char *what, char *err, size_t errlen)
{
    char *msg = NULL;
    if (LLVMVerifyModule(mod, LLVMReturnStatusAction, &msg) != 0) {
        snprintf(err, errlen, "internal error: generated %s LLVM IR does not verify: %.300s", what, msg ? msg : "?");
        LLVMDisposeMessage(msg);
        return -1;
    }
    LLVMDisposeMessage(msg);
    LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
    LLVMErrorRef e = LLVMRunPasses(mod, "default<O3>", tm, po);
    LLVMDisposePassBuilderOptions(po);
    if (e) {
        char *m = LLVMGetErrorMessage(e);
        snprintf(err, errlen, "optimisation failed: %s", m);
        LLVMDisposeErrorMessage(m);
        return -1;
    }
    return 0;
}

int tk_llvm_write(LLVMModuleRef mod, LLVMTargetMachineRef tm, int kind, FILE *out, char *err, size_t errlen)
{
    if (kind == TK_EMIT_LLVM_IR) {
        char *text = LLVMPrintModuleToString(mod);
        fputs(text, out);
        LLVMDisposeMessage(text);
        return 0;
    }
    char *msg = NULL;
    LLVMMemoryBufferRef buf = NULL;
    int rc = 0;
    if (LLVMTargetMachineEmitToMemoryBuffer(tm, mod, kind == TK_EMIT_ASM ? LLVMAssemblyFile : LLVMObjectFile, &msg, &buf) != 0) {
        snprintf(err, errlen, "code generation failed: %s", msg ? msg : "?");
        rc = -1;
    } else {
        size_t n = LLVMGetBufferSize(buf);
        if (fwrite(LLVMGetBufferStart(buf), 1, n, out) != n) {
            snprintf(err, errlen, "cannot write the output: %s", strerror(errno));
            rc = -1;
        }
        LLVMDisposeMemoryBuffer(buf);
    }
    LLVMDisposeMessage(msg);
    return rc;
}
