/* nvptx.c — see nvptx.h. */
#include "nvptx.h"

#include <errno.h>
#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <string.h>

#include "cpu_jit.h"
#include "gpu_lower.h"
#include "llvm_output.h"
#include "nvptx_mma.h"
#include "target.h"

/* The target row for target_name, or NULL and a message. */
static const TkTarget *nvptx_target(const char *target_name, char *err, size_t errlen)
{
    const TkTarget *t = tk_target_find(target_name ? target_name : "");
    if (!t || t->kind != TK_TARGET_NVPTX) {
        snprintf(err, errlen, "'%s' is not an NVIDIA GPU target (see tkc --list-targets: sm_80, sm_90, sm_90a)",
                 target_name ? target_name : "?");
        return NULL;
    }
    return t;
}

int tk_nvptx_emit(const TirModule *m, const char *target_name, int kind, FILE *out, char *err, size_t errlen)
{
    const TkTarget *t = nvptx_target(target_name, err, errlen);
    if (!t) return -1;
    if (kind != TK_EMIT_LLVM_IR && kind != TK_EMIT_ASM) {
        snprintf(err, errlen, "%s: NVIDIA targets have no object files here; use --emit=ptx (or --emit=llvm)", t->name);
        return -1;
    }
    /* refuse what we cannot do before LLVM sees it (an intrinsic the SM
     * lacks is a fatal error inside LLVM) */
    TkGpuTarget gt = { &tk_gpu_nvptx, t->cpu, 32 };
    int rc = tk_gpu_check(m, &gt, err, errlen);
    if (rc != 0) return rc;

    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    LLVMTargetRef target;
    char *msg = NULL;
    if (LLVMGetTargetFromTriple(t->triple, &target, &msg) != 0) {
        snprintf(err, errlen, "LLVM has no target for %s: %s", t->triple, msg ? msg : "?");
        LLVMDisposeMessage(msg);
        return -1;
    }
    LLVMTargetMachineRef tm = LLVMCreateTargetMachine(target, t->triple, t->cpu, t->features, LLVMCodeGenLevelAggressive,
                                                      LLVMRelocDefault, LLVMCodeModelDefault);
    if (!tm) {
        snprintf(err, errlen, "cannot create a target machine for %s (%s)", t->triple, t->cpu);
        return -1;
    }
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef mod = LLVMModuleCreateWithNameInContext(m->src && m->src->name ? m->src->name : "tilekit", ctx);
    LLVMSetTarget(mod, t->triple);
    LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
    LLVMSetModuleDataLayout(mod, td);
    LLVMDisposeTargetData(td);

    rc = tk_gpu_emit(m, &gt, ctx, mod, err, errlen);
    if (rc == 0) rc = tk_llvm_verify_optimise(mod, tm, "NVPTX", err, errlen);
    if (rc == 0) rc = tk_llvm_write(mod, tm, kind, out, err, errlen);
    LLVMDisposeModule(mod);
    LLVMContextDispose(ctx);
    LLVMDisposeTargetMachine(tm);
    return rc;
}

int tk_nvptx_select_mma(void *ctx, const TirInstr *mma, const void **row, const char **name, char *err, size_t errlen)
{
    const char *sm = ctx;
    const TkType *acc = mma->args[0]->type, *a = mma->args[1]->type;
    bool at = mma->aux == 2 || mma->aux == 3;
    int64_t m = acc->dims[0], n = acc->dims[1], k = at ? a->dims[0] : a->dims[1];
    unsigned count;
    const TkNvptxMma *t = tk_nvptx_mma_table(&count);
    for (unsigned i = 0; i < count; i++) {
        const TkGpuMma *r = &t[i].mma;
        char why[200];
        if (r->operand != a->elem || r->acc != acc->elem || tk_nvptx_mma_check(&t[i], sm, why, sizeof why) != 0) continue;
        if (m <= 0 || n <= 0 || k <= 0 || m % r->m || n % r->n || k % r->k) continue;
        *row = &t[i];
        *name = r->name;
        return 0;
    }
    snprintf(err, errlen, "%s: no tensor-core instruction takes an mma of %lld×%lld×%lld with %s operands", sm ? sm : "?",
             (long long)m, (long long)n, (long long)k, tk_type_kind_name(a->elem));
    return -1;
}
