/* emu.c — see emu.h: compiling for the emulation target. */
#include "emu.h"

#include <errno.h>
#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <string.h>

#include "gpu_emu_abi.h"
#include "gpu_lower.h"
#include "llvm_output.h"
#include "target.h"

typedef struct {
    LLVMTargetMachineRef tm;
    LLVMContextRef ctx;
    LLVMModuleRef mod;
} Built;

static void built_free(Built *b)
{
    if (b->mod) LLVMDisposeModule(b->mod);
    if (b->ctx) LLVMContextDispose(b->ctx);
    if (b->tm) LLVMDisposeTargetMachine(b->tm);
    memset(b, 0, sizeof *b);
}

/* The kernels of m through the GPU lowering with the emulation hooks, for
 * the host, verified and optimised. */
static int build(TirModule *m, const char *target_name, Built *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    const TkTarget *t = tk_target_find(target_name ? target_name : "");
    if (!t || t->kind != TK_TARGET_EMU) {
        snprintf(err, errlen, "'%s' is not an emulation target (see tkc --list-targets: sm_80-emu)", target_name ? target_name : "?");
        return -1;
    }
    TkGpuTarget gt = { &tk_gpu_emu, t->cpu, 32 };
    int rc = tk_gpu_check(m, &gt, err, errlen);
    if (rc != 0) return rc;
    TkResolvedTarget host;
    if (tk_target_resolve(tk_target_find("host"), &host, err, errlen) != 0) return -1;
    LLVMTargetRef target;
    char *msg = NULL;
    if (LLVMGetTargetFromTriple(host.triple, &target, &msg) != 0) {
        snprintf(err, errlen, "LLVM has no target for %s: %s", host.triple, msg ? msg : "?");
        LLVMDisposeMessage(msg);
        tk_target_resolved_free(&host);
        return -1;
    }
    out->tm = LLVMCreateTargetMachine(target, host.triple, host.cpu, host.features, LLVMCodeGenLevelAggressive, LLVMRelocPIC,
                                      LLVMCodeModelDefault);
    out->ctx = LLVMContextCreate();
    out->mod = LLVMModuleCreateWithNameInContext(m->src && m->src->name ? m->src->name : "tilekit", out->ctx);
    LLVMSetTarget(out->mod, host.triple);
    tk_target_resolved_free(&host);
    if (!out->tm) {
        snprintf(err, errlen, "cannot create a target machine for the host");
        built_free(out);
        return -1;
    }
    LLVMTargetDataRef td = LLVMCreateTargetDataLayout(out->tm);
    LLVMSetModuleDataLayout(out->mod, td);
    LLVMDisposeTargetData(td);
    rc = tk_gpu_emit(m, &gt, out->ctx, out->mod, err, errlen);
    if (rc == 0) rc = tk_llvm_verify_optimise(out->mod, out->tm, "emulation", err, errlen);
    if (rc != 0) built_free(out);
    return rc;
}

int tk_emu_emit(TirModule *m, const char *target_name, int kind, FILE *out, char *err, size_t errlen)
{
    if (kind != TK_EMIT_LLVM_IR && kind != TK_EMIT_ASM) {
        snprintf(err, errlen, "%s runs kernels in this process (tkc run --target=%s); it writes --emit=llvm or asm, no objects",
                 target_name, target_name);
        return -1;
    }
    Built b;
    int rc = build(m, target_name, &b, err, errlen);
    if (rc != 0) return rc;
    rc = tk_llvm_write(b.mod, b.tm, kind, out, err, errlen);
    built_free(&b);
    return rc;
}

int tk_emu_jit(TirModule *m, const char *target_name, TkCpuModule **out, char *err, size_t errlen)
{
    *out = NULL;
    Built b;
    int rc = build(m, target_name, &b, err, errlen);
    if (rc != 0) return rc;
    char *msg = NULL;
    LLVMMemoryBufferRef obj = NULL;
    if (LLVMTargetMachineEmitToMemoryBuffer(b.tm, b.mod, LLVMObjectFile, &msg, &obj) != 0) {
        snprintf(err, errlen, "code generation failed: %s", msg ? msg : "?");
        LLVMDisposeMessage(msg);
        built_free(&b);
        return -1;
    }
    LLVMDisposeMessage(msg);
    built_free(&b);
    /* the emulated blocks call back into the emulator */
    TkCpuSymbol syms[] = { { "tk_emu_run_block", (void *)tk_emu_run_block } };
    return tk_cpu_jit_object(obj, syms, 1, out, err, errlen) == 0 ? 0 : -1;
}
