/* amdgpu.c — see amdgpu.h. */
#include "amdgpu.h"

#include <stdbool.h>

#include <errno.h>
#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cpu_jit.h"
#include "amdgpu_mma.h"
#include "gpu_lower.h"
#include "llvm_output.h"
#include "target.h"

#ifndef TK_LLD_PATH
#define TK_LLD_PATH "/usr/lib/llvm-22/bin/ld.lld"
#endif

extern char **environ;

static const TkAmdgpuProcessor processors[] = {
    { "gfx90a",  64, "",                 "AMD CDNA2 (MI200): MFMA, wave64" },
    { "gfx942",  64, "",                 "AMD CDNA3 (MI300): MFMA, wave64" },
    { "gfx950",  64, "",                 "AMD CDNA4 (MI350): MFMA, wave64" },
    { "gfx1100", 32, "+wavefrontsize32", "AMD RDNA3 (RX 7900): WMMA, wave32" },
    { "gfx1151", 32, "+wavefrontsize32", "AMD RDNA3.5 (Strix Halo): WMMA, wave32" },
    { "gfx1200", 32, "+wavefrontsize32", "AMD RDNA4 (RX 9060): WMMA, wave32" },
    { "gfx1201", 32, "+wavefrontsize32", "AMD RDNA4 (RX 9070): WMMA, wave32" },
};

const TkAmdgpuProcessor *tk_amdgpu_processor_table(unsigned *count)
{
    *count = sizeof processors / sizeof processors[0];
    return processors;
}

const TkAmdgpuProcessor *tk_amdgpu_processor(const char *cpu)
{
    for (unsigned i = 0; cpu && i < sizeof processors / sizeof processors[0]; i++)
        if (strcmp(processors[i].name, cpu) == 0) return &processors[i];
    return NULL;
}

typedef struct {
    const char *triple, *cpu;
    char features[128];
    int wave;
} Resolved;

static int resolve(const char *name, Resolved *r, char *err, size_t errlen)
{
    const TkTarget *t = tk_target_find(name ? name : "");
    const char *cpu = name, *extra = "";
    r->triple = "amdgcn-amd-amdhsa";
    if (t) {
        if (t->kind != TK_TARGET_AMDGPU) {
            snprintf(err, errlen, "target '%s' is not an AMD GPU", name);
            return -1;
        }
        cpu = t->cpu;
        if (t->triple) r->triple = t->triple;
        extra = t->features ? t->features : "";
    }
    const TkAmdgpuProcessor *p = tk_amdgpu_processor(cpu);
    if (!p) {
        snprintf(err, errlen, "'%s' is not an AMD GPU processor the AMDGPU backend knows (gfx90a, gfx942, gfx950, gfx1100, "
                              "gfx1151, gfx1200, gfx1201)",
                 name ? name : "?");
        return -1;
    }
    r->cpu = p->name;
    r->wave = p->wave;
    snprintf(r->features, sizeof r->features, "%s%s%s", p->features, *p->features && *extra ? "," : "", extra);
    return 0;
}

int tk_amdgpu_emit(const TirModule *m, const char *target_name, int kind, FILE *out, char *err, size_t errlen)
{
    Resolved r;
    if (resolve(target_name, &r, err, errlen) != 0) return -1;
    /* refuse what we cannot do before LLVM sees it (an unsupported matrix
     * intrinsic aborts the process inside LLVM) */
    TkGpuTarget gt = { &tk_gpu_amdgpu, r.cpu, r.wave };
    int rc = tk_gpu_check(m, &gt, err, errlen);
    if (rc != 0) return rc;

    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
    LLVMTargetRef target;
    char *msg = NULL;
    if (LLVMGetTargetFromTriple(r.triple, &target, &msg) != 0) {
        snprintf(err, errlen, "LLVM has no target for %s: %s", r.triple, msg ? msg : "?");
        LLVMDisposeMessage(msg);
        return -1;
    }
    LLVMTargetMachineRef tm = LLVMCreateTargetMachine(target, r.triple, r.cpu, r.features, LLVMCodeGenLevelAggressive,
                                                      LLVMRelocPIC, LLVMCodeModelDefault);
    if (!tm) {
        snprintf(err, errlen, "cannot create a target machine for %s (%s)", r.triple, r.cpu);
        return -1;
    }
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef mod = LLVMModuleCreateWithNameInContext(m->src && m->src->name ? m->src->name : "tilekit", ctx);
    LLVMSetTarget(mod, r.triple);
    LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
    LLVMSetModuleDataLayout(mod, td);
    LLVMDisposeTargetData(td);
    /* code object v5: what current ROCm runtimes load (LLVM 22 defaults to v6) */
    LLVMAddModuleFlag(mod, LLVMModuleFlagBehaviorError, "amdhsa_code_object_version", strlen("amdhsa_code_object_version"),
                      LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(ctx), 500, 0)));

    rc = tk_gpu_emit(m, &gt, ctx, mod, err, errlen);
    if (rc == 0) rc = tk_llvm_verify_optimise(mod, tm, "AMDGPU", err, errlen);
    if (rc == 0) rc = tk_llvm_write(mod, tm, kind, out, err, errlen);
    LLVMDisposeModule(mod);
    LLVMContextDispose(ctx);
    LLVMDisposeTargetMachine(tm);
    return rc;
}

int tk_amdgpu_link(const char *object_path, const char *hsaco_path, char *err, size_t errlen)
{
    const char *lld = getenv("TK_LD_LLD");
    if (!lld || !*lld) lld = TK_LLD_PATH;
    char *argv[] = { (char *)"ld.lld", (char *)"-shared", (char *)object_path, (char *)"-o", (char *)hsaco_path, NULL };
    pid_t pid;
    int e = posix_spawn(&pid, lld, NULL, NULL, argv, environ);
    if (e != 0) {
        snprintf(err, errlen, "cannot run %s: %s", lld, strerror(e));
        return -1;
    }
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            snprintf(err, errlen, "waiting for %s: %s", lld, strerror(errno));
            return -1;
        }
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        snprintf(err, errlen, "%s -shared %s failed (status %d)", lld, object_path, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        return -1;
    }
    return 0;
}

int tk_amdgpu_select_mma(void *ctx, const TirInstr *mma, const void **row, const char **name, char *err, size_t errlen)
{
    const char *cpu = ctx;
    const TkAmdgpuProcessor *p = tk_amdgpu_processor(cpu);
    const TkType *acc = mma->args[0]->type, *a = mma->args[1]->type;
    bool at = mma->aux == 2 || mma->aux == 3;
    int64_t m = acc->dims[0], n = acc->dims[1], k = at ? a->dims[0] : a->dims[1];
    const TkAmdgpuMma *r = p ? tk_amdgpu_mma_select(cpu, p->wave, a->elem, acc->elem, m, n, k) : NULL;
    if (!r) {
        snprintf(err, errlen, "%s: no matrix instruction of this processor takes an mma of %lld×%lld×%lld with %s operands",
                 cpu, (long long)m, (long long)n, (long long)k, tk_type_kind_name(a->elem));
        return -1;
    }
    *row = r;
    *name = r->name;
    return 0;
}
